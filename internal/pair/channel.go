package pair

import (
	"fmt"
	"sync"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// What one authenticated connection may ask of tandem serve. OpenSSH has
// the same kind of caps (MaxSessions); the SSH library has none.
const (
	// MaxSessionsPerConn is how many session channels one connection may
	// hold open at once.
	MaxSessionsPerConn = 2
	// maxEnvRequests and maxEnvBytes bound a session's env requests (the
	// library keeps every one); more are refused.
	maxEnvRequests = 64
	maxEnvBytes    = 16 << 10
	// maxRequestBytes bounds one request's payload (a pty request with
	// its terminal name and modes is well under 1 KiB); larger ones are
	// refused.
	maxRequestBytes = 8 << 10
)

// Channels filters the "session" channels of a server (Install): it
// bounds the sessions per connection and what a session's requests may
// cost before the library sees them.
type Channels struct {
	mu    sync.Mutex
	perCn map[*gossh.ServerConn]int
}

// Install puts the filter in front of srv's session channel handler.
func (c *Channels) Install(srv *ssh.Server) {
	next := ssh.DefaultSessionHandler
	if h, ok := srv.ChannelHandlers["session"]; ok && h != nil {
		next = h
	}
	if srv.ChannelHandlers == nil {
		srv.ChannelHandlers = map[string]ssh.ChannelHandler{}
		for k, v := range ssh.DefaultChannelHandlers {
			srv.ChannelHandlers[k] = v
		}
	}
	srv.ChannelHandlers["session"] = func(s *ssh.Server, conn *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
		if !c.enter(conn) {
			_ = nc.Reject(gossh.ResourceShortage, fmt.Sprintf("tandem serve: at most %d sessions per connection", MaxSessionsPerConn))
			return
		}
		defer c.leave(conn)
		gate := &ptyGate{read: make(chan struct{})}
		next(s, conn, filtered{nc, gate}, gatedContext{ctx, gate})
	}
}

// ptyGate holds a session's window changes back until its handler has
// read the pty (Clamp calls ReleasePty): the SSH library writes the pty's
// size on a window change while the handler may still be reading it, a
// data race of its own.
type ptyGate struct {
	read chan struct{}
	once sync.Once
}

type ptyGateKey struct{}

// gatedContext is the connection's context as one session's handler sees
// it: the same values, plus that session's ptyGate.
type gatedContext struct {
	ssh.Context
	gate *ptyGate
}

// Value implements context.Context.
func (c gatedContext) Value(key any) any {
	if key == (ptyGateKey{}) {
		return c.gate
	}
	return c.Context.Value(key)
}

// ReleasePty tells the session of ctx that its handler has read the pty,
// so window changes may reach the library from now on. Sessions of
// servers without Channels have no gate; then it does nothing.
func ReleasePty(ctx ssh.Context) {
	if g, ok := ctx.Value(ptyGateKey{}).(*ptyGate); ok {
		g.once.Do(func() { close(g.read) })
	}
}

func (c *Channels) enter(conn *gossh.ServerConn) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.perCn == nil {
		c.perCn = map[*gossh.ServerConn]int{}
	}
	if c.perCn[conn] >= MaxSessionsPerConn {
		return false
	}
	c.perCn[conn]++
	return true
}

func (c *Channels) leave(conn *gossh.ServerConn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.perCn[conn]--; c.perCn[conn] <= 0 {
		delete(c.perCn, conn)
	}
}

// filtered is a new session channel whose requests pass filterRequests.
type filtered struct {
	gossh.NewChannel
	gate *ptyGate
}

// Accept implements gossh.NewChannel.
func (f filtered) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := f.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	out := make(chan *gossh.Request)
	go filterRequests(reqs, out, f.gate.read)
	return ch, out, nil
}

// filterRequests passes a session's requests on, except: requests over
// maxRequestBytes, env requests past maxEnvRequests or maxEnvBytes, and
// signals (refused: tandem reads no signal, and the library keeps up to
// 128 of them per session, payload and all), and window changes before
// the shell or command starts (dropped: nothing reads them yet, and the
// library would block on them for good). Window changes after the start
// are held, the latest only, until ptyRead closes (the handler read the
// pty). It closes out when in closes.
func filterRequests(in <-chan *gossh.Request, out chan<- *gossh.Request, ptyRead <-chan struct{}) {
	defer close(out)
	envs, envBytes, started := 0, 0, false
	var held *gossh.Request // the latest window change not passed on yet
	for {
		select {
		case <-ptyRead:
			ptyRead = nil // from now on window changes pass
			if held != nil {
				out <- held
				held = nil
			}
			continue
		case req, ok := <-in:
			if !ok {
				if held != nil {
					refuse(held)
				}
				return
			}
			if !pass(req, &envs, &envBytes, &started) {
				refuse(req)
				continue
			}
			if req.Type == "window-change" && ptyRead != nil {
				if held != nil {
					refuse(held) // superseded
				}
				held = req
				continue
			}
			out <- req
		}
	}
}

// pass reports whether req may reach the library (filterRequests' rules),
// counting env requests and noting the start.
func pass(req *gossh.Request, envs, envBytes *int, started *bool) bool {
	if len(req.Payload) > maxRequestBytes {
		return false
	}
	switch req.Type {
	case "signal":
		return false
	case "env":
		*envs++
		*envBytes += len(req.Payload)
		return *envs <= maxEnvRequests && *envBytes <= maxEnvBytes
	case "window-change":
		return *started
	case "shell", "exec", "subsystem":
		*started = true
	}
	return true
}

func refuse(req *gossh.Request) {
	if req.WantReply {
		_ = req.Reply(false, nil)
	}
}
