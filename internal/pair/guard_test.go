package pair

import (
	"bufio"
	"io"
	"net"
	"testing"
	"time"

	"charm.land/ssh"
	"charm.land/wish/v2"
	gossh "golang.org/x/crypto/ssh"
)

// guardedServer starts an SSH server on loopback that accepts key and
// answers each session with "hello", guarded by g.
func guardedServer(t *testing.T, key gossh.PublicKey, lim Limits) (string, *Guard) {
	t.Helper()
	srv, err := wish.NewServer(
		wish.WithHostKeyPEM(mustHostKey(t)),
		wish.WithPublicKeyAuth(func(_ ssh.Context, k ssh.PublicKey) bool { return ssh.KeysEqual(k, key) }),
		wish.WithMiddleware(func(ssh.Handler) ssh.Handler {
			return func(s ssh.Session) { _, _ = io.WriteString(s, "hello\n") }
		}),
	)
	if err != nil {
		t.Fatal(err)
	}
	g := NewGuard(lim, nil)
	g.Install(srv)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close(); g.Close() })
	return ln.Addr().String(), g
}

func mustHostKey(t *testing.T) []byte {
	t.Helper()
	b, err := LoadHostKey(t.TempDir()+"/host", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// login runs one authenticated session and returns what it printed.
func login(addr string, s gossh.Signer) (string, error) {
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User: "driver", Auth: []gossh.AuthMethod{gossh.PublicKeys(s)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), //nolint:gosec // test server
		Timeout:         5 * time.Second,
	})
	if err != nil {
		return "", err
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		return "", err
	}
	out, err := sess.Output("")
	return string(out), err
}

// closedSoon reports whether the server closes c within d.
func closedSoon(c net.Conn, d time.Duration) bool {
	_ = c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	ne, timeout := err.(net.Error)
	return !(timeout && ne.Timeout())
}

// TestDriverLogsInWhileAttackerHoldsIdleSockets: 300 idle TCP connections
// from one address cost at most the caps, and a driver still gets in.
func TestDriverLogsInWhileAttackerHoldsIdleSockets(t *testing.T) {
	driver := newSigner(t)
	lim := Limits{Handshake: 10 * time.Second, Idle: 10 * time.Second, MaxPending: 32, MaxPendingPerSource: 16, Rate: 50, Burst: 400}
	addr, g := guardedServer(t, driver.PublicKey(), lim)
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	maxPending := 0
	for range 300 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("dial: %v", err)
		}
		held = append(held, c)
		maxPending = max(maxPending, g.Pending())
	}
	time.Sleep(100 * time.Millisecond)
	if n := g.Pending(); n > lim.MaxPendingPerSource || maxPending > lim.MaxPendingPerSource {
		t.Fatalf("%d connections pending (peak %d), cap per source %d", n, maxPending, lim.MaxPendingPerSource)
	}
	open := 0
	for _, c := range held {
		if !closedSoon(c, time.Millisecond) {
			open++
		}
	}
	if open > lim.MaxPendingPerSource {
		t.Fatalf("%d of 300 idle sockets still open, cap per source %d", open, lim.MaxPendingPerSource)
	}
	out, err := login(addr, driver)
	if err != nil || out != "hello\n" {
		t.Fatalf("driver could not log in while 300 idle sockets were held: %q, %v", out, err)
	}
	if n := g.Pending(); n > lim.MaxPendingPerSource {
		t.Fatalf("%d pending after the driver's login", n)
	}
}

// TestIdleAndSlowHandshakesAreClosed: a connection that says nothing is
// closed after Idle; one that talks but never authenticates, after
// Handshake.
func TestIdleAndSlowHandshakesAreClosed(t *testing.T) {
	lim := Limits{Handshake: 1500 * time.Millisecond, Idle: 400 * time.Millisecond}
	addr, _ := guardedServer(t, newSigner(t).PublicKey(), lim)

	silent, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	start := time.Now()
	if !closedSoon(silent, 3*time.Second) {
		t.Fatal("a silent connection stayed open")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("silent connection closed after %v, want about %v", d, lim.Idle)
	}

	slow, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	// Read the server's banner, then dribble one byte at a time.
	if _, err := bufio.NewReader(slow).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	closed := make(chan time.Duration, 1)
	go func() {
		for {
			if _, err := slow.Write([]byte("S")); err != nil {
				closed <- time.Since(start)
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	select {
	case d := <-closed:
		if d < lim.Handshake/2 {
			t.Fatalf("slow handshake closed after %v, before the deadline", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a connection that never authenticates stayed open")
	}
}

// TestRateLimitPerSource: a burst beyond Burst is refused at once.
func TestRateLimitPerSource(t *testing.T) {
	lim := Limits{Rate: 1, Burst: 5, MaxPending: 100, MaxPendingPerSource: 100}
	addr, g := guardedServer(t, newSigner(t).PublicKey(), lim)
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	refused := 0
	for range 20 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	for _, c := range conns {
		if closedSoon(c, 300*time.Millisecond) {
			refused++
		}
	}
	if refused < 14 || g.Pending() > 5 {
		t.Fatalf("%d of 20 refused, %d pending; want ≥14 refused and ≤5 pending", refused, g.Pending())
	}
}
