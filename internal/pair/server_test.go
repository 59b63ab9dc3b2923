package pair

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	charmlog "charm.land/log/v2"
	"github.com/charmbracelet/x/vt"
	gossh "golang.org/x/crypto/ssh"

	"tandem/backend"
	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
	"tandem/internal/testkit/sshtest"
	"tandem/model"
	"tandem/sessions"
	"tandem/ui"
)

// pairFixture is a running `tandem serve` without the CLI: the hub, the
// SSH server on a random port and (with a codex Env) the session.
type pairFixture struct {
	ps       *Server
	addr     string
	drivers  []sshtest.Key
	watchers []sshtest.Key
	env      *e2e.Env
	sess     *backend.Session
	// completed receives the id of every completed turn, seen on the
	// session's own feed (before any viewer).
	completed chan string
	// publishMax is the longest the session's feed waited on the hub
	// (one Publish), in nanoseconds.
	publishMax atomic.Int64
	// marked receives "who did" for each author mark once it is in the
	// recording (a recorded fixture only; the first 100 that nobody read,
	// it never blocks the session).
	marked chan string
}

// newPairFixture starts the SSH server with nDrivers and nWatchers keys,
// and, when responses is non-nil, the real app-server against the mock.
func newPairFixture(t testing.TB, nDrivers, nWatchers int, approval, sandbox string, responses []mockapi.Response) *pairFixture {
	t.Helper()
	return newRecordedPairFixture(t, nDrivers, nWatchers, approval, sandbox, responses, nil)
}

// newRecordedPairFixture is newPairFixture with the session recorded to
// rec, as `tandem serve --record` does (nil: not recorded).
func newRecordedPairFixture(t testing.TB, nDrivers, nWatchers int, approval, sandbox string, responses []mockapi.Response, rec *sessions.Recorder) *pairFixture {
	t.Helper()
	return newPairFixtureOn(t, nDrivers, nWatchers, approval, sandbox, responses, rec, "")
}

// newPairFixtureOn is newRecordedPairFixture with codex pointed at the
// mock at mockURL ("": the one started in this process, answering
// responses).
func newPairFixtureOn(t testing.TB, nDrivers, nWatchers int, approval, sandbox string, responses []mockapi.Response, rec *sessions.Recorder, mockURL string) *pairFixture {
	t.Helper()
	charmlog.SetOutput(io.Discard) // wish's "program was killed" on disconnect
	dir := t.TempDir()
	fx := &pairFixture{completed: make(chan string, 100), marked: make(chan string, 100)}
	var dl, wl strings.Builder
	for i := range nDrivers {
		k := sshtest.NewKey(t, fmt.Sprintf("driver%d", i+1))
		fx.drivers = append(fx.drivers, k)
		dl.WriteString(k.Line())
	}
	for i := range nWatchers {
		k := sshtest.NewKey(t, fmt.Sprintf("watcher%d", i+1))
		fx.watchers = append(fx.watchers, k)
		wl.WriteString(k.Line())
	}
	dk, wk := filepath.Join(dir, "drivers"), filepath.Join(dir, "watchers")
	_ = os.WriteFile(dk, []byte(dl.String()), 0o600)
	_ = os.WriteFile(wk, []byte(wl.String()), 0o600)
	keys, err := LoadKeyring(dk, wk)
	if err != nil {
		t.Fatal(err)
	}
	var note, noteDid func(who, text string)
	if rec != nil {
		note = func(who, text string) {
			rec.Mark("author", sessions.Author{Who: who, Text: text})
			fx.mark(who + " wrote " + text)
		}
		noteDid = func(who, did string) {
			rec.Mark("author", sessions.Author{Who: who, Did: did})
			fx.mark(who + " " + did)
		}
	}
	fx.ps = New(Options{Keys: keys, Status: ui.StatusInfo{Cwd: "~/w"}, Note: note, NoteDid: noteDid})
	srv, err := fx.ps.SSHServer(filepath.Join(dir, "host_ed25519"))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fx.addr = ln.Addr().String()
	go func() { _ = srv.Serve(ln) }()
	if responses != nil {
		fx.env = e2e.NewEnv(t, responses...)
		if mockURL != "" {
			if err := mockapi.WriteCodexHome(fx.env.Home, mockURL); err != nil {
				t.Fatal(err)
			}
		}
		send := func(msg any) {
			start := time.Now()
			fx.ps.Publish(msg)
			if d := int64(time.Since(start)); d > fx.publishMax.Load() {
				fx.publishMax.Store(d)
			}
			if c, ok := msg.(backend.TurnCompletedEvent); ok {
				fx.completed <- c.Turn.ID
			}
		}
		var trace func(backend.Direction, []byte)
		if rec != nil {
			trace = rec.Trace
		}
		fx.sess = fx.env.ReadySession(t, approval, sandbox, trace, send)
	}
	t.Cleanup(func() { fx.ps.Shutdown(srv, fx.sess, false) })
	return fx
}

