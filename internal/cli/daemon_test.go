package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"tandem/backend"
	"tandem/internal/e2e"
	"tandem/internal/mockapi"
)

// Durable sessions on codex's app-server daemon (issue #15), end to end:
// the tandem binary in a pty, the real daemon of each test's own
// CODEX_HOME (stopped at the end, and no process of it left), the mock
// model.

// stopDaemonAtEnd stops the daemon of env's CODEX_HOME when t ends (before
// the home is removed) and fails if any process of it is left. `daemon
// stop` ends the app-server but not the `daemon pid-update-loop` it
// started (codex 0.169.0 and 0.171.0): that one is ended by its pid file.
func stopDaemonAtEnd(t *testing.T, env *e2e.Env) {
	t.Helper()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := backend.DaemonCommand(ctx, env.Codex, env.Environ(), env.Home, "stop"); err != nil {
			// A turn waiting for an approval can hold the stop up: end the
			// app-server by its pid file then.
			t.Logf("daemon stop: %v — ending it by its pid file", err)
			killByPidFile(env.Home, "daemon.pid")
		}
		killByPidFile(env.Home, "daemon-updater.pid")
		deadline := time.Now().Add(10 * time.Second)
		for {
			left := daemonProcs(env.Home)
			if len(left) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("daemon processes left after daemon stop: %v", left)
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}

// killByPidFile ends the daemon process of home named by the pid file
// home/app-server-daemon/NAME (daemon.pid, daemon-updater.pid), if it
// runs from home.
func killByPidFile(home, name string) {
	b, err := os.ReadFile(filepath.Join(home, "app-server-daemon", name))
	if err != nil {
		return
	}
	var rec struct {
		PID int `json:"pid"`
	}
	if json.Unmarshal(b, &rec) != nil || rec.PID <= 0 {
		return
	}
	cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", rec.PID))
	if strings.Contains(string(cmdline), home) {
		_ = syscall.Kill(rec.PID, syscall.SIGTERM)
	}
}

// daemonProcs lists the live processes whose command line names home (the
// daemon runs codex's managed copy from home/packages).
func daemonProcs(home string) []string {
	var out []string
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil || !strings.Contains(string(b), home) {
			continue
		}
		if st, _ := os.ReadFile(filepath.Join(d, "stat")); strings.Contains(string(st), ") Z ") {
			continue
		}
		out = append(out, filepath.Base(d)+" "+strings.ReplaceAll(string(b), "\x00", " "))
	}
	return out
}

// numberedAnswer streams a list of n numbered items slowly (delay per
// chunk), so the turn is still running when the test acts and every line
// can be counted on screen.
func numberedAnswer(n int, delay time.Duration) mockapi.Response {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "- item %02d of the answer\n", i)
	}
	return mockapi.Response{Items: []mockapi.Item{mockapi.TextChunks(mockapi.SplitRunes(b.String(), 6)...)}, ChunkDelay: delay}
}

// assertEachOnce fails unless every "item NN" of an n-item answer is on
// the screen exactly once.
func assertEachOnce(t *testing.T, lt *liveTandem, n int) {
	t.Helper()
	scr := lt.screen()
	for i := 1; i <= n; i++ {
		line := fmt.Sprintf("item %02d of the answer", i)
		if c := strings.Count(scr, line); c != 1 {
			t.Errorf("%q on screen %d times; want once:\n%s", line, c, scr)
		}
	}
}

// waitDaemonReady waits for the thread and the composer of a tandem on
// the daemon (no app-server child to wait for).
func (lt *liveTandem) waitDaemonReady() {
	lt.t.Helper()
	lt.waitTrace("thread/start answer", 90*time.Second, func(m tracedMsg) bool {
		return m.Dir == "recv" && strings.Contains(m.Raw, `"thread":{`) && len(m.ID) > 0
	})
	lt.waitScreen("Ask Codex to do anything", 10*time.Second)
}

// waitGoneQuietly waits for tandem to exit (its app-server is the daemon's:
// no child of its own to check).
func (lt *liveTandem) waitGoneQuietly(timeout time.Duration) {
	lt.t.Helper()
	select {
	case <-lt.exited:
	case <-time.After(timeout):
		lt.t.Fatalf("tandem did not exit within %v; screen:\n%s", timeout, lt.screen())
	}
}

