package cli

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"tandem/internal/lib/procfs"
	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
)

// Freezing the app-server: its whole process group is stopped
// (SIGSTOP) or continued (SIGCONT), as a wedged or paused server would
// be.
func (lt *liveTandem) freeze(on bool) {
	lt.t.Helper()
	sig := syscall.SIGCONT
	if on {
		sig = syscall.SIGSTOP
	}
	if err := syscall.Kill(-lt.appServerPid(), sig); err != nil {
		lt.t.Fatal(err)
	}
}

// silentConfig is a config file that names a silent server after 2 s.
func silentConfig(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte("unresponsive_after_secs = 2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// neverShown fails the test if any of texts is ever on tandem's screen
// until the returned stop is called: it samples the screen as the test
// goes.
func (lt *liveTandem) neverShown(texts ...string) (stop func()) {
	var seen []string
	var mu sync.Mutex
	done, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		for {
			scr := e2e.Squash(lt.screen())
			for _, s := range texts {
				if strings.Contains(scr, e2e.Squash(s)) {
					mu.Lock()
					seen = append(seen, s+" in:\n"+lt.screen())
					mu.Unlock()
				}
			}
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return func() {
		close(done)
		<-ended
		mu.Lock()
		defer mu.Unlock()
		if len(seen) > 0 {
			lt.t.Errorf("shown: %s", seen[0])
		}
	}
}

// The app-server is frozen while it is sent turn/start, past the call's
// deadline: tandem names the silent server, asks it what happened
// instead of calling the turn failed, and once the server is continued
// the turn runs, exactly once — the mock sees one request for the
// prompt — and the screen never gave the prompt back or invited a
// resend.
func TestFrozenTurnStartRunsOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	t.Parallel()
	env := e2e.NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("Thawed answer: once.")}})
	lt := startTandem(t, env, "--config", silentConfig(t))
	lt.waitReady()
	stop := lt.neverShown("could not start the turn", "resend")
	lt.freeze(true)
	lt.keys("run me once\r")
	lt.waitTrace("turn/start sent", patience, func(m tracedMsg) bool { return m.Dir == "send" && m.Method == "turn/start" })
	lt.waitScreen("codex has not answered for", patience)
	// turn/start's call gives up (its deadline): the server is asked
	// what became of it (thread/read), not told it failed.
	lt.waitTrace("thread/read after turn/start gave up", patience, func(m tracedMsg) bool {
		return m.Dir == "send" && m.Method == "thread/read" && strings.Contains(m.Raw, `"includeTurns":true`)
	})
	lt.freeze(false)
	lt.waitScreen("Thawed answer: once.", patience)
	lt.waitGone("Working", patience)
	stop()
	n := 0
	for _, r := range env.Mock.Requests() {
		if r.LastUserText() == "run me once" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the model saw the prompt %d times; want once", n)
	}
	if strings.Contains(e2e.Squash(lt.screen()), e2e.Squash("› run me once")) {
		t.Errorf("the prompt came back to the composer:\n%s", lt.screen())
	}
	lt.keys(keyCtrlD)
	lt.waitExit(patience)
}

// F5 on a frozen app-server kills it (its whole process group: a stopped
// server takes no SIGTERM) and starts a new one on the thread; the new
// server says the turn/start the old one never read has no turn, so the
// prompt comes back, once, and the thread goes on with its history.
func TestF5RestartsAFrozenServer(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	t.Parallel()
	env := e2e.NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("First answer: alpha.")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Answer after the restart: omega.")}},
	)
	lt := startTandem(t, env, "--config", silentConfig(t))
	lt.waitReady()
	lt.keys("first question\r")
	lt.waitScreen("First answer: alpha.", patience)
	lt.waitGone("Working", patience)

	old := lt.appServerPid()
	lt.freeze(true)
	lt.keys("frozen prompt\r")
	lt.waitScreen("codex has not answered for", patience)
	lt.keys(keyF5)
	lt.waitScreen("codex app-server restarted — resumed thread", patience)
	assertPidGone(t, old, "the frozen app-server after F5")
	if pid := lt.appServerPid(); pid == old {
		t.Fatal("the app-server was not restarted")
	}
	// The new server has no such turn: the prompt comes back, said once.
	lt.waitScreen("could not start the turn: codex did not answer turn/start, and the thread has no such turn", patience)
	lt.waitScreen("› frozen prompt", patience)
	lt.keys("\r")
	lt.waitScreen("Answer after the restart: omega.", patience)
	reqs := env.Mock.Requests()
	last := reqs[len(reqs)-1]
	if got := last.LastUserText(); got != "frozen prompt" {
		t.Errorf("last model request's prompt = %q; want the prompt given back", got)
	}
	if users := strings.Join(last.UserTexts(), "|"); !strings.Contains(users, "first question") || strings.Count(users, "frozen prompt") != 1 {
		t.Errorf("the thread after the restart: user texts %q", users)
	}
	lt.keys(keyCtrlD)
	lt.waitExit(patience)
}

// assertPidGone fails unless pid is gone (or a zombie) within patience.
func assertPidGone(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		if st, ok := procfs.Table()[pid]; !ok || st.State == 'Z' {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) survives", what, pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