// mark tells fx.marked of an author mark, unless 100 wait unread.
func (fx *pairFixture) mark(m string) {
	select {
	case fx.marked <- m:
	default:
	}
}

// sshClient is one in-process SSH client with a PTY, its output fed to a
// terminal emulator so tests read the screen as a person would.
type sshClient struct {
	name   string
	conn   *gossh.Client
	sess   *gossh.Session
	stdin  io.Writer
	mu     sync.Mutex
	emu    *vt.Emulator
	closed chan struct{}
}

func dialPair(addr string, k sshtest.Key, w, h int) (*sshClient, error) {
	return dialPairPty(addr, k, w, h, w, h)
}

// dialPairPty is dialPair with a pty request of ptyW×ptyH read through an
// emulator of w×h (a client that asks for more than it shows).
func dialPairPty(addr string, k sshtest.Key, ptyW, ptyH, w, h int) (*sshClient, error) {
	return dialPairDelay(addr, k, ptyW, ptyH, w, h, 0)
}

// dialPairDelay is dialPairPty with a terminal that waits delay after
// each read (a slow client).
func dialPairDelay(addr string, k sshtest.Key, ptyW, ptyH, w, h int, delay time.Duration) (*sshClient, error) {
	conn, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User:            k.Name,
		Auth:            []gossh.AuthMethod{gossh.PublicKeys(k.Signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), //nolint:gosec // test server
		Timeout:         patience,
	})
	if err != nil {
		return nil, err
	}
	sess, err := conn.NewSession()
	if err != nil {
		conn.Close()
		return nil, err
	}
	c := &sshClient{name: k.Name, conn: conn, sess: sess, emu: vt.NewEmulator(w, h), closed: make(chan struct{})}
	go func() { _, _ = io.Copy(io.Discard, c.emu) }() // terminal replies
	if err := sess.RequestPty("xterm-256color", ptyH, ptyW, gossh.TerminalModes{}); err != nil {
		conn.Close()
		return nil, err
	}
	c.stdin, _ = sess.StdinPipe()
	out, _ := sess.StdoutPipe()
	go func() {
		defer close(c.closed)
		buf := make([]byte, 32<<10)
		for {
			n, err := out.Read(buf)
			if n > 0 {
				c.mu.Lock()
				_, _ = c.emu.Write(buf[:n])
				c.mu.Unlock()
			}
			if err != nil {
				return
			}
			time.Sleep(delay)
		}
	}()
	if err := sess.Shell(); err != nil {
		conn.Close()
		return nil, err
	}
	return c, nil
}

func (fx *pairFixture) dial(t testing.TB, k sshtest.Key, w, h int) *sshClient {
	t.Helper()
	c, err := dialPair(fx.addr, k, w, h)
	if err != nil {
		t.Fatalf("%s: %v", k.Name, err)
	}
	t.Cleanup(c.close)
	return c
}

func (c *sshClient) close() {
	_ = c.sess.Close()
	_ = c.conn.Close()
}

func (c *sshClient) screen() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.emu.String()
}

