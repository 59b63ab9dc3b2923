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
	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
	"tandem/internal/testkit/sshtest"
)

// Durable sessions on codex's app-server daemon (issue #15), end to end:
// the tandem binary in a pty, the real daemon of each test's own
// CODEX_HOME (stopped at the end, and no process of it left), the mock
// model.

// stopDaemonAtEnd stops the daemon of env's CODEX_HOME when t ends (before
// the home is removed) and fails if any process of it is left; the
// sockets it had under /tmp/codex-daemon-UID are removed. `daemon
// stop` ends the app-server but not the `daemon pid-update-loop` it
// started (codex 0.169.0 and 0.171.0): that one is ended by its pid file.
func stopDaemonAtEnd(t *testing.T, env *e2e.Env) {
	t.Helper()
	t.Cleanup(func() {
		// The sockets live in /tmp/codex-daemon-UID/, linked from the home:
		// what the stop leaves there goes too.
		var sockets []string
		for _, l := range []string{"app-server-control/app-server-control.sock", "app-server-daemon/daemon-updater.sock"} {
			if target, err := os.Readlink(filepath.Join(env.Home, l)); err == nil && strings.Contains(target, "codex-daemon-") {
				sockets = append(sockets, target, target+".lock")
			}
		}
		defer func() {
			for _, s := range sockets {
				_ = os.Remove(s)
			}
		}()
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		if _, err := backend.DaemonCommand(ctx, env.Codex, env.Environ(), env.Home, "stop"); err != nil {
			// A turn waiting for an approval can hold the stop up: end the
			// app-server by its pid file then.
			t.Logf("daemon stop: %v — ending it by its pid file", err)
			killByPidFile(env.Home, "daemon.pid")
		}
		killByPidFile(env.Home, "daemon-updater.pid")
		deadline := time.Now().Add(patience)
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
	lt.waitTrace("thread/start answer", patience, func(m tracedMsg) bool {
		return m.Dir == "recv" && strings.Contains(m.Raw, `"thread":{`) && len(m.ID) > 0
	})
	lt.waitScreen("Ask Codex to do anything", patience)
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
	lt.waitScreen("item 02 of", patience)
	lt.keys(keyCtrlD)
	lt.waitGoneQuietly(patience)
	lt.waitScreen("the turn continues on the codex daemon", patience)
	lt.waitScreen("tandem resume --last --daemon", patience)
	if len(daemonProcs(env.Home)) == 0 {
		t.Fatal("no daemon left running the turn")
	}

	// The turn ends on the daemon, with nobody attached.
	deadline := time.Now().Add(patience)
	for !responseDone(t, env.Home, 1) {
		if time.Now().After(deadline) {
			t.Fatal("the daemon did not finish the turn after tandem left")
		}
		time.Sleep(200 * time.Millisecond)
	}

	back := startTandem(t, env, "resume", "--last", "--daemon")
	back.waitScreen("Resumed thread", patience)
	back.waitScreen("item 12 of the answer", patience)
	assertEachOnce(t, back, n)
	if c := strings.Count(back.screen(), "▌ count for me"); c != 1 {
		t.Errorf("the prompt shown %d times; want once:\n%s", c, back.screen())
	}
	back.keys(keyCtrlD)
	back.waitGoneQuietly(patience)
	if strings.Contains(back.screen(), "the turn continues") {
		t.Errorf("an idle thread said its turn continues:\n%s", back.screen())
	}
}

// responseDone reports whether the rollouts of home say the turn that got
// the mock's n-th response completed.
func responseDone(t *testing.T, home string, n int) bool {
	roll := rolloutText(t, home)
	i := strings.LastIndex(roll, fmt.Sprintf("msg_resp_mock_%d_0", n))
	return i >= 0 && strings.Contains(roll[i:], `"type":"task_complete"`)
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
	ctx, cancel := context.WithTimeout(context.Background(), patience)
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
	lt.waitScreen("item 03 of", patience)
	r.setDown(true)
	r.cut()
	lt.waitScreen("disconnected — the agent keeps working on", patience)
	lt.keys("my draft")
	time.Sleep(1500 * time.Millisecond) // an attempt or two fails meanwhile
	r.setDown(false)
	lt.waitScreen("re-attached to the codex daemon", patience)
	lt.waitScreen("item 14 of the answer", patience)
	lt.waitGone("streamed while disconnected", patience)
	assertEachOnce(t, lt, n)
	lt.waitScreen("› my draft", patience)
	if r.links() < 2 {
		t.Errorf("%d links to the daemon; want a second one", r.links())
	}
	lt.waitTrace("thread/resume after the drop", patience, func(m tracedMsg) bool {
		return m.Dir == "send" && m.Method == "thread/resume"
	})
	lt.keys(keyCtrlC) // clears the draft
	lt.keys(keyCtrlD)
	lt.waitGoneQuietly(patience)
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
	lt.waitTrace("turn/started", patience, func(m tracedMsg) bool { return m.Dir == "recv" && m.Method == "turn/started" })
	r.setDown(true)
	r.cut()
	lt.waitScreen("disconnected — the agent keeps working on", patience)
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
	lt.waitScreen("re-attached to the codex daemon", patience)
	lt.waitScreen("Run this command?", patience)
	lt.waitScreen("count.txt", patience)
	time.Sleep(time.Second) // the form's grace
	lt.keys("\r")
	lt.waitScreen("The command ran.", patience)
	b, err := os.ReadFile(filepath.Join(env.Dir, "count.txt"))
	if err != nil || string(b) != "ran\n" {
		t.Fatalf("count.txt = %q, %v; want the command run exactly once", b, err)
	}
	lt.keys(keyCtrlD)
	lt.waitGoneQuietly(patience)
}

// sshArgs are tandem's flags for running on srv (the test sshd on this
// machine) with env's codex and workspace, keeping away from ~/.ssh.
func sshArgs(srv *sshtest.Server, env *e2e.Env) []string {
	args := []string{"--ssh", srv.Target, "--remote-codex", env.Codex, "--remote-workspace", env.Dir}
	b, _ := os.ReadFile(srv.ConfigFile)
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(l), " "); ok && k != "Host" {
			args = append(args, "--ssh-option", k+"="+v)
		}
	}
	return args
}