// TestDaemonQuitMidTurnThenResume: tandem --daemon quits mid-turn (Ctrl+D)
// and says how to come back; the daemon finishes the turn without it;
// `tandem resume --last --daemon` shows the whole answer, each line once.
func TestDaemonQuitMidTurnThenResume(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	const n = 12
	env := e2e.NewEnv(t, numberedAnswer(n, 150*time.Millisecond))
	stopDaemonAtEnd(t, env)
	lt := startTandem(t, env, "--daemon")
	lt.waitDaemonReady()
	lt.keys("count for me\r")
	lt.waitScreen("item 02 of", 20*time.Second)
	lt.keys(keyCtrlD)
	lt.waitGoneQuietly(30 * time.Second)
	lt.waitScreen("the turn continues on the codex daemon", 5*time.Second)
	lt.waitScreen("tandem resume --last --daemon", time.Second)
	if len(daemonProcs(env.Home)) == 0 {
		t.Fatal("no daemon left running the turn")
	}

	// The turn ends on the daemon, with nobody attached.
	deadline := time.Now().Add(60 * time.Second)
	for len(env.Mock.Requests()) < 1 || !strings.Contains(rolloutText(t, env.Home), "item 12 of the answer") {
		if time.Now().After(deadline) {
			t.Fatal("the daemon did not finish the turn after tandem left")
		}
		time.Sleep(200 * time.Millisecond)
	}

	back := startTandem(t, env, "resume", "--last", "--daemon")
	back.waitScreen("Resumed thread", 60*time.Second)
	back.waitScreen("item 12 of the answer", 10*time.Second)
	assertEachOnce(t, back, n)
	if c := strings.Count(back.screen(), "▌ count for me"); c != 1 {
		t.Errorf("the prompt shown %d times; want once:\n%s", c, back.screen())
	}
	back.keys(keyCtrlD)
	back.waitGoneQuietly(30 * time.Second)
	if strings.Contains(back.screen(), "the turn continues") {
		t.Errorf("an idle thread said its turn continues:\n%s", back.screen())
	}
}

// rolloutText is every rollout of home, concatenated.
func rolloutText(t *testing.T, home string) string {
	t.Helper()
	var b strings.Builder
	_ = filepath.WalkDir(filepath.Join(home, "sessions"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			data, _ := os.ReadFile(p)
			b.Write(data)
		}
		return nil
	})
	return b.String()
}

// relay is a unix-socket forwarder between tandem (--remote unix://) and
// the daemon's control socket, which a test can cut (a lost link) and
// hold down (no link while the agent goes on).
type relay struct {
	sock, target string
	ln           net.Listener
	mu           sync.Mutex
	conns        []net.Conn
	down         bool
	accepted     int
}

func startRelay(t *testing.T, target string) *relay {
	t.Helper()
	// A short path: unix socket paths are limited to ~108 bytes.
	dir, err := os.MkdirTemp("", "relay")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	r := &relay{sock: filepath.Join(dir, "s"), target: target}
	if r.ln, err = net.Listen("unix", r.sock); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.ln.Close(); r.cut() })
	go r.serve()
	return r
}

func (r *relay) serve() {
	for {
		c, err := r.ln.Accept()
		if err != nil {
			return
		}
		r.mu.Lock()
		down := r.down
		r.mu.Unlock()
		if down {
			c.Close()
			continue
		}
		u, err := net.Dial("unix", r.target)
		if err != nil {
			c.Close()
			continue
		}
		r.mu.Lock()
		r.conns = append(r.conns, c, u)
		r.accepted++
		r.mu.Unlock()
		go func() { _, _ = io.Copy(u, c); u.Close(); c.Close() }()
		go func() { _, _ = io.Copy(c, u); u.Close(); c.Close() }()
	}
}

// cut drops every link at once, without a close frame.
func (r *relay) cut() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.conns {
		c.Close()
	}
	r.conns = nil
}

func (r *relay) setDown(down bool) {
	r.mu.Lock()
	r.down = down
	r.mu.Unlock()
}