// send types s on the client's terminal. A final "\r" after text goes
// on its own after a pause, as a person's Enter: in the same write it
// would be part of a paste burst, a new line in the draft
// (model/burst.go).
func (c *sshClient) send(t testing.TB, s string) {
	t.Helper()
	// A watcher's keys are never drawn (the tests check they do
	// nothing): they go at once.
	watching := strings.Contains(e2e.Squash(c.screen()), e2e.Squash("watching (read-only)"))
	if text, ok := strings.CutSuffix(s, "\r"); ok && text != "" && !watching {
		// Enter only once the text is drawn (the host has taken every key,
		// however busy the machine), then after a pause longer than a
		// paste burst's idle: sooner it would be a new line of the burst.
		before := strings.Count(e2e.Squash(c.screen()), e2e.Squash(text))
		c.write(t, text)
		deadline := time.Now().Add(patience)
		for strings.Count(e2e.Squash(c.screen()), e2e.Squash(text)) <= before {
			if time.Now().After(deadline) {
				t.Fatalf("%s: typed %q, never drawn after %v; screen:\n%s", c.name, text, patience, c.screen())
			}
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(model.PasteBurstLinesIdle + 100*time.Millisecond)
		s = "\r"
	}
	c.write(t, s)
}

// write writes s to the client's terminal at once.
func (c *sshClient) write(t testing.TB, s string) {
	t.Helper()
	if _, err := io.WriteString(c.stdin, s); err != nil {
		t.Fatalf("%s: writing keys: %v", c.name, err)
	}
}

// waitFor waits until the screen shows text (whitespace ignored); it
// fails the test after patience.
func (c *sshClient) waitFor(t testing.TB, text string) {
	t.Helper()
	want := e2e.Squash(text)
	deadline := time.Now().Add(patience)
	for {
		s := c.screen()
		if strings.Contains(e2e.Squash(s), want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %q not on screen after %v; screen:\n%s", c.name, text, patience, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitGone waits until the screen no longer shows text; it fails the
// test after patience.
func (c *sshClient) waitGone(t testing.TB, text string) {
	t.Helper()
	want := e2e.Squash(text)
	deadline := time.Now().Add(patience)
	for strings.Contains(e2e.Squash(c.screen()), want) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %q still on screen after %v; screen:\n%s", c.name, text, patience, c.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitReady waits until the client's model has the session: the status
// line shows the presence roster, and presence events are logged after
// the session's ready message.
func (c *sshClient) waitReady(t testing.TB) {
	t.Helper()
	c.waitFor(t, "⇄")
}

func TestServeRejectsUnknownKeyAndPasswords(t *testing.T) {
	fx := newPairFixture(t, 1, 1, "", "", nil)
	stranger := sshtest.NewKey(t, "stranger")
	if c, err := dialPair(fx.addr, stranger, 80, 24); err == nil {
		c.close()
		t.Fatal("unknown key was accepted")
	}
	_, err := gossh.Dial("tcp", fx.addr, &gossh.ClientConfig{
		User:            "driver1",
		Auth:            []gossh.AuthMethod{gossh.Password("driver1"), gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), //nolint:gosec // test server
		Timeout:         patience,
	})
	if err == nil {
		t.Fatal("password auth was accepted")
	}
	// The listed keys are let in, with their role.
	c := fx.dial(t, fx.watchers[0], 60, 20)
	c.waitFor(t, "watcher1 joined as watcher")
	if p := fx.ps.hub.Present(); len(p) != 1 || p[0].Name != "watcher1" || p[0].Role.String() != "watcher" {
		t.Fatalf("present = %+v", p)
	}
}

const pairAnswer = "The shared answer streams to every client: forty-two is the number."

func TestServeDriversAndWatchersSeeTheSameStream(t *testing.T) {
	fx := newPairFixture(t, 2, 10, "", "", []mockapi.Response{
		{Items: []mockapi.Item{mockapi.Text(pairAnswer)}, ChunkDelay: 5 * time.Millisecond},
	})
	var clients []*sshClient
	for i, k := range append(append([]sshtest.Key{}, fx.drivers...), fx.watchers...) {
		// Every client has its own size: 50..160 columns, 16..38 rows.
		c := fx.dial(t, k, 50+i*10, 16+i*2)
		clients = append(clients, c)
	}
	for _, c := range clients {
		c.waitReady(t)
	}
	clients[0].send(t, "what is the number?\r")
	for _, c := range clients {
		c.waitFor(t, pairAnswer)
		c.waitFor(t, "what is the number?")
	}
	// The widest client's status line names the drivers first, then a
	// watcher (in join order, which depends on which SSH handshake
	// finished first), and counts the rest.
	widest := clients[len(clients)-1]
	for _, who := range []string{"driver1 (driver)", "driver2 (driver)", "(watcher), +9 more"} {
		widest.waitFor(t, who)
	}
	if n := len(fx.env.Mock.Requests()); n != 1 {
		t.Fatalf("the mock saw %d model rounds, want 1", n)
	}
}

func TestServeApprovalFirstDriverWinsWatcherCannotAnswer(t *testing.T) {
	fx := newPairFixture(t, 2, 1, "untrusted", "workspace-write", []mockapi.Response{
		{Items: []mockapi.Item{mockapi.ExecCommand("echo hi > out.txt")}},
		{Items: []mockapi.Item{mockapi.Text("Wrote out.txt for you.")}},
	})
	d1, d2 := fx.dial(t, fx.drivers[0], 100, 30), fx.dial(t, fx.drivers[1], 70, 40)
	w := fx.dial(t, fx.watchers[0], 90, 25)
	for _, c := range []*sshClient{d1, d2, w} {
		c.waitReady(t)
	}

	// A watcher's keystrokes start no turn.
	w.send(t, "please delete everything\r")
	w.waitFor(t, "you are watching")
	time.Sleep(500 * time.Millisecond)
	if n := len(fx.env.Mock.Requests()); n != 0 {
		t.Fatalf("a watcher's enter started a turn (%d model rounds)", n)
	}
	if strings.Contains(w.screen(), "please delete") {
		t.Fatalf("a watcher's typing reached the composer:\n%s", w.screen())
	}

	d2.send(t, "write the file\r")
	d1.waitFor(t, "Run this command?")
	d2.waitFor(t, "Run this command?")
	w.waitFor(t, "waiting for driver")
	w.waitFor(t, "approval of a command")
	if strings.Contains(w.screen(), "Run this command?") {
		t.Fatalf("the watcher was shown the form:\n%s", w.screen())
	}
	// The watcher's keys answer nothing.
	time.Sleep(600 * time.Millisecond) // past the forms' grace period
	w.send(t, "\r")
	w.send(t, "y")
	time.Sleep(300 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(fx.env.Dir, "out.txt")); err == nil {
		t.Fatal("the command ran after a watcher's keys")
	}
	d2.waitFor(t, "Run this command?")

	// driver1 approves (Enter on the first choice): the form closes for
	// driver2 too, and the watcher stops waiting.
	d1.send(t, "\r")
	d2.waitGone(t, "Run this command?")
	d1.waitGone(t, "Run this command?")
	w.waitGone(t, "waiting for")
	for _, c := range []*sshClient{d1, d2, w} {
		c.waitFor(t, "Wrote out.txt for you.")
		// Everyone's transcript says who typed the prompt and who
		// approved the command.
		c.waitFor(t, "driver1 approved the command")
		if !regexp.MustCompile(`▌ driver2\s*\n\s*▌ write the file`).MatchString(c.screen()) {
			t.Fatalf("%s: the prompt is not attributed to driver2:\n%s", c.name, c.screen())
		}
	}
	if b, err := os.ReadFile(filepath.Join(fx.env.Dir, "out.txt")); err != nil || strings.TrimSpace(string(b)) != "hi" {
		t.Fatalf("out.txt = %q, %v", b, err)
	}
	// Exactly one answer reached the app-server: the next round carries
	// one function_call_output.
	reqs := fx.env.Mock.Requests()
	if len(reqs) != 2 || len(reqs[1].FunctionCallOutputs()) != 1 {
		t.Fatalf("model rounds = %d", len(reqs))
	}
}

func TestServeLateJoinerSeesEarlierTurns(t *testing.T) {
	fx := newPairFixture(t, 2, 1, "", "", []mockapi.Response{
		{Items: []mockapi.Item{mockapi.Text("First answer, before anyone else came.")}},
		{Items: []mockapi.Item{mockapi.Text("Second answer, everyone is here.")}},
	})
	d1 := fx.dial(t, fx.drivers[0], 80, 30)
	d1.waitReady(t)
	d1.send(t, "first question\r")
	d1.waitFor(t, "First answer, before anyone else came.")
	select {
	case <-fx.completed:
	case <-time.After(patience):
		t.Fatal("first turn did not complete")
	}

	late := fx.dial(t, fx.watchers[0], 120, 40)
	late.waitFor(t, "first question")
	late.waitFor(t, "First answer, before anyone else came.")
	late.waitFor(t, "driver1 joined as driver")
	d1.waitFor(t, "watcher1 joined as watcher")

	// The late driver can drive the next turn.
	d2 := fx.dial(t, fx.drivers[1], 60, 30)
	d2.waitFor(t, "First answer, before anyone else came.")
	d2.send(t, "second question\r")
	for _, c := range []*sshClient{d1, d2, late} {
		c.waitFor(t, "Second answer, everyone is here.")
	}
}

func TestServeClientDisconnectMidStream(t *testing.T) {
	answer := strings.Repeat("Streaming slowly word by word. ", 12) + "The end."
	fx := newPairFixture(t, 1, 3, "", "", []mockapi.Response{
		{Items: []mockapi.Item{mockapi.TextChunks(strings.SplitAfter(answer, " ")...)}, ChunkDelay: 15 * time.Millisecond},
		{Items: []mockapi.Item{mockapi.Text("Still here after the leave.")}},
	})
	d := fx.dial(t, fx.drivers[0], 100, 40)
	w1, w2, w3 := fx.dial(t, fx.watchers[0], 80, 40), fx.dial(t, fx.watchers[1], 90, 40), fx.dial(t, fx.watchers[2], 70, 40)
	for _, c := range []*sshClient{d, w1, w2, w3} {
		c.waitReady(t)
	}
	d.send(t, "stream please\r")
	w2.waitFor(t, "Streaming slowly word by word.")
	w2.close() // mid-stream: the answer is still coming
	w3.send(t, "q")
	for _, c := range []*sshClient{d, w1} {
		c.waitFor(t, answer)
		c.waitFor(t, "watcher2 left")
		c.waitFor(t, "watcher3 left")
	}
	select {
	case <-w3.closed:
	case <-time.After(patience):
		t.Fatal("q did not disconnect the watcher")
	}
	// The session goes on.
	select {
	case <-fx.completed:
	case <-time.After(patience):
		t.Fatal("the streamed turn did not complete")
	}
	d.send(t, "still there?\r")
	w1.waitFor(t, "Still here after the leave.")
	if p := fx.ps.hub.Present(); len(p) != 2 {
		t.Fatalf("present after leaves = %+v", p)
	}
}

// cpuTime is this process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestServeHostKeyPersists(t *testing.T) {
	dir := t.TempDir()
	k := sshtest.NewKey(t, "driver1")
	path := filepath.Join(dir, "drivers")
	_ = os.WriteFile(path, []byte(k.Line()), 0o600)
	keys, err := LoadKeyring(path, "")
	if err != nil {
		t.Fatal(err)
	}
	hostKey := filepath.Join(dir, "data", "host_ed25519")
	_ = os.MkdirAll(filepath.Dir(hostKey), 0o700)
	fingerprint := func() string {
		ps := New(Options{Keys: keys})
		srv, err := ps.SSHServer(hostKey)
		if err != nil {
			t.Fatal(err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		go func() { _ = srv.Serve(ln) }()
		defer srv.Close()
		var got string
		conn, err := gossh.Dial("tcp", ln.Addr().String(), &gossh.ClientConfig{
			User: "driver1", Auth: []gossh.AuthMethod{gossh.PublicKeys(k.Signer)}, Timeout: patience,
			HostKeyCallback: func(_ string, _ net.Addr, key gossh.PublicKey) error {
				got = gossh.FingerprintSHA256(key) + " " + key.Type()
				return nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		conn.Close()
		// The fingerprint serve prints is the one ssh sees.
		if want := ps.fingerprint + " ssh-ed25519"; got != want {
			t.Errorf("ssh saw %q, serve announces %q", got, want)
		}
		return got
	}
	first, second := fingerprint(), fingerprint()
	if first != second || !strings.HasSuffix(first, "ssh-ed25519") {
		t.Fatalf("host key changed between runs or is not ed25519: %q vs %q", first, second)
	}
	if st, err := os.Stat(hostKey); err != nil || st.Mode().Perm()&0o077 != 0 {
		t.Fatalf("host key file: %v, %v", st, err)
	}
}

func TestServeIdleTimeoutEndsOnlyWhenNobodyIsConnected(t *testing.T) {
	ps := New(Options{Keys: &Keyring{}})
	v := ps.hub.Join("alice", 0)
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	ended := make(chan time.Time, 1)
	go ps.WatchIdle(ctx, 300*time.Millisecond, func() { ended <- time.Now() })
	select {
	case <-ended:
		t.Fatal("idle timeout fired while a client was connected")
	case <-time.After(800 * time.Millisecond):
	}
	left := time.Now()
	v.Leave()
	select {
	case at := <-ended:
		if d := at.Sub(left); d < 300*time.Millisecond {
			t.Fatalf("ended %v after the last client left, before the timeout", d)
		}
	case <-ctx.Done():
		t.Fatal("idle timeout never fired")
	}
}
