package backend

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"tandem/config"
)

// The remote daemon over ssh (SSHTransport.Daemon): the bootstrap makes
// sure the remote daemon runs, prints one line
//
//	tandem-daemon-ready {"status":…,"socketPath":…}
//
// and execs `codex app-server proxy`, which relays raw bytes to the
// daemon's control socket. The client skips login-shell noise up to that
// line, then does the WebSocket handshake over ssh's stdio.

// daemonReady starts the bootstrap's ready line.
const daemonReady = "tandem-daemon-ready "

// Durable implements DurableTransport: the remote daemon outlives the
// link when Daemon is set.
func (t *SSHTransport) Durable() bool { return t.Daemon }

// HostName implements DurableTransport: the remote host.
func (t *SSHTransport) HostName() string {
	target, err := config.ParseSSHTarget(t.Target)
	if err != nil {
		return t.Target
	}
	return target.Host
}

// attachOverSSH reads ss's stdout up to the bootstrap's ready line, then
// speaks WebSocket through it. On a failure ss is closed, and its own
// reason (ssh's exit, the bootstrap's message) is the error when it has
// one.
func attachOverSSH(ss *sshStream) (Stream, error) {
	peer := "ssh " + ss.host
	br := bufio.NewReaderSize(ss.Stdout(), 64<<10)
	info, err := readReady(br, ss)
	if err != nil {
		_ = ss.Close()
		var remote *RemoteError
		if werr := ss.Wait(); errors.As(werr, &remote) {
			return nil, remote
		}
		return nil, &RemoteError{Peer: peer, Reason: "the remote daemon did not start", Detail: lastLine(ss.StderrTail(5), err)}
	}
	ss.log.Info("remote daemon ready", "status", info.Status, "socket", info.SocketPath, "version", info.AppServerVersion)
	conn := &stdioConn{r: br, w: ss.Stdin()}
	var once sync.Once
	dial := func(context.Context, string, string) (net.Conn, error) {
		var c net.Conn = conn
		used := true
		once.Do(func() { used = false })
		if used {
			return nil, errors.New("the proxy's stdio carries one connection")
		}
		return c, nil
	}
	ws, err := dialWSOver(dial, peer, 20*time.Second, ss)
	if err != nil {
		_ = ss.Close()
		return nil, err
	}
	ws.durable = true
	return ws, nil
}

// readReady reads lines until the ready line and decodes its JSON; other
// lines before it are login-shell noise (up to MaxNoiseLines), logged.
func readReady(br *bufio.Reader, ss *sshStream) (DaemonInfo, error) {
	for n := 0; n <= MaxNoiseLines; n++ {
		line, err := br.ReadBytes('\n')
		if rest, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r\n"), []byte(daemonReady)); ok {
			var info DaemonInfo
			if jerr := json.Unmarshal(rest, &info); jerr != nil {
				return DaemonInfo{}, fmt.Errorf("the bootstrap's ready line is not JSON: %q", truncate(rest, 120))
			}
			return info, nil
		}
		if _, marker := markerStep(line); marker {
			n-- // a step of the start, not noise
		} else if len(bytes.TrimSpace(line)) > 0 {
			ss.log.Info("skipping remote login-shell output", "line", redactLine(truncate(line, 200)))
		}
		if err != nil {
			if err == io.EOF {
				return DaemonInfo{}, errors.New("the connection ended before the daemon was ready")
			}
			return DaemonInfo{}, err
		}
	}
	return DaemonInfo{}, fmt.Errorf("more than %d lines of output before the daemon was ready (login shell noise?)", MaxNoiseLines)
}

// lastLine is the last stderr line, or err's text when there is none.
func lastLine(tail []string, err error) string {
	if len(tail) > 0 {
		return tail[len(tail)-1]
	}
	return err.Error()
}

// stdioConn is a net.Conn over a peer's stdout (r) and stdin (w), for the
// websocket client: deadlines are not supported (the caller's contexts
// bound the handshake; a dead link ends the peer, and so the reads).
type stdioConn struct {
	r io.Reader
	w io.WriteCloser
}

func (c *stdioConn) Read(p []byte) (int, error)  { return c.r.Read(p) }
func (c *stdioConn) Write(p []byte) (int, error) { return c.w.Write(p) }

// Close closes the peer's stdin: the proxy sees EOF and ends.
func (c *stdioConn) Close() error                     { return c.w.Close() }
func (c *stdioConn) LocalAddr() net.Addr              { return stdioAddr{} }
func (c *stdioConn) RemoteAddr() net.Addr             { return stdioAddr{} }
func (c *stdioConn) SetDeadline(time.Time) error      { return nil }
func (c *stdioConn) SetReadDeadline(time.Time) error  { return nil }
func (c *stdioConn) SetWriteDeadline(time.Time) error { return nil }

type stdioAddr struct{}

func (stdioAddr) Network() string { return "stdio" }
func (stdioAddr) String() string  { return "ssh" }
