package backend

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// fakeDaemonCodex stands in for the remote codex of a daemon run: `daemon
// start` logs where it ran and prints the status JSON, `proxy` says its
// CODEX_HOME and copies stdin.
const fakeDaemonCodex = `#!/bin/sh
case "$1 $2 $3" in
"app-server daemon start")
  printf 'pwd=%s home=%s\n' "$PWD" "$CODEX_HOME" >> "$HOME/daemon.log"
  echo 'Installing daemon...'
  echo '{"status":"started","socketPath":"'"$CODEX_HOME"'/app-server-control/app-server-control.sock"}' ;;
"app-server proxy ")
  echo "proxy home=$CODEX_HOME"
  cat ;;
*) echo "unexpected: $*" >&2; exit 5 ;;
esac
`

// TestSSHBootstrapDaemon runs the real remote command and bootstrap with
// a fake codex in daemon mode: without an MCP block the daemon runs in
// the shared CODEX_HOME; with one, in a daemon home under
// $XDG_STATE_HOME/tandem/daemon-homes that is the same every run and has
// the block appended to a fresh copy of config.toml; `daemon start` runs
// in that home with stdin closed, the ready line comes before the proxy,
// and the rest of stdin reaches the proxy.
func TestSSHBootstrapDaemon(t *testing.T) {
	e := newBootstrapEnv(t)
	if err := os.WriteFile(e.codex, []byte(fakeDaemonCodex), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(mcp string) (ready, proxy, stdin string) {
		t.Helper()
		tr := &SSHTransport{RemoteCodex: e.codex, RemoteCodexHome: e.shared, MCPBlock: []byte(mcp), Daemon: true}
		prelude, err := tr.prelude()
		if err != nil {
			t.Fatal(err)
		}
		out, stderr, code := e.run(t, e.home, append(prelude, "GET / HTTP/1.1\r\n"...))
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		lines := strings.SplitN(out, "\n", 3)
		if len(lines) < 3 {
			t.Fatalf("output %q", out)
		}
		return lines[0], lines[1], lines[2]
	}

	ready, proxy, stdin := run("")
	if !strings.HasPrefix(ready, daemonReady+`{"status":"started"`) || proxy != "proxy home="+e.shared || stdin != "GET / HTTP/1.1\r\n" {
		t.Fatalf("shared: ready %q proxy %q stdin %q", ready, proxy, stdin)
	}
	info, err := ParseDaemonInfo([]byte(strings.TrimPrefix(ready, daemonReady)))
	if err != nil || info.SocketPath != e.shared+"/app-server-control/app-server-control.sock" {
		t.Errorf("ready line %q: %+v %v", ready, info, err)
	}

	block := "[mcp_servers.docs]\ncommand = \"docs-mcp\"\n"
	_, proxy1, _ := run(block)
	_, proxy2, _ := run(block)
	home := strings.TrimPrefix(proxy1, "proxy home=")
	if proxy1 != proxy2 || !strings.HasPrefix(home, filepath.Join(e.state, "tandem", "daemon-homes")+"/") {
		t.Fatalf("daemon homes %q then %q; want the same one under the state dir", proxy1, proxy2)
	}
	cfg, _ := os.ReadFile(filepath.Join(home, "config.toml"))
	if strings.Count(string(cfg), "[mcp_servers.docs]") != 1 || !strings.Contains(string(cfg), `model = "shared"`) {
		t.Errorf("daemon home config.toml:\n%s", cfg)
	}
	if l, err := os.Readlink(filepath.Join(home, "sessions")); err != nil || l != filepath.Join(e.shared, "sessions") {
		t.Errorf("sessions link %q %v", l, err)
	}
	log, _ := os.ReadFile(filepath.Join(e.home, "daemon.log"))
	if want := "pwd=" + home + " home=" + home; !strings.Contains(string(log), want) {
		t.Errorf("daemon start ran as %q; want %q", log, want)
	}
}

// connPeer is a Stream over one end of a net.Pipe, the remote end of
// which a test plays (the proxy relaying the daemon's socket).
type connPeer struct {
	c      net.Conn
	once   sync.Once
	closed chan struct{}
}

func (p *connPeer) Stdout() io.Reader       { return p.c }
func (p *connPeer) Stdin() io.WriteCloser   { return p.c }
func (p *connPeer) Wait() error             { <-p.closed; return nil }
func (p *connPeer) StderrTail(int) []string { return nil }
func (p *connPeer) Describe() string        { return "ssh h" }
func (p *connPeer) Close() error {
	p.once.Do(func() { close(p.closed); p.c.Close() })
	return nil
}

// oneConn is a listener that hands out c once.
type oneConn struct {
	c    chan net.Conn
	done chan struct{}
}

func (l *oneConn) Accept() (net.Conn, error) {
	select {
	case c := <-l.c:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}
func (l *oneConn) Close() error   { close(l.done); return nil }
func (l *oneConn) Addr() net.Addr { return stdioAddr{} }

// TestAttachOverSSH: login-shell noise, then the bootstrap's ready line,
// then a websocket server on the far end (as the proxy relays the
// daemon's socket): the stream says it is durable, and a JSON-RPC line
// written goes out as one message and the answer comes back as one line.
func TestAttachOverSSH(t *testing.T) {
	near, far := net.Pipe()
	peer := &connPeer{c: near, closed: make(chan struct{})}
	ss := &sshStream{Stream: peer, host: "h", log: slog.New(slog.DiscardHandler)}
	l := &oneConn{c: make(chan net.Conn, 1), done: make(chan struct{})}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		_, msg, err := c.Read(context.Background())
		if err != nil {
			return
		}
		_ = c.Write(context.Background(), websocket.MessageText, []byte(`{"echo":`+string(msg)+`}`))
		_, _, _ = c.Read(context.Background()) // until the client goes
	})}
	go func() {
		_, _ = io.WriteString(far, "motd: hello\n\n"+daemonReady+`{"status":"running","socketPath":"/s"}`+"\n")
		l.c <- far
		_ = srv.Serve(l)
	}()
	t.Cleanup(func() { _ = srv.Close() })

	st, err := attachOverSSH(ss)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if !durable(st) || st.Describe() != "ssh h" {
		t.Fatalf("durable %v describe %q", durable(st), st.Describe())
	}
	if _, err := io.WriteString(st.Stdin(), `{"id":1}`+"\n"); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(st.Stdout()).ReadString('\n')
	if err != nil || line != `{"echo":{"id":1}}`+"\n" {
		t.Fatalf("read %q, %v", line, err)
	}
}

// TestAttachOverSSHNoReadyLine: a bootstrap that ends before its ready
// line is an error naming what happened, and the peer is closed.
func TestAttachOverSSHNoReadyLine(t *testing.T) {
	near, far := net.Pipe()
	peer := &connPeer{c: near, closed: make(chan struct{})}
	ss := &sshStream{Stream: peer, host: "h", log: slog.New(slog.DiscardHandler)}
	go func() { _, _ = io.WriteString(far, "motd\n"); far.Close() }()
	_, err := attachOverSSH(ss)
	var re *RemoteError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "ssh h: the remote daemon did not start") {
		t.Fatalf("err = %v", err)
	}
	select {
	case <-peer.closed:
	case <-time.After(patience):
		t.Fatal("the peer was left open")
	}
}
