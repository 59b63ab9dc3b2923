package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"

	"tandem/internal/lib/procfs"
	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// liveTandem is the tandem binary running the real codex (against the
// mock) in a pty, with its screen kept by a terminal emulator and its
// protocol traced to a file.
type liveTandem struct {
	t     *testing.T
	cmd   *exec.Cmd
	ptmx  *os.File
	trace string
	log   string

	mu     sync.Mutex
	emu    *vt.Emulator
	raw    []byte // everything tandem wrote to the terminal (notify_e2e_test.go)
	exited chan struct{}
	// seen are the descendants observed while tandem ran (pid → pgid).
	seen map[int]int
}

// startTandem runs tandem in a 120×40 pty with args after the standard
// flags (codex path, log file, trace file).
func startTandem(t *testing.T, env *e2e.Env, args ...string) *liveTandem {
	t.Helper()
	return startTandemEnv(t, env, nil, args...)
}

// startTandemEnv is startTandem with extra environment variables.
func startTandemEnv(t *testing.T, env *e2e.Env, extraEnv []string, args ...string) *liveTandem {
	t.Helper()
	dir := t.TempDir()
	lt := &liveTandem{t: t, trace: filepath.Join(dir, "trace.jsonl"), log: filepath.Join(dir, "tandem.log"),
		emu: vt.NewEmulator(120, 40), exited: make(chan struct{}), seen: map[int]int{}}
	argv := append([]string{"--codex", env.Codex, "--log-file", lt.log, "--trace-protocol", lt.trace}, args...)
	lt.cmd = exec.Command(tandemBinary(t), argv...)
	lt.cmd.Env = append(append(env.Environ(), "TERM=xterm-256color", "XDG_STATE_HOME="+dir), extraEnv...)
	lt.cmd.Dir = env.Dir
	ptmx, err := pty.StartWithSize(lt.cmd, &pty.Winsize{Cols: 120, Rows: 40})
	if err != nil {
		t.Fatal(err)
	}
	lt.ptmx = ptmx
	go func() { _, _ = io.Copy(io.Discard, lt.emu) }() // terminal replies
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := ptmx.Read(buf)
			if n > 0 {
				lt.mu.Lock()
				_, _ = lt.emu.Write(buf[:n])
				lt.raw = append(lt.raw, buf[:n]...)
				lt.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	go func() { _ = lt.cmd.Wait(); close(lt.exited) }()
	t.Cleanup(func() {
		select {
		case <-lt.exited:
		default:
			_ = lt.cmd.Process.Kill()
			<-lt.exited
		}
		ptmx.Close()
		// Last resort, so a failing test leaves nothing behind either.
		for pid, pgid := range lt.seen {
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return lt
}

func (lt *liveTandem) screen() string {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	return lt.emu.String()
}

// keys types s on tandem's terminal. A final "\r" after text goes on its
// own, as a person's Enter: only once the text is drawn (tandem has taken
// every key of it, however busy the machine) and then a pause longer than
// a paste burst's idle; sooner it would be part of the burst, a new line
// in the draft (model/composer/burst.go). The pause is the test's input:
// a slow machine makes it slower, never wrong.
func (lt *liveTandem) keys(s string) {
	lt.t.Helper()
	if text, ok := strings.CutSuffix(s, "\r"); ok && text != "" {
		before := strings.Count(e2e.Squash(lt.screen()), e2e.Squash(text))
		lt.write(text)
		deadline := time.Now().Add(patience)
		for strings.Count(e2e.Squash(lt.screen()), e2e.Squash(text)) <= before {
			if time.Now().After(deadline) {
				lt.t.Fatalf("typed %q, never drawn after %v; screen:\n%s", text, patience, lt.screen())
			}
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(model.PasteBurstLinesIdle + 100*time.Millisecond)
		s = "\r"
	}
	lt.write(s)
}

// write writes s to tandem's terminal at once.
func (lt *liveTandem) write(s string) {
	lt.t.Helper()
	if _, err := lt.ptmx.Write([]byte(s)); err != nil {
		lt.t.Fatalf("writing keys: %v", err)
	}
}

// waitScreen waits until the screen shows text (whitespace ignored).
func (lt *liveTandem) waitScreen(text string, timeout time.Duration) {
	lt.t.Helper()
	want := e2e.Squash(text)
	deadline := time.Now().Add(timeout)
	for !strings.Contains(e2e.Squash(lt.screen()), want) {
		if time.Now().After(deadline) {
			lt.t.Fatalf("%q not on screen after %v; screen:\n%s", text, timeout, lt.screen())
		}
		lt.snapshot()
		time.Sleep(50 * time.Millisecond)
	}
	lt.snapshot()
}

// waitGone waits until text is no longer on screen.
func (lt *liveTandem) waitGone(text string, timeout time.Duration) {
	lt.t.Helper()
	want := e2e.Squash(text)
	deadline := time.Now().Add(timeout)
	for strings.Contains(e2e.Squash(lt.screen()), want) {
		if time.Now().After(deadline) {
			lt.t.Fatalf("%q still on screen after %v; screen:\n%s", text, timeout, lt.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// traced returns the traced messages so far.
func (lt *liveTandem) traced() []tracedMsg {
	b, _ := os.ReadFile(lt.trace)
	var out []tracedMsg
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var tl struct {
			Dir string          `json:"dir"`
			Msg json.RawMessage `json:"msg"`
		}
		if json.Unmarshal(sc.Bytes(), &tl) != nil {
			continue
		}
		var m tracedMsg
		_ = json.Unmarshal(tl.Msg, &m)
		m.Dir, m.Raw = tl.Dir, string(tl.Msg)
		out = append(out, m)
	}
	return out
}

type tracedMsg struct {
	Dir    string          `json:"-"`
	Raw    string          `json:"-"`
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
}

// waitTrace waits until a traced message satisfies cond and returns it.
func (lt *liveTandem) waitTrace(what string, timeout time.Duration, cond func(tracedMsg) bool) tracedMsg {
	lt.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		for _, m := range lt.traced() {
			if cond(m) {
				lt.snapshot()
				return m
			}
		}
		if time.Now().After(deadline) {
			lt.t.Fatalf("no %s in the protocol trace after %v; screen:\n%s", what, timeout, lt.screen())
		}
		lt.snapshot()
		time.Sleep(50 * time.Millisecond)
	}
}

// waitReady waits for the thread and the composer.
func (lt *liveTandem) waitReady() {
	lt.t.Helper()
	lt.waitTrace("thread/start answer", patience, func(m tracedMsg) bool {
		return m.Dir == "recv" && strings.Contains(m.Raw, `"thread":{`) && len(m.ID) > 0
	})
	lt.waitScreen("Ask Codex to do anything", patience)
	lt.waitDescendants(2) // node wrapper + native app-server
}

// waitDescendants waits until tandem has at least n descendants.
func (lt *liveTandem) waitDescendants(n int) {
	lt.t.Helper()
	deadline := time.Now().Add(patience)
	for len(descendants(lt.cmd.Process.Pid)) < n {
		if time.Now().After(deadline) {
			lt.t.Fatalf("tandem has %d descendants; want ≥ %d", len(descendants(lt.cmd.Process.Pid)), n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	lt.snapshot()
}

// snapshot records tandem's current descendants and their groups.
func (lt *liveTandem) snapshot() {
	select {
	case <-lt.exited:
		return
	default:
	}
	for pid, pgid := range descendants(lt.cmd.Process.Pid) {
		lt.seen[pid] = pgid
	}
}

// waitExit waits for tandem to exit, then checks that nothing it started
// is left: no process seen as its descendant is alive, and no process is
// in any of their process groups.
func (lt *liveTandem) waitExit(timeout time.Duration) {
	lt.t.Helper()
	select {
	case <-lt.exited:
	case <-time.After(timeout):
		lt.t.Fatalf("tandem did not exit within %v; screen:\n%s", timeout, lt.screen())
	}
	lt.assertNoOrphans()
}

// waitExitStatus is waitExit, then checks tandem's exit status.
func (lt *liveTandem) waitExitStatus(timeout time.Duration, want int) {
	lt.t.Helper()
	lt.waitExit(timeout)
	if got := lt.cmd.ProcessState.ExitCode(); got != want {
		lt.t.Errorf("exit status %d, want %d (%v)", got, want, lt.cmd.ProcessState)
	}
}

func (lt *liveTandem) assertNoOrphans() {
	lt.t.Helper()
	if len(lt.seen) < 2 {
		lt.t.Fatalf("only %d descendants were ever seen; the test did not watch the app-server", len(lt.seen))
	}
	groups := map[int]bool{}
	for _, pgid := range lt.seen {
		groups[pgid] = true
	}
	// Reaping and group kills are asynchronous: allow a moment.
	deadline := time.Now().Add(patience)
	for {
		var left []string
		for pid, st := range procfs.Table() {
			if st.State == 'Z' {
				continue
			}
			if _, ok := lt.seen[pid]; ok {
				left = append(left, fmt.Sprintf("pid %d (%s) survived", pid, st.Comm))
			} else if groups[st.PGID] {
				left = append(left, fmt.Sprintf("pid %d (%s) in app-server group %d", pid, st.Comm, st.PGID))
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			lt.t.Fatalf("orphans after tandem exited:\n%s", strings.Join(left, "\n"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// descendants returns root's live descendants (pid → pgid).
func descendants(root int) map[int]int {
	table := procfs.Table()
	kids := map[int][]int{}
	for pid, st := range table {
		kids[st.PPID] = append(kids[st.PPID], pid)
	}
	out := map[int]int{}
	stack := []int{root}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range kids[p] {
			if table[c].State != 'Z' {
				out[c] = table[c].PGID
			}
			stack = append(stack, c)
		}
	}
	return out
}

// appServerPid is tandem's direct child: the codex app-server (its node
// wrapper).
func (lt *liveTandem) appServerPid() int {
	lt.t.Helper()
	for pid, st := range procfs.Table() {
		if st.PPID == lt.cmd.Process.Pid && st.State != 'Z' {
			return pid
		}
	}
	lt.t.Fatal("tandem has no app-server child")
	return 0
}

const (
	keyCtrlC = "\x03"
	keyCtrlD = "\x04"
	keyF5    = "\x1b[15~"
)

// slowAnswer streams for several seconds, so a turn is still running when
// the test acts.
func slowAnswer() mockapi.Response {
	return mockapi.Response{Items: []mockapi.Item{mockapi.Text(strings.Repeat("slowly streaming words ", 60))}, ChunkDelay: 100 * time.Millisecond}
}

// TestNoOrphans runs tandem (real codex, mock model) in a pty and leaves it
// every way a user can; after each, no process it started is left.
func TestNoOrphans(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	t.Run("ctrl+c twice", func(t *testing.T) {
		lt := startTandem(t, e2e.NewEnv(t))
		lt.waitReady()
		lt.keys(keyCtrlC)
		lt.waitScreen("press Ctrl+C again to quit", patience)
		lt.keys(keyCtrlC)
		lt.waitExit(patience)
	})
	t.Run("ctrl+d", func(t *testing.T) {
		lt := startTandem(t, e2e.NewEnv(t))
		lt.waitReady()
		lt.keys(keyCtrlD)
		lt.waitExitStatus(patience, 0)
	})
	t.Run("ctrl+c during a turn then quit", func(t *testing.T) {
		lt := startTandem(t, e2e.NewEnv(t, slowAnswer()))
		lt.waitReady()
		lt.keys("stream please\r")
		lt.waitScreen("slowly streaming", patience)
		lt.keys(keyCtrlC)
		lt.waitScreen("Turn interrupted", patience)
		lt.keys(keyCtrlC)
		lt.keys(keyCtrlC)
		lt.waitExitStatus(patience, 0) // as Codex's TUI: a quit, not a kill
	})
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String()+" during a turn", func(t *testing.T) {
			lt := startTandem(t, e2e.NewEnv(t, slowAnswer()))
			lt.waitReady()
			lt.keys("stream please\r")
			lt.waitScreen("slowly streaming", patience)
			if err := lt.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			lt.waitExitStatus(patience, 128+int(sig)) // 143, 129
		})
	}
	t.Run("terminal closed", func(t *testing.T) {
		lt := startTandem(t, e2e.NewEnv(t, slowAnswer()))
		lt.waitReady()
		lt.keys("stream please\r")
		lt.waitScreen("slowly streaming", patience)
		lt.ptmx.Close() // the kernel hangs up tandem's session
		lt.waitExitStatus(patience, 129)
	})
	t.Run("kill -9 of the app-server, then quit", func(t *testing.T) {
		lt := startTandem(t, e2e.NewEnv(t, slowAnswer()))
		lt.waitReady()
		lt.keys("stream please\r")
		lt.waitScreen("slowly streaming", patience)
		if err := syscall.Kill(lt.appServerPid(), syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		lt.waitScreen("codex app-server killed by signal 9", patience)
		lt.waitScreen("press F5 or type /restart", patience)
		select {
		case <-lt.exited:
			t.Fatal("tandem exited with its app-server")
		default:
		}
		// The whole app-server group is gone before tandem quits.
		deadline := time.Now().Add(patience)
		for len(descendants(lt.cmd.Process.Pid)) > 0 {
			if time.Now().After(deadline) {
				t.Fatalf("app-server descendants survive the kill: %v", descendants(lt.cmd.Process.Pid))
			}
			time.Sleep(50 * time.Millisecond)
		}
		lt.keys(keyCtrlD)
		lt.waitExit(patience)
	})
	// A command the agent started runs in a session of its own (setsid),
	// out of reach of the app-server's group kill: tandem, a child
	// subreaper, ends it when the app-server dies, whichever process of
	// it (the native codex or its node wrapper) was killed.
	for _, tc := range []struct {
		name, then string
		victim     func(lt *liveTandem) int
	}{
		{"kill -9 of the native codex during a setsid command, then quit", "quit", nativeCodexPid},
		{"kill -9 of the native codex during a setsid command, then F5", "f5", nativeCodexPid},
		{"kill -9 of the node wrapper during a setsid command, then F5", "f5", (*liveTandem).appServerPid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := e2e.NewEnv(t,
				mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommandWith(mockapi.ExecCommandArgs{Cmd: "sleep 333; echo done", YieldTimeMs: 600000})}},
				mockapi.Response{Items: []mockapi.Item{mockapi.Text("ok")}})
			lt := startTandem(t, env, "-a", "never", "-s", "danger-full-access")
			lt.waitReady()
			lt.keys("sleep please\r")
			sleep := lt.waitSleep333(patience)
			lt.snapshot()
			if err := syscall.Kill(tc.victim(lt), syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			lt.waitScreen("codex app-server", patience)
			lt.waitScreen("press F5 or type /restart", patience)
			if tc.then == "f5" {
				lt.keys(keyF5)
				lt.waitScreen("codex app-server restarted", patience)
				assertGone(t, sleep, patience, "after F5")
			}
			lt.keys(keyCtrlD)
			lt.waitExit(patience)
			assertGone(t, sleep, patience, "after tandem exited")
		})
	}
	t.Run("kill -9 of tandem", func(t *testing.T) {
		lt := startTandem(t, e2e.NewEnv(t))
		lt.waitReady()
		_ = lt.cmd.Process.Kill()
		<-lt.exited
		lt.assertNoOrphansWithin(patience)
	})
}

// assertNoOrphansWithin is assertNoOrphans with a longer grace: after
// tandem itself is SIGKILLed only the kernel (Pdeathsig, stdin EOF) can
// clean up.
func (lt *liveTandem) assertNoOrphansWithin(d time.Duration) {
	lt.t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		alive := 0
		for pid := range lt.seen {
			if st, ok := procfs.Table()[pid]; ok && st.State != 'Z' {
				alive++
			}
		}
		if alive == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	lt.assertNoOrphans()
}

// Quitting with an approval pending answers it — cancel, never accept —
// before the app-server is closed, on SIGTERM, SIGHUP and ctrl+c alike.
func TestQuitWithApprovalPendingRefuses(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	for _, way := range []string{"SIGTERM", "SIGHUP", "ctrl+c twice"} {
		t.Run(way, func(t *testing.T) {
			env := e2e.NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand("echo hi > out.txt")}})
			lt := startTandem(t, env, "-a", "untrusted", "-s", "workspace-write")
			lt.waitReady()
			lt.keys("write the file\r")
			req := lt.waitTrace("approval request", patience, func(m tracedMsg) bool {
				return m.Dir == "recv" && m.Method == "item/commandExecution/requestApproval"
			})
			lt.waitScreen("out.txt", patience) // the form is up
			switch way {
			case "SIGTERM":
				_ = lt.cmd.Process.Signal(syscall.SIGTERM)
			case "SIGHUP":
				_ = lt.cmd.Process.Signal(syscall.SIGHUP)
			case "ctrl+c twice":
				// The form has the keys; ctrl+c quits from anywhere.
				lt.keys(keyCtrlC)
				time.Sleep(100 * time.Millisecond)
				lt.keys(keyCtrlC)
			}
			lt.waitExit(patience)
			var reply *tracedMsg
			for _, m := range lt.traced() {
				if m.Dir == "send" && string(m.ID) == string(req.ID) && m.Method == "" {
					reply = &m
				}
			}
			if reply == nil {
				t.Fatalf("approval %s was never answered; trace:\n%s", req.ID, lastLines(lt.traced(), 8))
			}
			var res struct {
				Decision any `json:"decision"`
			}
			_ = json.Unmarshal(reply.Result, &res)
			if d, _ := res.Decision.(string); d != "cancel" && d != "decline" {
				t.Fatalf("approval answered %s; want cancel or decline", reply.Raw)
			}
			if _, err := os.Stat(filepath.Join(env.Dir, "out.txt")); err == nil {
				t.Fatal("the refused command ran")
			}
		})
	}
}

func lastLines(ms []tracedMsg, n int) string {
	var out []string
	for _, m := range ms[max(0, len(ms)-n):] {
		out = append(out, m.Dir+" "+m.Raw)
	}
	return strings.Join(out, "\n")
}

// The app-server is killed mid-turn: the banner shows it, the draft stays,
// F5 starts a new server that resumes the same thread (thread/resume
// returns the earlier turns), the transcript shows the earlier history
// once, and the resent draft reaches the model with that history.
func TestKillMidTurnRestartResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := e2e.NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("First answer: alpha.")}},
		slowAnswer(),
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Answer after restart: omega.")}},
	)
	lt := startTandem(t, env)
	lt.waitReady()
	start := lt.waitTrace("thread/start answer", patience, func(m tracedMsg) bool {
		return m.Dir == "recv" && strings.Contains(m.Raw, `"thread":{`)
	})
	var started struct {
		Thread struct {
			ID string `json:"id"`
		} `json:"thread"`
	}
	_ = json.Unmarshal(start.Result, &started)
	if started.Thread.ID == "" {
		t.Fatalf("no thread id in %s", start.Raw)
	}

	lt.keys("first question\r")
	lt.waitScreen("First answer: alpha.", patience)
	lt.keys("second question\r")
	lt.waitScreen("slowly streaming", patience)
	lt.keys("resend me")
	lt.waitScreen("› resend me", patience)
	old := lt.appServerPid()
	if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	lt.waitScreen("codex app-server killed by signal 9 (killed) during the turn", patience)
	lt.waitScreen("press F5 or type /restart", patience)
	lt.waitScreen("› resend me", patience)

	lt.keys(keyF5)
	lt.waitScreen("resumed thread "+started.Thread.ID, patience)
	lt.waitTrace("thread/resume of the thread", patience, func(m tracedMsg) bool {
		return m.Dir == "send" && m.Method == "thread/resume" && strings.Contains(m.Raw, `"threadId":"`+started.Thread.ID+`"`)
	})
	if pid := lt.appServerPid(); pid == old {
		t.Fatal("the app-server was not restarted")
	}
	scr := e2e.Squash(lt.screen())
	if n := strings.Count(scr, e2e.Squash("First answer: alpha.")); n != 1 {
		t.Fatalf("earlier answer shown %d times after resume; want once:\n%s", n, lt.screen())
	}
	if n := strings.Count(scr, "firstquestion"); n != 1 {
		t.Fatalf("earlier prompt shown %d times after resume; want once:\n%s", n, lt.screen())
	}

	lt.keys("\r")
	lt.waitScreen("Answer after restart: omega.", patience)
	reqs := env.Mock.Requests()
	last := reqs[len(reqs)-1]
	if got := last.LastUserText(); got != "resend me" {
		t.Errorf("last model request's prompt = %q; want the kept draft", got)
	}
	if users := strings.Join(last.UserTexts(), "|"); !strings.Contains(users, "first question") {
		t.Errorf("the resumed thread's request lacks the earlier history: user texts %q", users)
	}

	// /restart on a live server: the old one is closed on purpose, so no
	// "app-server exited" banner, and the thread is resumed again.
	second := lt.appServerPid()
	lt.keys("/restart")
	lt.waitScreen("› /restart", patience)
	lt.keys("\r")
	deadline := time.Now().Add(patience)
	for strings.Count(e2e.Squash(lt.screen()), e2e.Squash("resumed thread "+started.Thread.ID)) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("/restart did not resume the thread; screen:\n%s", lt.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if strings.Contains(lt.screen(), "app-server exited") {
		t.Errorf("a deliberate restart showed the old server's exit:\n%s", lt.screen())
	}
	if pid := lt.appServerPid(); pid == second {
		t.Error("/restart kept the old app-server")
	}
	lt.snapshot()
	lt.keys(keyCtrlD)
	lt.waitExit(patience)
}

// nativeCodexPid is the native codex binary under the node wrapper.
func nativeCodexPid(lt *liveTandem) int {
	lt.t.Helper()
	wrapper := lt.appServerPid()
	for pid, st := range procfs.Table() {
		if st.PPID == wrapper && st.State != 'Z' {
			return pid
		}
	}
	lt.t.Fatal("the node wrapper has no native codex child")
	return 0
}

// waitSleep333 waits for the agent's `sleep 333` among tandem's
// descendants and returns its pid.
func (lt *liveTandem) waitSleep333(timeout time.Duration) int {
	lt.t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		for pid := range descendants(lt.cmd.Process.Pid) {
			b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
			if strings.ReplaceAll(string(b), "\x00", " ") == "sleep 333 " {
				return pid
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	lt.t.Fatalf("the agent's sleep 333 never started; screen:\n%s", lt.screen())
	return 0
}

// assertGone fails unless pid is gone (or a zombie) within d.
func assertGone(t *testing.T, pid int, d time.Duration, when string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		st, ok := procfs.Table()[pid]
		if !ok || st.State == 'Z' {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the agent's sleep 333 (pid %d, parent %d) survives", when, pid, st.PPID)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestSignalRemovesSpilledOutput: command output too big for memory (3.2 MB
// in 400 separate 8 KB writes: codex streams at most 10,000 output deltas
// per command, so a fast producer's many small reads would lose the middle)
// is
// spilled to a temp file; SIGTERM or SIGHUP (the terminal closed) removes
// it as quitting does.
func TestSignalRemovesSpilledOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			tmp := t.TempDir()
			env := e2e.NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand("for i in $(seq 1 400); do printf '%08000d\\n' 0; sleep 0.005; done; sleep 30")}}, slowAnswer())
			lt := startTandemEnv(t, env, []string{"TMPDIR=" + tmp}, "-a", "never", "-s", "danger-full-access")
			lt.waitReady()
			lt.keys("count\r")
			spills := func() []string {
				m, _ := filepath.Glob(filepath.Join(tmp, "tandem-output-*.log"))
				return m
			}
			deadline := time.Now().Add(patience)
			for len(spills()) == 0 {
				if time.Now().After(deadline) {
					t.Fatalf("no spill file in %s; screen:\n%s", tmp, lt.screen())
				}
				time.Sleep(50 * time.Millisecond)
			}
			_ = lt.cmd.Process.Signal(sig)
			lt.waitExit(patience)
			if left := spills(); len(left) > 0 {
				t.Fatalf("spill files left after %v: %q", sig, left)
			}
		})
	}
}
