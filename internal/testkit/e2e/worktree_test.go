package e2e

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
	"tandem/internal/worktree"
)

// gitHere runs git in dir on the test's side (to set up and check the
// repository), failing the test when it fails.
func gitHere(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), gitIdentity...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

// gitIdentity is git's author and committer for the commits of the test
// and of the app-server's commands (the runner's environment).
var gitIdentity = []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}

// gitRepo makes dir a repository "repo" with one commit of f.txt, and
// returns its root (inside dir, so the worktrees beside it are removed
// with dir).
func gitRepo(t *testing.T, dir string) string {
	t.Helper()
	root := filepath.Join(dir, "repo")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	gitHere(t, root, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte("1\n2\n3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitHere(t, root, "add", "-A")
	gitHere(t, root, "commit", "-q", "-m", "init")
	return root
}

// A worktree made through the app-server's command/exec (the thread
// itself read-only: the runner's own sandbox lets git write beside the
// repository), a thread started in it whose command runs there (pwd), the
// agent's commit merged back, and a conflicting merge refused with
// neither checkout changed.
func TestWorktreeThroughCommandExec(t *testing.T) {
	e := worktreeEnv(t)
	s, ch := e.Session(t, "never", "read-only")
	worktreeScenario(t, e, s, ch)
}

// The same over the test sshd: every git command goes through the
// remote app-server's command/exec.
func TestSSHWorktreeThroughCommandExec(t *testing.T) {
	e := worktreeEnv(t)
	srv := e.StartSSHD(t)
	ch := make(chan any, 100000)
	s, _ := startSession(t, Patience, e.SSHTransport(srv), e.Dir, "never", "read-only", nil, func(msg any) { ch <- msg })
	worktreeScenario(t, e, s, ch)
}

// worktreeEnv is an env whose agent runs pwd, then answers; its Dir
// has no symbolic link in it (git names the real path).
func worktreeEnv(t *testing.T) *Env {
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand("pwd")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("done")}},
	)
	dir, err := filepath.EvalSymlinks(e.Dir)
	if err != nil {
		t.Fatal(err)
	}
	e.Dir = dir
	return e
}

// worktreeScenario runs the scenario above on s, whose events come on ch.
func worktreeScenario(t *testing.T, e *Env, s *backend.Session, ch <-chan any) {
	dir := e.Dir
	root := gitRepo(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	r := worktree.Server{Exec: identityExec{s}}

	wt, err := worktree.Create(ctx, r, root, "e2e")
	if err != nil {
		t.Fatalf("Create through command/exec: %v", err)
	}
	if want := filepath.Join(dir, "repo-e2e"); wt.Path != want || wt.Branch != "tandem/e2e" {
		t.Fatalf("Create = %+v, want %s on tandem/e2e", wt, want)
	}
	if got := strings.TrimSpace(gitHere(t, wt.Path, "symbolic-ref", "--short", "HEAD")); got != "tandem/e2e" {
		t.Fatalf("%s has %q checked out", wt.Path, got)
	}

	resp, err := s.StartThreadIn(ctx, wt.Path)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Cwd != wt.Path {
		t.Errorf("thread/start's cwd %q, want %s", resp.Cwd, wt.Path)
	}
	if _, err := s.StartTurn(ctx, backend.TurnInput{Text: "where are you?"}); err != nil {
		t.Fatal(err)
	}
	var pwd string
	Await[backend.TurnCompletedEvent](t, ch, Patience, func(v any) {
		if ev, ok := v.(backend.ItemCompletedEvent); ok && ev.Item.Type == "commandExecution" && ev.Item.AggregatedOutput != nil {
			pwd = strings.TrimSpace(*ev.Item.AggregatedOutput)
		}
	})
	if pwd != wt.Path {
		t.Errorf("the agent's pwd printed %q, want the worktree %s", pwd, wt.Path)
	}

	// The agent's work, committed in the worktree, merges back.
	if err := os.WriteFile(filepath.Join(wt.Path, "f.txt"), []byte("1\nagent\n3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitHere(t, wt.Path, "commit", "-q", "-am", "agent")
	if _, err := worktree.Merge(ctx, r, wt); err != nil {
		t.Fatalf("Merge through command/exec: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "f.txt")); string(b) != "1\nagent\n3\n" {
		t.Errorf("f.txt at the base after the merge: %q", b)
	}

	// Then both change line 2: the merge is refused, nothing changes.
	if err := os.WriteFile(filepath.Join(wt.Path, "f.txt"), []byte("1\nagent again\n3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitHere(t, wt.Path, "commit", "-q", "-am", "agent again")
	if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte("1\nuser\n3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitHere(t, root, "commit", "-q", "-am", "user")
	look := func(d string) string {
		b, _ := os.ReadFile(filepath.Join(d, "f.txt"))
		return gitHere(t, d, "rev-parse", "HEAD") + gitHere(t, d, "status", "--porcelain", "--untracked-files=all") + string(b)
	}
	baseBefore, wtBefore := look(root), look(wt.Path)
	_, err = worktree.Merge(ctx, r, wt)
	var conflict *worktree.ConflictError
	if !errors.As(err, &conflict) || len(conflict.Files) != 1 || conflict.Files[0] != "f.txt" {
		t.Fatalf("a conflicting Merge = %v, want f.txt named", err)
	}
	if after := look(root); after != baseBefore {
		t.Errorf("the base changed:\n%s\n→\n%s", baseBefore, after)
	}
	if after := look(wt.Path); after != wtBefore {
		t.Errorf("the worktree changed:\n%s\n→\n%s", wtBefore, after)
	}
	if _, err := os.Stat(filepath.Join(root, ".git", "MERGE_HEAD")); err == nil {
		t.Errorf("a merge was left in progress at the base")
	}
}

// identityExec gives the app-server's git commands the test's git
// identity (the test's HOME has no git config).
type identityExec struct{ s *backend.Session }

func (x identityExec) Exec(ctx context.Context, r backend.ExecRequest) (backend.ExecResult, error) {
	env := map[string]string{}
	for k, v := range r.Env {
		env[k] = v
	}
	for _, kv := range gitIdentity {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	r.Env = env
	return x.s.Exec(ctx, r)
}
