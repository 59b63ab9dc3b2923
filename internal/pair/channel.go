package pair

import (
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
			_ = nc.Reject(gossh.ResourceShortage, "tandem serve: at most 2 sessions per connection")
			return
		}
		defer c.leave(conn)
		next(s, conn, filtered{nc}, ctx)
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
type filtered struct{ gossh.NewChannel }

// Accept implements gossh.NewChannel.
func (f filtered) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := f.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	out := make(chan *gossh.Request)
	go filterRequests(reqs, out)
	return ch, out, nil
}

// filterRequests passes a session's requests on, except: env requests
// past maxEnvRequests or maxEnvBytes (refused), and window changes before
// the shell or command starts (dropped: nothing reads them yet, and the
// library would block on them for good). It closes out when in closes.
func filterRequests(in <-chan *gossh.Request, out chan<- *gossh.Request) {
	defer close(out)
	envs, envBytes, started := 0, 0, false
	for req := range in {
		switch req.Type {
		case "env":
			envs++
			envBytes += len(req.Payload)
			if envs > maxEnvRequests || envBytes > maxEnvBytes {
				refuse(req)
				continue
			}
		case "window-change":
			if !started {
				refuse(req)
				continue
			}
		case "shell", "exec", "subsystem":
			started = true
		}
		out <- req
	}
}

func refuse(req *gossh.Request) {
	if req.WantReply {
		_ = req.Reply(false, nil)
	}
}
