package pair

import (
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// What a logged-in connection may cost (Limits: MaxConnsPerKey, MaxConns,
// LoginIdle, KeepAlive). The session-level caps are Channels' and Seats'.

// Offered notes that the connection of ctx offered key and that the keyring
// accepts it, and reports whether the key may log in one more connection
// (MaxConnsPerKey). The auth callback calls it after the keyring said
// yes; the SSH library asks about the key that logs in last, so the key
// noted at login is that one.
func (g *Guard) Offered(ctx ssh.Context, key ssh.PublicKey) bool {
	gc, _ := ctx.Value(guardKey{}).(*guardConn)
	if gc == nil {
		return true
	}
	fp := gossh.FingerprintSHA256(key)
	g.mu.Lock()
	defer g.mu.Unlock()
	gc.key = fp
	if g.perKey[fp] >= g.lim.MaxConnsPerKey {
		g.log.Warn("ssh auth refused: the key has too many connections", "fingerprint", fp, "max", g.lim.MaxConnsPerKey)
		return false
	}
	return true
}

// authenticated moves gc from pending to the logins. A login past a cap
// (the key's connections, or all of them) is closed at once: two
// handshakes of one key may pass Offered together.
func (g *Guard) authenticated(gc *guardConn) {
	gc.authed.Store(true)
	g.mu.Lock()
	g.removeLocked(gc)
	over := g.perKey[gc.key] >= g.lim.MaxConnsPerKey || len(g.logins) >= g.lim.MaxConns
	if !over && !gc.closed.Load() {
		g.logins[gc] = true
		g.perKey[gc.key]++
		gc.idleSince = time.Now()
	}
	g.mu.Unlock()
	if over {
		g.log.Warn("ssh: closing a login over the connection caps", "addr", gc.ip, "fingerprint", gc.key)
		_ = gc.Close()
	}
}

// logoutLocked forgets a closed login.
func (g *Guard) logoutLocked(gc *guardConn) {
	if !g.logins[gc] {
		return
	}
	delete(g.logins, gc)
	if g.perKey[gc.key]--; g.perKey[gc.key] <= 0 {
		delete(g.perKey, gc.key)
	}
}

// Logins returns how many logged-in connections are open.
func (g *Guard) Logins() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.logins)
}

// idleLoginsLocked returns the logins that have held no terminal for
// LoginIdle.
func (g *Guard) idleLoginsLocked(now time.Time) []*guardConn {
	var out []*guardConn
	for gc := range g.logins {
		if gc.terminals == 0 && now.Sub(gc.idleSince) > g.lim.LoginIdle {
			out = append(out, gc)
		}
	}
	return out
}

// TerminalStarted notes that the connection of ctx opened a terminal and
// returns the function to call when it ends. The first terminal of a
// connection starts its keepalives: every KeepAlive the client is asked
// for a reply, and a connection that gives none for three rounds is
// closed, so a client that vanished (a laptop put to sleep) frees its
// seats within a minute.
func (g *Guard) TerminalStarted(ctx ssh.Context) (done func()) {
	gc, _ := ctx.Value(guardKey{}).(*guardConn)
	if gc == nil {
		return func() {}
	}
	g.mu.Lock()
	gc.terminals++
	g.mu.Unlock()
	if conn, ok := ctx.Value(ssh.ContextKeyConn).(gossh.Conn); ok {
		gc.keepAlives.Do(func() { go g.keepAlive(gc, conn) })
	}
	var ended bool
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if !ended {
			ended = true
			if gc.terminals--; gc.terminals == 0 {
				gc.idleSince = time.Now()
			}
		}
	}
}

// keepAlive asks conn for a reply every KeepAlive until it closes, and
// closes it when three rounds in a row get none.
func (g *Guard) keepAlive(gc *guardConn, conn gossh.Conn) {
	tick := time.NewTicker(g.lim.KeepAlive)
	defer tick.Stop()
	replied := make(chan error, 1)
	for {
		go func() {
			_, _, err := conn.SendRequest("keepalive@openssh.com", true, nil)
			replied <- err
		}()
		wait := time.NewTimer(3 * g.lim.KeepAlive)
		select {
		case err := <-replied:
			wait.Stop()
			if err != nil { // the connection is gone
				return
			}
		case <-wait.C:
			g.log.Info("ssh: closing a connection that answers no keepalive", "addr", gc.ip, "after", 3*g.lim.KeepAlive)
			_ = gc.Close()
			return
		case <-g.stop:
			wait.Stop()
			return
		}
		select {
		case <-tick.C:
		case <-g.stop:
			return
		}
	}
}