func (r *relay) links() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.accepted
}

// startDaemon starts env's daemon (as --daemon would) and returns its
// control socket.
func startDaemon(t *testing.T, env *e2e.Env) string {
	t.Helper()
	stopDaemonAtEnd(t, env)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	info, err := backend.StartDaemon(ctx, env.Codex, env.Environ(), env.Home)
	if err != nil {
		t.Fatal(err)
	}
	return info.SocketPath
}

// TestDaemonLinkDropReattaches: the link to the daemon drops mid-stream;
// the status line says the agent keeps working, tandem re-attaches by
// itself and the answer ends complete, each line once; the draft typed
// while away survives.
func TestDaemonLinkDropReattaches(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	const n = 14
	env := e2e.NewEnv(t, numberedAnswer(n, 150*time.Millisecond))
	r := startRelay(t, startDaemon(t, env))
	lt := startTandem(t, env, "--remote", "unix://"+r.sock)
	lt.waitDaemonReady()
	lt.keys("count for me\r")
	lt.waitScreen("item 03 of", 20*time.Second)
	r.setDown(true)
	r.cut()
	lt.waitScreen("disconnected — the agent keeps working on", 10*time.Second)
	lt.keys("my draft")
	time.Sleep(1500 * time.Millisecond) // an attempt or two fails meanwhile
	r.setDown(false)
	lt.waitScreen("re-attached to the codex daemon", 40*time.Second)
	lt.waitScreen("item 14 of the answer", 30*time.Second)
	lt.waitGone("streamed while disconnected", 10*time.Second)
	assertEachOnce(t, lt, n)
	lt.waitScreen("› my draft", time.Second)
	if r.links() < 2 {
		t.Errorf("%d links to the daemon; want a second one", r.links())
	}
	lt.waitTrace("thread/resume after the drop", time.Second, func(m tracedMsg) bool {
		return m.Dir == "send" && m.Method == "thread/resume"
	})
	lt.keys(keyCtrlC) // clears the draft
	lt.keys(keyCtrlD)
	lt.waitGoneQuietly(30 * time.Second)
}

// TestDaemonApprovalWhileDisconnected: the approval is raised while no
// tandem is attached (the link is down); after the re-attach it is shown,
// nothing answered it meanwhile, and approving runs the command exactly
// once.
func TestDaemonApprovalWhileDisconnected(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := e2e.NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand("echo ran >> count.txt")}, ChunkDelay: 1500 * time.Millisecond},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("The command ran.")}},
	)
	r := startRelay(t, startDaemon(t, env))
	lt := startTandem(t, env, "--remote", "unix://"+r.sock, "-a", "untrusted", "-s", "workspace-write")
	lt.waitDaemonReady()
	lt.keys("run it\r")
	lt.waitTrace("turn/started", 20*time.Second, func(m tracedMsg) bool { return m.Dir == "recv" && m.Method == "turn/started" })
	r.setDown(true)
	r.cut()
	lt.waitScreen("disconnected — the agent keeps working on", 10*time.Second)
	// The approval comes while the link is down.
	time.Sleep(6 * time.Second)
	for _, m := range lt.traced() {
		if m.Method == "item/commandExecution/requestApproval" {
			t.Fatal("the approval reached tandem before the re-attach: the test did not cut in time")
		}
	}
	if _, err := os.Stat(filepath.Join(env.Dir, "count.txt")); err == nil {
		t.Fatal("the command ran before anyone approved it")
	}
	r.setDown(false)
	lt.waitScreen("re-attached to the codex daemon", 40*time.Second)
	lt.waitScreen("Run this command?", 20*time.Second)
	lt.waitScreen("count.txt", time.Second)
	time.Sleep(time.Second) // the form's grace
	lt.keys("\r")
	lt.waitScreen("The command ran.", 30*time.Second)
	b, err := os.ReadFile(filepath.Join(env.Dir, "count.txt"))
	if err != nil || string(b) != "ran\n" {
		t.Fatalf("count.txt = %q, %v; want the command run exactly once", b, err)
	}
	lt.keys(keyCtrlD)
	lt.waitGoneQuietly(30 * time.Second)
}
