package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
)

const (
	keyAltM = "\x1bm"
	keyAltD = "\x1bd"
)

// commitAll is a shell command the mock's agent runs: write text to file
// and commit everything.
func commitAll(file, text string) string {
	return "echo " + text + " > " + file + " && git add -A && git -c user.name=t -c user.email=t@example.com commit -q -m " + text
}

// gitOut runs git in dir for a test and returns its output, trimmed.
func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := (localGit{}).run(dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(out)
}

// worktreeWith is the tandem worktree of the repository at dir that
// holds file (its path, "" for none).
func worktreeWith(t *testing.T, dir, file string) string {
	t.Helper()
	for _, line := range strings.Split(gitOut(t, dir, "worktree", "list", "--porcelain"), "\n") {
		if p, ok := strings.CutPrefix(line, "worktree "); ok && p != dir {
			if _, err := os.Stat(filepath.Join(p, file)); err == nil {
				return p
			}
		}
	}
	return ""
}

// From the command center, on the real app-server with real git: a
// worktree thread's commit is merged back into the main checkout; a
// merge that would conflict is refused with the file named and neither
// checkout changed; removing a worktree with uncommitted changes is
// refused with the file named, then done when the remove key is pressed
// again.
func TestDeckMergeAndRemoveWorktrees(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := e2e.NewEnv(t,
		whenUser("first task", mockapi.Text("FIRST-ANSWER")),
		whenUser("feature task", mockapi.ExecCommand(commitAll("feature.txt", "feature"))),
		whenUser("feature task", mockapi.Text("FEATURE-DONE")),
		whenUser("clash task", mockapi.ExecCommand(commitAll("shared.txt", "clash"))),
		whenUser("clash task", mockapi.Text("CLASH-DONE")),
		whenUser("dirty task", mockapi.ExecCommand("echo dirty > dirty.txt")),
		whenUser("dirty task", mockapi.Text("DIRTY-DONE")),
	)
	dir := deckRepo(t, env)
	lt := startTandem(t, env, "-a", "never", "-s", "danger-full-access", "first task")
	lt.waitScreen("FIRST-ANSWER", patience)
	lt.write(keyF4)
	lt.waitScreen("tandem agents", patience)
	newInWorktree := func(prompt, done string) {
		t.Helper()
		lt.write(keyAltW)
		lt.waitScreen("prompt for a new thread in a worktree", patience)
		lt.keys(prompt + "\r")
		lt.waitScreen(done, patience) // its last line, in the list
	}

	// Merged back: the main checkout gets the thread's commit.
	newInWorktree("feature task", "FEATURE-DONE")
	lt.waitScreen("Alt+M merge back", patience) // the new lane is selected
	lt.write(keyAltM)
	lt.waitScreen("merged tandem/", patience)
	lt.waitScreen("feature.txt", patience)
	if b, err := os.ReadFile(filepath.Join(dir, "feature.txt")); err != nil || string(b) != "feature\n" {
		t.Fatalf("the main checkout has no feature.txt from the merge: %q %v", b, err)
	}
	if log := gitOut(t, dir, "log", "--format=%s"); !strings.Contains(log, "feature") {
		t.Fatalf("main's log has no feature commit:\n%s", log)
	}

	// A conflict: refused, naming the file, nothing changed.
	newInWorktree("clash task", "CLASH-DONE")
	if err := os.WriteFile(filepath.Join(dir, "shared.txt"), []byte("main side\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitOut(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qam", "main side")
	var clashWT string
	for _, line := range strings.Split(gitOut(t, dir, "worktree", "list", "--porcelain"), "\n") {
		if p, ok := strings.CutPrefix(line, "worktree "); ok && p != dir {
			if b, _ := os.ReadFile(filepath.Join(p, "shared.txt")); string(b) == "clash\n" {
				clashWT = p
			}
		}
	}
	if clashWT == "" {
		t.Fatalf("no worktree with the clash commit:\n%s", gitOut(t, dir, "worktree", "list"))
	}
	mainHead, wtHead := gitOut(t, dir, "rev-parse", "HEAD"), gitOut(t, clashWT, "rev-parse", "HEAD")
	lt.write(keyAltM)
	lt.waitScreen("would conflict in shared.txt", patience)
	lt.waitScreen("nothing was changed", patience)
	for _, c := range []struct{ dir, head string }{{dir, mainHead}, {clashWT, wtHead}} {
		if h := gitOut(t, c.dir, "rev-parse", "HEAD"); h != c.head {
			t.Errorf("%s moved from %s to %s", c.dir, c.head, h)
		}
		if st := gitOut(t, c.dir, "status", "--porcelain"); st != "" {
			t.Errorf("%s is not clean after the refused merge:\n%s", c.dir, st)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "shared.txt")); string(b) != "main side\n" {
		t.Errorf("main's shared.txt changed: %q", b)
	}

	// A dirty worktree: refused with the file named, then removed.
	newInWorktree("dirty task", "DIRTY-DONE")
	dirty := worktreeWith(t, dir, "dirty.txt")
	if dirty == "" {
		t.Fatalf("no worktree with dirty.txt:\n%s", gitOut(t, dir, "worktree", "list"))
	}
	branch := gitOut(t, dirty, "symbolic-ref", "--short", "HEAD")
	lt.write(keyAltD)
	lt.waitScreen("uncommitted changes in dirty.txt", patience)
	lt.waitScreen("anyway, losing what is below? Alt+D yes", patience)
	if _, err := os.Stat(filepath.Join(dirty, "dirty.txt")); err != nil {
		t.Fatalf("the refused removal removed the worktree: %v", err)
	}
	lt.write(keyAltD)
	lt.waitScreen("removed the worktree", patience)
	if _, err := os.Stat(dirty); !os.IsNotExist(err) {
		t.Errorf("the worktree %s is still there: %v", dirty, err)
	}
	if b := gitOut(t, dir, "branch", "--list", branch); b != "" {
		t.Errorf("the branch %s is still there: %q", branch, b)
	}
	lt.waitGone("dirty task", patience) // its lane is closed
}

// A thread an earlier run started in a worktree is listed by `tandem
// agents` with its worktree's branch; Enter opens it with its history,
// and its worktree, found from the thread's cwd, merges back.
func TestDeckOpensStoredThread(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := e2e.NewEnv(t,
		whenUser("earlier task", mockapi.ExecCommand(commitAll("old.txt", "old"))),
		whenUser("earlier task", mockapi.Text("EARLIER-ANSWER")),
	)
	dir := deckRepo(t, env)
	first := startTandem(t, env, "-a", "never", "-s", "danger-full-access", "--worktree", "old", "earlier task")
	first.waitScreen("EARLIER-ANSWER", patience)
	first.keys(keyCtrlD)
	first.waitExitStatus(patience, 0)

	lt := startTandem(t, env, "agents")
	lt.waitScreen("tandem agents", patience)
	lt.waitScreen("earlier task", patience)
	lt.waitScreen("tandem/old", patience)
	lt.write("earlier")
	lt.waitScreen("Enter open (resume it)", patience)
	lt.keys("\r")
	lt.waitScreen("EARLIER-ANSWER", patience) // its history
	lt.write(keyF4)
	lt.waitScreen("tandem agents", patience)
	lt.waitScreen("Alt+M merge back", patience)
	if s := lt.screen(); strings.Contains(s, "unread") {
		t.Errorf("the thread just read is unread:\n%s", s)
	}
	lt.write(keyAltM)
	lt.waitScreen("merged tandem/old", patience)
	if b, err := os.ReadFile(filepath.Join(dir, "old.txt")); err != nil || string(b) != "old\n" {
		t.Fatalf("the main checkout has no old.txt from the merge: %q %v", b, err)
	}
}

// An agent that could not commit (codex's sandbox may hold .git
// read-only) leaves its work uncommitted: Alt+M in the command center
// asks to commit it and merge, listing the files and the commit's
// message, which names the thread; Alt+M again commits them on the
// worktree's branch and merges: the main checkout gets the files, its
// log the commit.
func TestDeckCommitsAndMergesUncommittedWork(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := e2e.NewEnv(t,
		whenUser("first task", mockapi.Text("FIRST-ANSWER")),
		whenUser("wip task", mockapi.ExecCommand("echo wip > wip.txt && mkdir -p pkg && echo two > pkg/two.txt")),
		whenUser("wip task", mockapi.Text("WIP-DONE")),
	)
	dir := deckRepo(t, env)
	identity := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}
	lt := startTandemEnv(t, env, identity, "-a", "never", "-s", "danger-full-access", "first task")
	lt.waitScreen("FIRST-ANSWER", patience)
	lt.write(keyF4)
	lt.waitScreen("tandem agents", patience)
	lt.write(keyAltW)
	lt.waitScreen("prompt for a new thread in a worktree", patience)
	lt.keys("wip task\r")
	lt.waitScreen("WIP-DONE", patience)
	lt.waitScreen("Alt+M merge back", patience)
	wt := worktreeWith(t, dir, "wip.txt")
	if wt == "" {
		t.Fatalf("no worktree with wip.txt:\n%s", gitOut(t, dir, "worktree", "list"))
	}
	before := gitOut(t, wt, "rev-parse", "HEAD")

	lt.write(keyAltM)
	lt.waitScreen("commit and merge wip task's worktree? the agent left 2 files uncommitted", patience)
	lt.waitScreen("pkg/two.txt", patience)
	lt.waitScreen("tandem: wip task (what the thread left uncommitted)", patience)
	if h := gitOut(t, wt, "rev-parse", "HEAD"); h != before {
		t.Fatalf("the question committed already: %s → %s", before, h)
	}
	lt.write(keyAltM)
	lt.waitScreen("committed 2 file(s) on tandem/", patience)
	lt.waitScreen("merged tandem/", patience)
	for f, want := range map[string]string{"wip.txt": "wip\n", "pkg/two.txt": "two\n"} {
		if b, err := os.ReadFile(filepath.Join(dir, f)); err != nil || string(b) != want {
			t.Errorf("the main checkout's %s after the merge: %q %v", f, b, err)
		}
	}
	if log := gitOut(t, dir, "log", "-1", "--format=%s"); log != "tandem: wip task (what the thread left uncommitted)" {
		t.Errorf("main's last commit is %q", log)
	}
	if st := gitOut(t, wt, "status", "--porcelain"); st != "" {
		t.Errorf("the worktree is not clean after the commit:\n%s", st)
	}
}
