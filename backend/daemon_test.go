package backend_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tandem/backend"
)

func TestParseDaemonInfo(t *testing.T) {
	tests := []struct {
		name, out  string
		wantStatus string
		wantSock   string
		wantErr    string
	}{
		{"0.169 started", `{"status":"started","backend":"pid","pid":10169,"socketPath":"/h/app-server-control/app-server-control.sock","cliVersion":"0.169.0","appServerVersion":"0.169.0"}` + "\n", "started", "/h/app-server-control/app-server-control.sock", ""},
		{"0.171 already running", `{"status":"alreadyRunning","backend":"pid","socketPath":"/h/s.sock","cliVersion":"0.171.0","appServerVersion":"0.171.0"}`, "alreadyRunning", "/h/s.sock", ""},
		{"noise before", "Installing daemon…\n{\"status\":\"running\",\"socketPath\":\"/x\"}\n", "running", "/x", ""},
		{"no status", "hello\n", "", "", "printed no status"},
		{"no socket", `{"status":"started"}`, "", "", "named no control socket"},
		{"not json", "{oops\n", "", "", "printed no status"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, err := backend.ParseDaemonInfo([]byte(tt.out))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v; want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || info.Status != tt.wantStatus || info.SocketPath != tt.wantSock {
				t.Fatalf("got %+v, %v; want status %q socket %q", info, err, tt.wantStatus, tt.wantSock)
			}
		})
	}
}

// fakeDaemon is a websocket JSON-RPC peer on a unix socket, in the shape
// of the daemon's control socket: it answers initialize and thread/resume
// (a thread whose turn is still running) and can drop every connection.
type fakeDaemon struct {
	sock string
	mu   sync.Mutex
	// conns are the accepted connections' underlying sockets, to drop.
	conns []net.Conn
	// inits counts the initialize requests seen.
	inits int
}

