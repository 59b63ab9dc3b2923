package pair

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// waitFor polls cond until it holds (true) or patience runs out (false).
func waitFor(cond func() bool) bool {
	for end := time.Now().Add(patience); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

func dialKey(addr string, s gossh.Signer) (*gossh.Client, error) {
	return gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User: "driver", Auth: []gossh.AuthMethod{gossh.PublicKeys(s)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), //nolint:gosec // test server
		Timeout:         patience,
	})
}

// One key may hold MaxConnsPerKey connections; the next is refused at
// login, and a closed one frees its place.
func TestConnectionsPerKeyAreCapped(t *testing.T) {
	k := newSigner(t)
	addr, g := guardedServer(t, k.PublicKey(), Limits{MaxConnsPerKey: 3})
	var conns []*gossh.Client
	for i := range 3 {
		c, err := dialKey(addr, k)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		conns = append(conns, c)
	}
	if c, err := dialKey(addr, k); err == nil {
		c.Close()
		t.Fatal("a fourth connection of one key logged in")
	}
	conns[0].Close()
	if !waitFor(func() bool { return g.Logins() == 2 }) {
		t.Fatalf("%d logins after one closed, want 2", g.Logins())
	}
	c, err := dialKey(addr, k)
	if err != nil {
		t.Fatalf("after one closed: %v", err)
	}
	conns = append(conns, c)
	for _, c := range conns {
		c.Close()
	}
}

// A logged-in connection that opens no terminal is closed after
// LoginIdle; one that holds a terminal is not.
func TestLoginWithoutTerminalIsClosed(t *testing.T) {
	k := newSigner(t)
	addr, g := guardedServer(t, k.PublicKey(), Limits{LoginIdle: 300 * time.Millisecond, Idle: 400 * time.Millisecond})
	c, err := dialKey(addr, k)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	closed := make(chan struct{})
	go func() { _ = c.Wait(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(patience):
		t.Fatal("a login without a terminal was kept open")
	}
	if n := g.Logins(); n != 0 {
		t.Fatalf("%d logins left", n)
	}
}

// freezer forwards a TCP connection until frozen, then passes nothing
// either way: a client that vanished without closing (a laptop asleep).
type freezer struct {
	ln     net.Listener
	target string
	frozen atomic.Bool
	mu     sync.Mutex
	conns  []net.Conn
}

func (f *freezer) serve() {
	for {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", f.target)
		if err != nil {
			c.Close()
			continue
		}
		f.mu.Lock()
		f.conns = append(f.conns, c, s)
		f.mu.Unlock()
		pipe := func(dst, src net.Conn) {
			buf := make([]byte, 32<<10)
			for {
				n, err := src.Read(buf)
				if err != nil {
					return
				}
				if !f.frozen.Load() {
					if _, err := dst.Write(buf[:n]); err != nil {
						return
					}
				}
			}
		}
		go pipe(s, c)
		go pipe(c, s)
	}
}

// A connection holding a terminal whose client stops answering is closed
// after three keepalives go unanswered, and its terminal ends; one that
// answers is kept past that. The client counts the keepalives it
// answers, so the test waits for rounds, not for time; the interval is a
// second, so a reply a busy machine delays is still in time (3 s).
func TestKeepAliveClosesVanishedClient(t *testing.T) {
	k := newSigner(t)
	g := NewGuard(Limits{KeepAlive: time.Second}, nil)
	addr := serveGuarded(t, k.PublicKey(), g, func(s ssh.Session) {
		_, _ = io.WriteString(s, "ready\n")
		<-s.Context().Done()
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &freezer{ln: ln, target: addr}
	go f.serve()
	defer func() {
		ln.Close()
		f.mu.Lock()
		for _, c := range f.conns {
			c.Close()
		}
		f.mu.Unlock()
	}()
	nc, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	cc, chans, reqs, err := gossh.NewClientConn(nc, ln.Addr().String(), &gossh.ClientConfig{
		User: "driver", Auth: []gossh.AuthMethod{gossh.PublicKeys(k)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), //nolint:gosec // test server
	})
	if err != nil {
		t.Fatal(err)
	}
	answered := make(chan struct{}, 100)
	go func() {
		for r := range reqs {
			_ = r.Reply(false, nil) // as OpenSSH answers keepalive@openssh.com
			if r.Type == "keepalive@openssh.com" {
				answered <- struct{}{}
			}
		}
	}()
	c := gossh.NewClient(cc, chans, nil)
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out, _ := sess.StdoutPipe()
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(out, make([]byte, 6)); err != nil { // "ready\n"
		t.Fatal(err)
	}
	// Four answered rounds: the fourth is asked for three intervals after
	// the first, when a server that ignored the replies would have closed.
	for i := range 4 {
		select {
		case <-answered:
		case <-time.After(patience):
			t.Fatalf("keepalive %d never came", i+1)
		}
	}
	if g.Logins() != 1 {
		t.Fatalf("%d logins while the client answers, want 1", g.Logins())
	}
	f.frozen.Store(true)
	if !waitFor(func() bool { return g.Logins() == 0 }) {
		t.Fatal("a client that stopped answering keepalives kept its login")
	}
}
