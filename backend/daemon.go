package backend

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/coder/websocket"

	"tandem/internal/lib/redact"
)

// The app-server daemon: `codex app-server daemon start` runs one durable
// app-server per CODEX_HOME (`codex app-server --listen unix://
// --managed-daemon`, plus a `daemon pid-update-loop`), detached from the
// terminal. Its control socket, CODEX_HOME/app-server-control/
// app-server-control.sock, speaks WebSocket (an HTTP Upgrade, then one
// JSON-RPC message per text message); `codex app-server proxy` relays raw
// bytes between stdio and that socket, so a client speaks the same
// handshake and frames through it (the SSH transport does, see
// sshdaemon.go). A client that goes away leaves the daemon's threads and
// turns running; `thread/resume` from a new connection picks them up and
// the daemon sends again the server requests still waiting for an answer.

// DaemonInfo is what `codex app-server daemon start` (and `version`)
// print: one JSON object on stdout.
type DaemonInfo struct {
	// Status is "started", "alreadyRunning" (0.171.0), "running" or
	// "restarted".
	Status string `json:"status"`
	// PID is the daemon's app-server process (0 when it was running
	// already).
	PID int `json:"pid"`
	// SocketPath is the control socket: CODEX_HOME/app-server-control/
	// app-server-control.sock, a symlink into /tmp/codex-daemon-UID/.
	SocketPath       string `json:"socketPath"`
	CLIVersion       string `json:"cliVersion"`
	AppServerVersion string `json:"appServerVersion"`
}

// ParseDaemonInfo reads the JSON object `daemon start` prints among its
// stdout lines (the last line that decodes with a status wins). Errors:
// no such line, or one without a socket path.
func ParseDaemonInfo(stdout []byte) (DaemonInfo, error) {
	var found *DaemonInfo
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var info DaemonInfo
		if json.Unmarshal(line, &info) == nil && info.Status != "" {
			found = &info
		}
	}
	if found == nil {
		return DaemonInfo{}, fmt.Errorf("codex app-server daemon start printed no status: %q", truncate(bytes.TrimSpace(stdout), 200))
	}
	if found.SocketPath == "" {
		return DaemonInfo{}, fmt.Errorf("codex app-server daemon start (status %q) named no control socket", found.Status)
	}
	return *found, nil
}

// DaemonCommand runs `codex app-server daemon VERB` (start, stop,
// version) with env (nil: tandem's own, which must then carry the
// CODEX_HOME meant) in dir, within ctx, and returns its stdout. A failure
// is an error holding its last meaningful stderr line, redacted.
func DaemonCommand(ctx context.Context, codex string, env []string, dir, verb string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, codex, "app-server", "daemon", verb)
	cmd.Env = env
	cmd.Dir = dir
	var stdout bytes.Buffer
	stderr := NewRing(50, 16<<10)
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	// The daemon it starts is detached (a session of its own) and holds
	// neither pipe; should one linger, Wait gives up on it.
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Run(); err != nil {
		msg := fmt.Sprintf("codex app-server daemon %s: %s", verb, ExitDescription(err))
		if ctx.Err() != nil {
			msg = fmt.Sprintf("codex app-server daemon %s: no answer within the time allowed", verb)
		}
		if reason := StderrReason(stderr.Tail(20)); reason != "" {
			msg += ": " + redact.String(reason)
		}
		return stdout.Bytes(), errors.New(msg)
	}
	return stdout.Bytes(), nil
}

// StartDaemon makes sure the daemon of the CODEX_HOME in env is running
// (`codex app-server daemon start`, idempotent) and says where it
// listens. The first start installs a managed copy of codex under
// CODEX_HOME/packages and takes a few seconds.
func StartDaemon(ctx context.Context, codex string, env []string, dir string) (DaemonInfo, error) {
	out, err := DaemonCommand(ctx, codex, env, dir, "start")
	if err != nil {
		return DaemonInfo{}, err
	}
	return ParseDaemonInfo(out)
}

// DaemonSocket is the control socket of the daemon of codexHome.
func DaemonSocket(codexHome string) string {
	return filepath.Join(codexHome, "app-server-control", "app-server-control.sock")
}

// DaemonTransport attaches to the app-server daemon over its control
// socket. With Socket empty each Start first runs `codex app-server
// daemon start` (Codex, Env, Dir), so a daemon that died is started
// again; with Socket set (--remote unix://PATH) it only dials. The
// streams it returns are durable (see Durable): a dropped link leaves the
// daemon's turns running, and Start can be called again to re-attach.
type DaemonTransport struct {
	Codex string
	// Env is the environment of `daemon start`, CODEX_HOME included (nil:
	// tandem's); the daemon keeps it.
	Env []string
	// Dir is where `daemon start` runs, and so the daemon's own working
	// directory (threads carry their cwd); "" means tandem's.
	Dir string
	// Socket, when set, is the control socket to dial, and no daemon is
	// started.
	Socket string
	// Host names the machine for the status line ("" means this one's
	// hostname).
	Host string
	// StartTimeout bounds `daemon start`; 0 means 60 s (the first start
	// installs codex's managed copy).
	StartTimeout time.Duration
	// DialTimeout bounds the websocket handshake; 0 means 10 s.
	DialTimeout time.Duration
}