func startFakeDaemon(t *testing.T) *fakeDaemon {
	t.Helper()
	d := &fakeDaemon{sock: filepath.Join(t.TempDir(), "control.sock")}
	l, err := net.Listen("unix", d.sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{
		Handler: http.HandlerFunc(d.serve),
		ConnState: func(c net.Conn, st http.ConnState) {
			if st == http.StateHijacked || st == http.StateActive {
				d.mu.Lock()
				d.conns = append(d.conns, c)
				d.mu.Unlock()
			}
		},
	}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return d
}

func (d *fakeDaemon) serve(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	ctx := context.Background()
	for {
		_, msg, err := c.Read(ctx)
		if err != nil {
			return
		}
		var m backend.Message
		if json.Unmarshal(msg, &m) != nil || len(m.ID) == 0 {
			continue
		}
		var result string
		switch m.Method {
		case "initialize":
			d.mu.Lock()
			d.inits++
			d.mu.Unlock()
			result = `{"userAgent":"fake/0.169.0"}`
		case "thread/resume":
			result = `{"thread":{"id":"th1","status":{"type":"active","activeFlags":[]},"turns":[{"id":"t1","status":"completed","items":[]},{"id":"t2","status":"inProgress","items":[]}]},"model":"m","cwd":"/w"}`
		default:
			result = `{}`
		}
		out := `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + result + `}`
		if err := c.Write(ctx, websocket.MessageText, []byte(out)); err != nil {
			return
		}
	}
}

// drop cuts every connection without a close frame: a lost link.
func (d *fakeDaemon) drop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, c := range d.conns {
		_ = c.Close()
	}
	d.conns = nil
}

// TestDaemonLinkLossIsDetached: a link to the daemon that drops gives a
// ServerExitedEvent that says Detached and names the host; the transport
// starts again (a re-attach) and a thread resumed while its turn runs
// makes that turn the session's; a Close of tandem's own is not a
// detach.
func TestDaemonLinkLossIsDetached(t *testing.T) {
	d := startFakeDaemon(t)
	tr := &backend.DaemonTransport{Socket: d.sock, Host: "devbox"}
	start := func() (*backend.Session, chan any) {
		ch := make(chan any, 100)
		ctx, cancel := context.WithTimeout(context.Background(), backend.Patience)
		defer cancel()
		s, err := backend.StartSession(ctx, backend.SessionOptions{Transport: backend.RedactTransport(tr), Sink: func(m any) { ch <- m }})
		if err != nil {
			t.Fatalf("StartSession: %v", err)
		}
		t.Cleanup(func() { s.Close() })
		return s, ch
	}
	exited := func(ch chan any) backend.ServerExitedEvent {
		t.Helper()
		for {
			select {
			case m := <-ch:
				if e, ok := m.(backend.ServerExitedEvent); ok {
					return e
				}
			case <-time.After(backend.Patience):
				t.Fatal("no ServerExitedEvent")
			}
		}
	}

	s, ch := start()
	if s.Describe() != "daemon" {
		t.Errorf("Describe = %q", s.Describe())
	}
	d.drop()
	if e := exited(ch); !e.Detached || e.Host != "devbox" {
		t.Fatalf("after a drop: %+v; want Detached on devbox", e)
	}

	s2, ch2 := start()
	resp, err := s2.ResumeThread(context.Background(), "th1")
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Thread.Active() || s2.TurnID() != "t2" || s2.ThreadID() != "th1" {
		t.Errorf("resumed: active %v, turn %q, thread %q; want the running turn t2 of th1", resp.Thread.Active(), s2.TurnID(), s2.ThreadID())
	}
	s2.Close()
	if e := exited(ch2); e.Detached {
		t.Errorf("tandem's own Close said Detached: %+v", e)
	}
	d.mu.Lock()
	inits := d.inits
	d.mu.Unlock()
	if inits != 2 {
		t.Errorf("initialize seen %d times; want once per connection (2)", inits)
	}
}

// TestDaemonTransportNoSocket: attaching to a socket that is not there
// says so, naming the path and how to start the daemon.
func TestDaemonTransportNoSocket(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "none.sock")
	_, err := (&backend.DaemonTransport{Socket: sock}).Start()
	var re *backend.RemoteError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), sock) || !strings.Contains(err.Error(), "daemon start") {
		t.Fatalf("err = %v; want a RemoteError naming %s and daemon start", err, sock)
	}
}

// A path that is not a socket says so; a socket reached through a path
// longer than a socket address holds is dialled all the same.
func TestDaemonTransportOddSockets(t *testing.T) {
	dir := t.TempDir()
	_, err := (&backend.DaemonTransport{Socket: dir}).Start()
	if err == nil || !strings.Contains(err.Error(), dir+" is not a socket") {
		t.Fatalf("a directory: %v", err)
	}
	d := startFakeDaemon(t)
	long := filepath.Join(t.TempDir(), strings.Repeat("d", 60), strings.Repeat("e", 60))
	if err := os.MkdirAll(long, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(long, "control.sock")
	if err := os.Symlink(d.sock, link); err != nil {
		t.Fatal(err)
	}
	if len(link) <= 108 {
		t.Fatalf("the path is %d bytes: not long enough to prove anything", len(link))
	}
	ctx, cancel := context.WithTimeout(context.Background(), backend.Patience)
	defer cancel()
	s, err := backend.StartSession(ctx, backend.SessionOptions{Transport: &backend.DaemonTransport{Socket: link}, Sink: func(any) {}})
	if err != nil {
		t.Fatalf("a %d-byte socket path: %v", len(link), err)
	}
	_ = s.Close()
}

// TestProcessTransportIsNotDurable: a child app-server is not a daemon.
func TestProcessTransportIsNotDurable(t *testing.T) {
	if _, ok := backend.IsDurable(&backend.ProcessTransport{}); ok {
		t.Error("a ProcessTransport says durable")
	}
	if h, ok := backend.IsDurable(backend.RedactTransport(&backend.DaemonTransport{Host: "h"})); !ok || h != "h" {
		t.Errorf("a redacted DaemonTransport: %q %v; want durable on h", h, ok)
	}
}
