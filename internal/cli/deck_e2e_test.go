package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
	"tandem/internal/testkit/sshtest"
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
// same file. With a local app-server, and over ssh (the worktrees are
// made on the agent's machine, through command/exec).
func TestDeckThreeThreadsTwoWorktrees(t *testing.T) {
	for _, tc := range []struct {
		name string
		args func(t *testing.T, env *e2e.Env) []string
	}{
		{"local", func(*testing.T, *e2e.Env) []string { return nil }},
		{"ssh", func(t *testing.T, env *e2e.Env) []string {
			srv := env.StartSSHDWith(t, sshtest.Options{Env: []string{"CODEX_HOME=" + env.Home}})
			return sshArgs(srv, env)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() {
				t.Skip("e2e")
			}
			deckThreeThreads(t, tc.args)
		})
	}
}

// deckThreeThreads is TestDeckThreeThreadsTwoWorktrees with the
// arguments args gives first.
func deckThreeThreads(t *testing.T, args func(t *testing.T, env *e2e.Env) []string) {
	env := e2e.NewEnv(t,
		whenUser("alpha", mockapi.Text("ALPHA-ANSWER here")),
		whenUser("beta", mockapi.ExecCommand("echo beta > shared.txt")),
		whenUser("beta", mockapi.Text("BETA-ANSWER here")),
		whenUser("gamma", mockapi.ExecCommand("echo gamma > shared.txt")),
		whenUser("gamma", mockapi.Text("GAMMA-ANSWER here")),
	)
	dir := deckRepo(t, env)
	argv := append(args(t, env), "-a", "untrusted", "-s", "workspace-write", "alpha task")
	lt := startTandem(t, env, argv...)
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
		lt.waitScreen("▌ "+tc.open+" task", patience) // its pane (the list's LAST column shows answers too)
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

// tandem agents on the daemon opens the threads the daemon has loaded —
// here one another tandem runs a turn on — as lanes: its row is listed,
// and opened it streams on to the end of the answer (from where it was
// resumed, as tandem resume does), no line twice.
func TestAgentsOpensTheDaemonsThreads(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	const n = 12
	env := e2e.NewEnv(t, numberedAnswer(n, 250*time.Millisecond))
	// The model's answer waits until the command center lists the turn
	// as running, however long `tandem agents` takes to start: the turn
	// can't end before it is listed.
	listed := make(chan struct{})
	release := sync.OnceFunc(func() { close(listed) })
	t.Cleanup(release) // a failed test leaves no answer waiting
	var gate sync.Once
	env.Mock.OnRequest(func(r mockapi.Request) {
		if !r.Aux && r.LastUserText() == "count for me" {
			gate.Do(func() { <-listed })
		}
	})
	stopDaemonAtEnd(t, env)
	first := startTandem(t, env, "--daemon")
	first.waitDaemonReady()
	first.keys("count for me\r")

	lt := startTandem(t, env, "agents", "--daemon")
	lt.waitScreen("tandem agents", patience)
	lt.waitScreen("running", patience)
	if strings.Contains(lt.screen(), "item "+fmt.Sprint(n)+" of the answer") {
		t.Fatal("the turn ended before the command center listed it: the test proves nothing")
	}
	release()
	first.waitScreen("item 02 of", patience) // the answer streams
	lt.keys("\r")                            // open it
	lt.waitScreen(fmt.Sprintf("item %02d of the answer", n), patience)
	screen := lt.screen()
	for i := 1; i <= n; i++ {
		if c := strings.Count(screen, fmt.Sprintf("item %02d of the answer", i)); c > 1 {
			t.Fatalf("item %02d on screen %d times:\n%s", i, c, screen)
		}
	}
}

// A frozen app-server (SIGSTOP) under several threads: F5 in a thread
// that is not the run's first kills it and starts a new one, and both
// threads go on — the second's prompt, which the dead server never
// took, comes back to its composer (as for the first thread:
// TestF5RestartsAFrozenServer) and runs once on the new server.
func TestDeckLaneF5RestartsAFrozenServer(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := e2e.NewEnv(t,
		whenUser("alpha", mockapi.Text("ALPHA-ANSWER here")),
		whenUser("beta", mockapi.Text("BETA-ANSWER here")),
		whenUser("after", mockapi.Text("AFTER-ANSWER here")),
	)
	lt := startTandem(t, env, "--config", silentConfig(t), "alpha task")
	lt.waitScreen("ALPHA-ANSWER here", patience)
	lt.write(keyF4)
	lt.waitScreen("tandem agents", patience)
	lt.write(keyAltN)
	lt.waitScreen("prompt for a new thread", patience)
	lt.keys("beta task\r")
	lt.waitScreen("beta task", patience)
	lt.write("beta")
	lt.waitScreen("filter: beta", patience)
	lt.keys("\r")
	lt.waitScreen("BETA-ANSWER here", patience)
	old := lt.appServerPid()
	lt.freeze(true)
	lt.keys("after the freeze\r")
	lt.waitScreen("F5 kills and restarts it", patience)
	lt.write(keyF5)
	lt.waitScreen("codex app-server restarted — resumed thread", patience)
	lt.waitScreen("› after the freeze", patience)
	lt.keys("\r")
	lt.waitScreen("AFTER-ANSWER here", patience)
	if pid := lt.appServerPid(); pid == old {
		t.Fatalf("the frozen app-server (%d) is still the one", old)
	}
	n := 0
	for _, r := range env.Mock.Requests() {
		if r.LastUserText() == "after the freeze" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the model saw the prompt %d times; want once", n)
	}
	// The first thread is on the new server too.
	lt.write(keyF4)
	lt.waitScreen("filter: beta", patience)
	lt.write("\x1b") // Esc clears the filter
	lt.waitScreen("type to filter", patience)
	lt.write("alpha")
	lt.waitScreen("filter: alpha", patience)
	lt.keys("\r")
	lt.waitScreen("ALPHA-ANSWER here", patience)
	lt.keys("alpha again\r")
	deadline := time.Now().Add(patience)
	for !sawPrompt(env, "alpha again") {
		if time.Now().After(deadline) {
			t.Fatalf("the first thread's prompt never reached the model after the restart:\n%s", lt.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// sawPrompt reports whether the mock got a request whose last user text
// is text.
func sawPrompt(env *e2e.Env, text string) bool {
	for _, r := range env.Mock.Requests() {
		if r.LastUserText() == text {
			return true
		}
	}
	return false
}
