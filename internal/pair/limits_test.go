package pair

import (
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"tandem/internal/testkit/mockapi"
	"tandem/internal/testkit/sshtest"
	"tandem/sessions"
)

// heapInUse is the live heap after a collection, in bytes.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// TestServeClampsHugeTerminals: a client (a watcher, even) that asks for a
// 65535×65535 pty, or resizes to it later, is drawn at the clamp with a
// one-line notice and stays connected; the host's memory does not grow
// with the size asked for.
func TestServeClampsHugeTerminals(t *testing.T) {
	fx := newPairFixture(t, 1, 2, "", "", nil)
	base := heapInUse()

	big, err := dialPairPty(fx.addr, fx.watchers[0], 65535, 65535, MaxWidth, MaxHeight)
	if err != nil {
		t.Fatalf("huge pty request: %v", err)
	}
	t.Cleanup(big.close)
	big.waitFor(t, fmt.Sprintf("tandem serve draws at most %d×%d", MaxWidth, MaxHeight))

	later := fx.dial(t, fx.watchers[1], 80, 24)
	later.waitFor(t, "watching")
	if err := later.sess.WindowChange(65535, 65535); err != nil {
		t.Fatalf("window-change: %v", err)
	}
	time.Sleep(time.Second) // the resized program draws
	later.mu.Lock()
	later.emu.Resize(MaxWidth, MaxHeight)
	later.mu.Unlock()
	later.waitFor(t, fmt.Sprintf("draws at most %d×%d", MaxWidth, MaxHeight))
	if err := later.sess.WindowChange(65535, 65535); err != nil { // again: no second notice
		t.Fatalf("window-change: %v", err)
	}
	time.Sleep(500 * time.Millisecond)
	if n := strings.Count(later.screen(), "draws at most"); n != 1 {
		t.Errorf("notice shown %d times, want once", n)
	}
	if n := len(fx.ps.hub.Present()); n != 2 {
		t.Fatalf("%d clients connected, want both", n)
	}
	// Two programs at the clamp cost tens of MB (as do this test's two
	// emulators); one at 65535×65535 would cost gigabytes.
	grew := int64(heapInUse()) - int64(base)
	t.Logf("heap grew by %d MiB", grew>>20)
	if grew > 300<<20 {
		t.Fatalf("heap grew by %d MiB", grew>>20)
	}
}

// TestServeRefusesNoPTYKeys: a key whose authorized_keys line says no-pty
// (or restrict) gets a clear line, not a terminal.
func TestServeRefusesNoPTYKeys(t *testing.T) {
	d, r := sshtest.NewKey(t, "driver1"), sshtest.NewKey(t, "restricted")
	ps, addr := servePairKeys(t, d.Line()+"restrict "+r.Line())
	conn, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User: "restricted", Auth: []gossh.AuthMethod{gossh.PublicKeys(r.Signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: patience, //nolint:gosec // test server
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	sess, err := conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	_ = sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{})
	out, _ := sess.CombinedOutput("")
	if !strings.Contains(string(out), "no-pty") {
		t.Fatalf("restricted key got %q", out)
	}
	if n := len(ps.hub.Present()); n != 0 {
		t.Fatalf("the restricted key joined the session (%d present)", n)
	}
}

// servePairKeys serves a pair server, without a session, whose drivers
// file holds drivers, on a free loopback port until the test ends.
func servePairKeys(t *testing.T, drivers string) (*Server, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "drivers")
	_ = os.WriteFile(path, []byte(drivers), 0o600)
	keys, err := LoadKeyring(path, "")
	if err != nil {
		t.Fatal(err)
	}
	ps := New(Options{Keys: keys})
	srv, err := ps.SSHServer(filepath.Join(dir, "host"))
	if err != nil {
		t.Fatal(err)
	}
	addr := serveOn(t, srv)
	t.Cleanup(func() { ps.Shutdown(srv, nil, false) })
	return ps, addr
}

