package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
)

// Keys as a terminal sends them (xterm).
const (
	keyF4   = "\x1bOS"
	keyAltN = "\x1bn"
	keyAltW = "\x1bw"
	keyTab  = "\t"
)

// whenUser answers only a request whose user texts contain s: each
// thread's prompt names its own answers.
func whenUser(s string, items ...mockapi.Item) mockapi.Response {
	return mockapi.Response{Items: items, When: func(r mockapi.Request) bool {
		return strings.Contains(strings.Join(r.UserTexts(), "\n"), s)
	}}
}

// deckRepo makes env.Dir a git repository with one commit and returns it
// with symlinks resolved (as git and codex name it).
func deckRepo(t *testing.T, env *e2e.Env) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(env.Dir)
	if err != nil {
		t.Fatal(err)
	}
	env.Dir = dir
	if err := os.WriteFile(filepath.Join(dir, "shared.txt"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"}, {"add", "-A"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init"},
	} {
		if res, err := (localGit{}).run(dir, args...); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, res)
		}
	}
	return dir
}

// Three threads at once on one app-server, two of them in worktrees made
// from the command center: each answer is in its own pane and in no
// other; each worktree exists on its branch; the background thread's
// approval is answered from the inbox, and its command ran in its
// worktree; the list marks the two worktree threads that changed the
// same file.
func TestDeckThreeThreadsTwoWorktrees(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := e2e.NewEnv(t,
		whenUser("alpha", mockapi.Text("ALPHA-ANSWER here")),
		whenUser("beta", mockapi.ExecCommand("echo beta > shared.txt")),
		whenUser("beta", mockapi.Text("BETA-ANSWER here")),
		whenUser("gamma", mockapi.ExecCommand("echo gamma > shared.txt")),
		whenUser("gamma", mockapi.Text("GAMMA-ANSWER here")),
	)
	dir := deckRepo(t, env)
	lt := startTandem(t, env, "-a", "untrusted", "-s", "workspace-write", "alpha task")
	lt.waitScreen("ALPHA-ANSWER here", patience)

	// Two threads in worktrees, from the command center.
	lt.write(keyF4)
	lt.waitScreen("tandem agents", patience)
	for _, p := range []string{"beta task", "gamma task"} {
		lt.write(keyAltW)
		lt.waitScreen("prompt for a new thread in a worktree", patience)
		lt.keys(p + "\r")
		lt.waitScreen(p, patience)
	}
	// Both ask to run their command: the inbox has both, oldest first.
	lt.write(keyTab)
	lt.waitScreen("2 requests waiting", patience)
	lt.waitScreen("echo beta > shared.txt", patience)
	lt.waitScreen("echo gamma > shared.txt", patience)
	for left := 1; left >= 0; left-- {
		lt.keys("\r") // answer the first there: the lane's own form
		lt.waitScreen("from the inbox", patience)
		lt.waitScreen("Run this command?", patience)
		time.Sleep(time.Second) // the form's grace: a key sooner is not the person's answer
		lt.keys("\r")           // "Yes, run it"
		want := fmt.Sprintf("inbox · %d requests waiting", left)
		if left == 1 {
			want = "inbox · 1 request waiting"
		}
		lt.waitScreen(want, patience)
	}
	lt.waitScreen("0 requests waiting", patience)

	// Back to the list: the two worktree threads both changed shared.txt.
	lt.write(keyTab)
	lt.waitScreen("tandem agents", patience)
	lt.waitScreen("! same file: shared.txt", patience)

	// Each pane holds its own answer and no other's.
	for _, tc := range []struct{ open, want string }{
		{"gamma", "GAMMA-ANSWER here"}, {"beta", "BETA-ANSWER here"}, {"alpha", "ALPHA-ANSWER here"},
	} {
		lt.write(tc.open) // the filter
		lt.waitScreen("filter: "+tc.open, patience)
		lt.keys("\r")
		lt.waitScreen(tc.want, patience)
		screen := lt.screen()
		for _, other := range []string{"ALPHA-ANSWER", "BETA-ANSWER", "GAMMA-ANSWER"} {
			if other != strings.Fields(tc.want)[0] && strings.Contains(screen, other) {
				t.Fatalf("the %s pane shows %s:\n%s", tc.open, other, screen)
			}
		}
		lt.write(keyF4)
		lt.waitScreen("tandem agents", patience)
		lt.write("\x1b") // Esc clears the filter
		lt.waitScreen("type to filter", patience)
	}
	// Each worktree exists on its branch, and the command ran there
	// (each thread has answered: its command ended).
	out, err := (localGit{}).run(dir, "worktree", "list", "--porcelain")
	if err != nil {
		t.Fatal(err)
	}
	var trees []string
	for _, line := range strings.Split(out, "\n") {
		if p, ok := strings.CutPrefix(line, "worktree "); ok && p != dir {
			trees = append(trees, p)
		}
	}
	if len(trees) != 2 || !strings.Contains(out, "refs/heads/tandem/") {
		t.Fatalf("want two tandem worktrees besides %s, git says:\n%s", dir, out)
	}
	got := map[string]bool{}
	for _, tr := range trees {
		b, err := os.ReadFile(filepath.Join(tr, "shared.txt"))
		if err != nil {
			t.Fatal(err)
		}
		got[strings.TrimSpace(string(b))] = true
	}
	if !got["beta"] || !got["gamma"] {
		t.Fatalf("each thread's command should have run in its own worktree: %v", got)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "shared.txt")); string(b) != "one\n" {
		t.Fatalf("the main checkout changed: %q", b)
	}

}