// sshChild is tandem's ssh client process.
func (lt *liveTandem) sshChild() int {
	lt.t.Helper()
	for pid := range descendants(lt.cmd.Process.Pid) {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if argv := strings.Split(string(b), "\x00"); len(argv) > 0 && filepath.Base(argv[0]) == "ssh" {
			return pid
		}
	}
	lt.t.Fatalf("tandem has no ssh child; screen:\n%s", lt.screen())
	return 0
}

// TestDaemonOverSSH: --ssh --daemon runs the agent on the remote's
// daemon (through `codex app-server proxy`). Killing the ssh client
// mid-stream re-attaches by itself with the answer complete, each line
// once; quitting mid-turn leaves the turn to the daemon, and `tandem
// resume --last --ssh … --daemon` shows its whole answer.
func TestDaemonOverSSH(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	const n = 12
	env := e2e.NewEnv(t, numberedAnswer(n, 150*time.Millisecond), numberedAnswer(n, 120*time.Millisecond))
	stopDaemonAtEnd(t, env)
	srv := env.StartSSHDWith(t, sshtest.Options{Env: []string{"CODEX_HOME=" + env.Home}})
	args := append(sshArgs(srv, env), "--daemon")
	lt := startTandem(t, env, args...)
	lt.waitDaemonReady()
	lt.keys("count for me\r")
	lt.waitScreen("item 03 of", patience)
	if err := syscall.Kill(lt.sshChild(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	lt.waitScreen("disconnected — the agent keeps working on 127.0.0.1", patience)
	lt.waitScreen("re-attached to the codex daemon on 127.0.0.1", patience)
	lt.waitScreen("item 12 of the answer", patience)
	lt.waitGone("streamed while disconnected", patience)
	assertEachOnce(t, lt, n)

	lt.keys("count again\r")
	lt.waitScreen("▌ count again", patience)
	lt.waitTrace("the second turn's first delta", patience, func(m tracedMsg) bool {
		return m.Dir == "recv" && m.Method == "item/agentMessage/delta" && strings.Count(lt.screen(), "item 01 of the answer") == 2
	})
	lt.keys(keyCtrlD)
	lt.waitGoneQuietly(patience)
	lt.waitScreen("the turn continues on the codex daemon on 127.0.0.1", patience)
	lt.waitScreen("--daemon` to come back", patience)

	deadline := time.Now().Add(patience)
	for !responseDone(t, env.Home, 2) {
		if time.Now().After(deadline) {
			t.Fatalf("the remote daemon did not finish the second turn after tandem left: %d model requests, daemon %v", len(env.Mock.Requests()), daemonProcs(env.Home))
		}
		time.Sleep(200 * time.Millisecond)
	}
	back := startTandem(t, env, append([]string{"resume", "--last"}, args...)...)
	back.waitScreen("Resumed thread", patience)
	back.waitScreen("▌ count again", patience)
	scr := back.screen()
	_, second, _ := strings.Cut(scr, "▌ count again")
	for i := 1; i <= n; i++ {
		if line := fmt.Sprintf("item %02d of the answer", i); strings.Count(second, line) != 1 {
			t.Errorf("the second answer shows %q %d times; want once:\n%s", line, strings.Count(second, line), scr)
		}
	}
	back.keys(keyCtrlD)
	back.waitGoneQuietly(patience)
}