// serveOn serves srv on a free loopback port until the test ends.
func serveOn(t *testing.T, srv interface{ Serve(net.Listener) error }) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	return ln.Addr().String()
}

// TestServeRecordAttributesPrompts: `serve --record` records the one
// shared session, and the export says which driver typed each prompt and
// each ! shell command.
func TestServeRecordAttributesPrompts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.jsonl")
	rec, err := sessions.CreateRecorder(path, sessions.Header{Tandem: "test"})
	if err != nil {
		t.Fatal(err)
	}
	fx := newRecordedPairFixture(t, 2, 0, "", "", []mockapi.Response{
		{Items: []mockapi.Item{mockapi.Text("First answer.")}},
		{Items: []mockapi.Item{mockapi.Text("Second answer.")}},
		{Items: []mockapi.Item{mockapi.Text(strings.Repeat("a slow third answer ", 80))}, ChunkDelay: 100 * time.Millisecond},
	}, rec)
	d1, d2 := fx.dial(t, fx.drivers[0], 90, 24), fx.dial(t, fx.drivers[1], 90, 24)
	d1.waitReady(t)
	d2.waitReady(t)
	// Each prompt and ! command waits for the turn before it to complete
	// (turn/completed, not the screen: an answer or a command's line can
	// be drawn before its turn has ended, and a prompt sent then would go
	// into that turn, a steer, not start one).
	turnEnded := func(what string) {
		t.Helper()
		select {
		case <-fx.completed:
		case <-time.After(patience):
			t.Fatalf("the turn of %s never completed", what)
		}
	}
	d1.send(t, "prompt from the first driver\r")
	d2.waitFor(t, "First answer.")
	turnEnded("the first prompt")
	d2.send(t, "prompt from the second driver\r")
	d1.waitFor(t, "Second answer.")
	turnEnded("the second prompt")
	d1.send(t, "!echo shell-from-driver1\r")
	d2.waitFor(t, "! echo shell-from-driver1")
	turnEnded("the ! command") // codex runs a ! command as a turn of its own
	// driver2 starts a slow turn and driver1 interrupts it.
	d2.send(t, "a third prompt\r")
	d1.waitFor(t, "a slow third answer")
	d1.send(t, "\x1b")
	d2.waitFor(t, "driver1 interrupted the turn")
	for mark := ""; mark != "driver1 interrupted the turn"; { // it reaches the recording
		select {
		case mark = <-fx.marked:
		case <-time.After(patience):
			t.Fatal("the interrupt never reached the recording")
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	loaded, err := sessions.LoadRecording(path)
	if err != nil {
		t.Fatal(err)
	}
	var md strings.Builder
	if err := sessions.ExportMarkdown(&md, loaded); err != nil {
		t.Fatal(err)
	}
	out := md.String()
	for _, want := range []string{"_driver1 wrote:_\n\n> prompt from the first driver", "_driver2 wrote:_\n\n> prompt from the second driver", "Second answer.",
		"_driver1 wrote:_\n\n> !echo shell-from-driver1", "_driver1 interrupted the turn._"} {
		if !strings.Contains(out, want) {
			t.Errorf("export misses %q:\n%s", want, out)
		}
	}
}

// TestServeCertificateAuthority: a cert-authority line lets in users
// with certificates it signed (named by their key id), not the CA's key.
func TestServeCertificateAuthority(t *testing.T) {
	ca, user := sshtest.NewKey(t, "corp-ca"), sshtest.NewKey(t, "alice")
	_, addr := servePairKeys(t, `cert-authority,principals="pair" `+ca.Line())
	signed := func(ext map[string]string) sshtest.Key {
		cert := &gossh.Certificate{Key: user.Signer.PublicKey(), CertType: gossh.UserCert, KeyId: "alice@corp",
			ValidPrincipals: []string{"pair"}, ValidBefore: gossh.CertTimeInfinity,
			Permissions: gossh.Permissions{Extensions: ext}}
		if err := cert.SignCert(rand.Reader, ca.Signer); err != nil {
			t.Fatal(err)
		}
		certSigner, err := gossh.NewCertSigner(cert, user.Signer)
		if err != nil {
			t.Fatal(err)
		}
		return sshtest.Key{Name: "alice", Signer: certSigner}
	}
	// As with sshd, a certificate without permit-pty gets no terminal.
	if _, got, _ := openTerminal(t, dialConn(t, addr, signed(nil))); !strings.Contains(got, "lacks the permit-pty extension") {
		t.Fatalf("certificate without permit-pty got %q", got)
	}

	c, err := dialPair(addr, signed(map[string]string{"permit-pty": ""}), 80, 24)
	if err != nil {
		t.Fatalf("certificate login: %v", err)
	}
	defer c.close()
	c.waitFor(t, "alice@corp joined as driver")
	if _, err := dialPair(addr, ca, 80, 24); err == nil {
		t.Fatal("the CA's own key logged in")
	}
}

// TestServeSessionClosedConnectionKept: a client that closes its session
// channel but keeps the connection (and may open another session) costs
// the host nothing: no loop spins on the ended window changes.
func TestServeSessionClosedConnectionKept(t *testing.T) {
	fx := newPairFixture(t, 1, 1, "", "", nil)
	conn, err := gossh.Dial("tcp", fx.addr, &gossh.ClientConfig{
		User: "watcher1", Auth: []gossh.AuthMethod{gossh.PublicKeys(fx.watchers[0].Signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: patience, //nolint:gosec // test server
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for i := range 3 {
		sess, err := conn.NewSession()
		if err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
		if err := sess.RequestPty("xterm", 24, 80, gossh.TerminalModes{}); err != nil {
			t.Fatal(err)
		}
		out, _ := sess.StdoutPipe()
		if err := sess.Shell(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 4096)
		if _, err := out.Read(buf); err != nil { // the first frame
			t.Fatal(err)
		}
		_ = sess.Close()
	}
	time.Sleep(300 * time.Millisecond)
	before := cpuTime()
	time.Sleep(time.Second)
	if used := cpuTime() - before; used > 400*time.Millisecond {
		t.Fatalf("the host used %v of CPU in a quiet second after the sessions closed", used)
	}
}

// openTerminal opens a PTY session with a shell on conn and reads its
// first bytes (a frame, or a refusal), which it returns.
func openTerminal(t *testing.T, conn *gossh.Client) (*gossh.Session, string, error) {
	t.Helper()
	sess, err := conn.NewSession()
	if err != nil {
		return nil, "", err
	}
	if err := sess.RequestPty("xterm", 24, 80, gossh.TerminalModes{}); err != nil {
		return nil, "", err
	}
	out, _ := sess.StdoutPipe()
	var stderr strings.Builder
	sess.Stderr = &stderr
	if err := sess.Shell(); err != nil {
		return nil, "", err
	}
	buf := make([]byte, 4096)
	n, err := out.Read(buf)
	if err != nil { // refused: the reason is on stderr
		_ = sess.Wait()
		return sess, stderr.String(), err
	}
	return sess, string(buf[:n]), nil
}

// dialConn authenticates k's key on a connection without a session.
func dialConn(t *testing.T, addr string, k sshtest.Key) *gossh.Client {
	t.Helper()
	conn, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User: k.Name, Auth: []gossh.AuthMethod{gossh.PublicKeys(k.Signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: patience, //nolint:gosec // test server
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// TestServeCapsSessions: one connection holds at most two sessions, one
// key at most four terminals, each refusal says why, and a freed place
// can be taken again.
func TestServeCapsSessions(t *testing.T) {
	fx := newPairFixture(t, 1, 1, "", "", nil)
	w := fx.watchers[0]

	first := dialConn(t, fx.addr, w)
	var held []*gossh.Session
	for i := range MaxSessionsPerConn {
		s, _, err := openTerminal(t, first)
		if err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
		held = append(held, s)
	}
	if _, _, err := openTerminal(t, first); err == nil || !strings.Contains(err.Error(), "at most 2 sessions per connection") {
		t.Fatalf("third session on one connection: %v, want refused", err)
	}

	second := dialConn(t, fx.addr, w)
	for i := range DefaultSeatsPerKey - MaxSessionsPerConn {
		if _, _, err := openTerminal(t, second); err != nil {
			t.Fatalf("session %d on the second connection: %v", i, err)
		}
	}
	third := dialConn(t, fx.addr, w)
	_, got, _ := openTerminal(t, third)
	if !strings.Contains(got, fmt.Sprintf("already has %d terminals open", DefaultSeatsPerKey)) {
		t.Fatalf("fifth terminal of one key got %q, want the per-key refusal", got)
	}

	_ = held[0].Close()
	deadline := time.Now().Add(patience)
	for {
		s, got, err := openTerminal(t, third)
		if err == nil && !strings.Contains(got, "terminals open") {
			_ = s.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a closed terminal's place was not given back: %q %v", got, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestServeBoundsEnvRequests: a session that sends env requests without
// end has all but the first 64 refused.
func TestServeBoundsEnvRequests(t *testing.T) {
	fx := newPairFixture(t, 1, 1, "", "", nil)
	conn := dialConn(t, fx.addr, fx.watchers[0])
	sess, err := conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	accepted := 0
	for i := range 500 {
		if sess.Setenv(fmt.Sprintf("V%d", i), "x") == nil {
			accepted++
		}
	}
	if accepted == 0 || accepted > 64 {
		t.Fatalf("%d env requests accepted, want 1..64", accepted)
	}
	// The session still works.
	if err := sess.RequestPty("xterm", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatalf("pty after the env flood: %v", err)
	}
}

// TestServeRefusedSessionsDoNotWedgeConnections: a session refused
// (here: its key holds all its terminals) after the client sent window
// changes does not stall its connection, which closes when the client
// goes instead of lingering with its file descriptor.
func TestServeRefusedSessionsDoNotWedgeConnections(t *testing.T) {
	fx := newPairFixture(t, 1, 1, "", "", nil)
	w := fx.watchers[0]
	for range 2 { // four terminals: the key's share
		conn := dialConn(t, fx.addr, w)
		for range 2 {
			if _, _, err := openTerminal(t, conn); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !waitFor(func() bool { return fx.ps.guard.Logins() == 2 }) {
		t.Fatalf("%d logins, want 2", fx.ps.guard.Logins())
	}
	win := gossh.Marshal(struct{ W, H, PW, PH uint32 }{80, 24, 0, 0})
	for range 10 {
		// A wedged connection never closes; with the fix each one is
		// gone well before the key's connection cap (8) is reached.
		if !waitFor(func() bool { return fx.ps.guard.Logins() < 6 }) {
			t.Fatalf("%d logins linger: refused sessions wedge their connections", fx.ps.guard.Logins())
		}
		conn := dialConn(t, fx.addr, w)
		ch, reqs, err := conn.OpenChannel("session", nil)
		if err != nil {
			t.Fatal(err)
		}
		go gossh.DiscardRequests(reqs)
		go func() { _, _ = io.Copy(io.Discard, ch) }()
		pty := gossh.Marshal(struct {
			Term         string
			W, H, PW, PH uint32
			Modes        string
		}{"xterm", 80, 24, 0, 0, ""})
		_, _ = ch.SendRequest("pty-req", false, pty)
		_, _ = ch.SendRequest("shell", false, nil)
		for range 40 {
			_, _ = ch.SendRequest("window-change", false, win)
		}
		time.Sleep(50 * time.Millisecond)
		_ = ch.Close()
		_ = conn.Close()
	}
	if !waitFor(func() bool { return fx.ps.guard.Logins() == 2 }) {
		t.Fatalf("%d logins after the refused clients left, want the 2 that hold terminals", fx.ps.guard.Logins())
	}
}