// Start makes sure the daemon runs (unless Socket is set) and dials its
// control socket. The stream describes itself as "daemon".
func (t *DaemonTransport) Start() (Stream, error) {
	sock := t.Socket
	if sock == "" {
		limit := t.StartTimeout
		if limit == 0 {
			limit = 60 * time.Second
		}
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		info, err := StartDaemon(ctx, t.Codex, t.Env, t.Dir)
		cancel()
		if err != nil {
			return nil, err
		}
		sock = info.SocketPath
	}
	s, err := dialUnixWS(sock, t.DialTimeout)
	if err != nil {
		return nil, err
	}
	s.durable = true
	return s, nil
}

// Durable implements DurableTransport.
func (t *DaemonTransport) Durable() bool { return true }

// HostName implements DurableTransport.
func (t *DaemonTransport) HostName() string {
	if t.Host != "" {
		return t.Host
	}
	if h, err := os.Hostname(); err == nil && h != "" {
		return h
	}
	return "this machine"
}

// DurableTransport is a transport whose app-server outlives tandem's
// connection to it (the daemon, locally or over ssh): the session's
// ServerExitedEvent then says Detached, and the turn goes on. HostName
// names the machine it runs on, for "the agent keeps working on HOST".
type DurableTransport interface {
	Transport
	Durable() bool
	HostName() string
}

// IsDurable reports whether t is a DurableTransport that says so, and the
// host it names.
func IsDurable(t Transport) (host string, ok bool) {
	for t != nil {
		if d, ok := t.(DurableTransport); ok {
			if d.Durable() {
				return d.HostName(), true
			}
			return "", false
		}
		u, ok := t.(interface{ Unwrap() Transport })
		if !ok {
			break
		}
		t = u.Unwrap()
	}
	return "", false
}

// durable reports whether stream s says its app-server outlives it.
func durable(s Stream) bool {
	d, ok := s.(interface{ Durable() bool })
	return ok && d.Durable()
}

// dialUnixWS does the websocket handshake on the unix socket sock.
// A path longer than a socket address holds (sun_path: 108 bytes with
// its NUL on Linux) is dialled through a short link to it.
func dialUnixWS(sock string, timeout time.Duration) (*wsStream, error) {
	peer := PeerDaemon
	st, err := os.Stat(sock)
	switch {
	case err != nil:
		return nil, &RemoteError{Peer: peer, Reason: "no daemon control socket at " + sock, Detail: "is the daemon running? (codex app-server daemon start)"}
	case st.Mode()&os.ModeSocket == 0:
		return nil, &RemoteError{Peer: peer, Reason: sock + " is not a socket", Detail: "--remote unix://PATH names the daemon's control socket (app-server-control/app-server-control.sock in its CODEX_HOME)"}
	}
	dial := func(ctx context.Context, _, _ string) (net.Conn, error) {
		addr := sock
		if len(addr) > maxSocketPath {
			dir, err := os.MkdirTemp("", "tandem-sock")
			if err != nil {
				return nil, err
			}
			defer os.RemoveAll(dir)
			if addr = filepath.Join(dir, "s"); os.Symlink(sock, addr) != nil {
				return nil, fmt.Errorf("the socket path is %d bytes, more than a socket address holds (%d), and no short link to it could be made in %s", len(sock), maxSocketPath, dir)
			}
		}
		var d net.Dialer
		return d.DialContext(ctx, "unix", addr)
	}
	return dialWSOver(dial, peer, timeout, nil)
}

// maxSocketPath is the longest path a unix socket address holds.
const maxSocketPath = 107

// dialWSOver does the websocket handshake of the daemon's control socket
// over the connection dial returns (a unix socket, or the stdio of a
// `codex app-server proxy`), carried by under (nil for a socket).
func dialWSOver(dial func(ctx context.Context, network, addr string) (net.Conn, error), peer string, timeout time.Duration, under Stream) (*wsStream, error) {
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	hc := &http.Client{Transport: &http.Transport{DialContext: dial, DisableKeepAlives: true}}
	// The host is not looked up: dial decides where the bytes go.
	c, resp, err := websocket.Dial(ctx, "ws://localhost/", &websocket.DialOptions{HTTPClient: hc})
	if err != nil {
		reason := "could not connect to the daemon"
		if resp != nil {
			reason = fmt.Sprintf("the daemon refused the websocket handshake (HTTP %d)", resp.StatusCode)
		}
		return nil, &RemoteError{Peer: peer, Reason: reason, Detail: redact.String(strings.TrimSpace(err.Error()))}
	}
	return newWSStream(c, peer, under), nil
}
