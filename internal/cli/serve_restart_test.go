package cli

import (
	"fmt"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"tandem/internal/lib/procfs"
	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
	"tandem/internal/testkit/sshtest"
)

// TestServeRestartsAKilledAppServerForEveryone: the app-server of
// `tandem serve` is killed (SIGKILL) after a turn; every screen says so;
// a guest driver presses F5 and serve starts a new app-server on the same
// thread: a watcher's screen says who restarted it and keeps the thread,
// and the driver's next prompt is answered with the first turn in its
// history (the thread was resumed, not replaced).
func TestServeRestartsAKilledAppServerForEveryone(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := e2e.NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("First answer.")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Second answer.")}})
	sv := startServe(t, env)
	a, b := sv.guests(t)
	fmt.Fprint(a.in, "first question")
	time.Sleep(300 * time.Millisecond) // a person's pause: not a paste burst
	fmt.Fprint(a.in, "\r")
	b.waitFor(t, "First answer.", patience)

	server := appServerOf(t, sv.cmd.Process.Pid)
	if err := syscall.Kill(server, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	a.waitFor(t, "press F5 or type /restart", patience)
	b.waitFor(t, "killed", patience)
	fmt.Fprint(a.in, "\x1b[15~") // F5
	b.waitFor(t, "codex app-server restarted by alice", patience)
	a.waitFor(t, "codex app-server restarted — resumed thread", patience)
	if now := appServerOf(t, sv.cmd.Process.Pid); now == server {
		t.Fatal("the same app-server pid after the restart")
	}

	fmt.Fprint(a.in, "second question")
	time.Sleep(300 * time.Millisecond)
	fmt.Fprint(a.in, "\r")
	b.waitFor(t, "Second answer.", patience)
	a.waitFor(t, "Second answer.", patience)
	for _, g := range []*guestTerm{a, b} {
		if scr := g.screen(); !strings.Contains(scr, "First answer.") || !strings.Contains(scr, "second question") {
			t.Errorf("the thread did not continue on a guest's screen:\n%s", scr)
		}
	}
	reqs := env.Mock.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[1].Raw), "first question") || !strings.Contains(string(reqs[1].Raw), "First answer.") {
		t.Fatalf("the second turn did not carry the first in its history (%d model requests)", len(reqs))
	}
}

// appServerOf is the pid of serve's app-server: its live child running
// codex app-server.
func appServerOf(t *testing.T, serve int) int {
	t.Helper()
	for deadline := time.Now().Add(patience); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		table := procfs.Table()
		for _, p := range sshtest.Processes() {
			if st, ok := table[p.PID]; ok && st.PPID == serve && st.State != 'Z' && slices.Contains(p.Argv, "app-server") {
				return p.PID
			}
		}
	}
	t.Fatal("serve has no app-server child")
	return 0
}
