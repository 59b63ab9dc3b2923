package cli

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
)

// TestServeOpensAStoredThreadAndRestartsItsLane: under `tandem serve`,
// the driver opens a thread an earlier tandem ran from the list's stored
// rows: it becomes a lane every guest sees, with its history; the
// watcher's list offers no stored thread. The app-server is killed; the
// driver's F5 in that lane (not the first) starts a new one and rejoins
// the thread: the watcher's screen of the lane says who restarted it,
// and the next prompt there is answered with the thread's first turn in
// its history.
func TestServeOpensAStoredThreadAndRestartsItsLane(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := e2e.NewEnv(t,
		whenUser("earlier task", mockapi.Text("EARLIER-ANSWER")),
		whenUser("once more", mockapi.Text("AGAIN-ANSWER")),
	)
	deckRepo(t, env)
	first := startTandem(t, env, "earlier task")
	first.waitScreen("EARLIER-ANSWER", patience)
	first.keys(keyCtrlD)
	first.waitExitStatus(patience, 0)

	sv := startServe(t, env)
	a, b := sv.guests(t)
	fmt.Fprint(a.in, keyF4)
	a.waitFor(t, "earlier task", patience) // the stored row
	fmt.Fprint(b.in, keyF4)
	b.waitFor(t, "1 thread", patience)
	if scr := b.screen(); strings.Contains(scr, "earlier task") {
		t.Fatalf("the watcher's list offers a stored thread:\n%s", scr)
	}

	// The driver opens it: a lane of its own, its history, for everyone.
	fmt.Fprint(a.in, "earlier")
	a.waitFor(t, "Enter open (resume it)", patience)
	fmt.Fprint(a.in, "\r")
	a.waitFor(t, "EARLIER-ANSWER", patience)
	b.waitFor(t, "2 threads", patience)
	b.waitFor(t, "earlier task", patience)
	fmt.Fprint(b.in, "\x1b[B") // down: the opened thread
	fmt.Fprint(b.in, "\r")
	b.waitFor(t, "EARLIER-ANSWER", patience)

	// The app-server dies; F5 in the opened lane brings it back there.
	server := appServerOf(t, sv.cmd.Process.Pid)
	if err := syscall.Kill(server, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	a.waitFor(t, "press F5 or type /restart", patience)
	fmt.Fprint(a.in, "\x1b[15~") // F5
	b.waitFor(t, "codex app-server restarted by alice", patience)
	a.waitFor(t, "codex app-server restarted", patience)
	if now := appServerOf(t, sv.cmd.Process.Pid); now == server {
		t.Fatal("the same app-server pid after the restart")
	}
	fmt.Fprint(a.in, "once more")
	time.Sleep(300 * time.Millisecond) // a person's pause: not a paste burst
	fmt.Fprint(a.in, "\r")
	b.waitFor(t, "AGAIN-ANSWER", patience)
	reqs := env.Mock.Requests()
	last := string(reqs[len(reqs)-1].Raw)
	if !strings.Contains(last, "once more") || !strings.Contains(last, "EARLIER-ANSWER") {
		t.Fatalf("the lane's next turn did not carry the thread's history (%d model requests)", len(reqs))
	}
}
