package pair

import (
	"sync"

	"charm.land/ssh"
)

// Largest terminal a client's program is drawn at, in cells. A client
// asking for more (in its pty request or a later window change) is drawn
// at this size. A program's screen buffers cost about 220 bytes a cell
// (22 MB at this size, measured): a 65535×65535 terminal would take the
// host's whole memory, and every guest's session with it.
const (
	MaxWidth  = 500
	MaxHeight = 200
)

// clampWindow returns w cut to MaxWidth×MaxHeight and whether it was cut.
func clampWindow(w ssh.Window) (ssh.Window, bool) {
	if w.Width <= MaxWidth && w.Height <= MaxHeight {
		return w, false
	}
	orig := w
	w.Width, w.Height = min(w.Width, MaxWidth), min(w.Height, MaxHeight)
	if orig.Width > MaxWidth {
		w.WidthPixels = 0
	}
	if orig.Height > MaxHeight {
		w.HeightPixels = 0
	}
	return w, true
}

// ClampedSession is an ssh.Session whose pty size and window changes never
// exceed MaxWidth×MaxHeight. Wrap a session with Clamp before any
// middleware reads its pty.
type ClampedSession struct {
	ssh.Session
	pty   ssh.Pty
	winch chan ssh.Window
	ok    bool

	mu     sync.Mutex
	asked  ssh.Window // the largest size asked for that was cut, if any
	cut    bool
	notify func(asked ssh.Window)
}

// Clamp wraps sess. Its window changes are forwarded, clamped, until the
// session's context ends.
func Clamp(sess ssh.Session) *ClampedSession {
	c := &ClampedSession{Session: sess}
	pty, winch, ok := sess.Pty()
	c.ok = ok
	if !ok {
		return c
	}
	if w, cut := clampWindow(pty.Window); cut {
		c.asked, c.cut = pty.Window, true
		pty.Window = w
	}
	c.pty = pty
	c.winch = make(chan ssh.Window, 1)
	go c.forward(winch)
	return c
}

// forward passes window changes on, clamped, until the session's
// context ends or the client's requests end (the server closes in then).
// c.winch is never closed: a reader that does not check for a closed
// channel (wish's window-change loop) would otherwise spin on it.
func (c *ClampedSession) forward(in <-chan ssh.Window) {
	done := c.Context().Done()
	for {
		select {
		case <-done:
			return
		case w, ok := <-in:
			if !ok {
				return
			}
			cw, cut := clampWindow(w)
			if cut {
				c.noteCut(w)
			}
			select {
			case c.winch <- cw:
			case <-done:
				return
			}
		}
	}
}

// noteCut remembers that asked was cut and tells the notify function,
// once per session.
func (c *ClampedSession) noteCut(asked ssh.Window) {
	c.mu.Lock()
	first := !c.cut
	c.asked, c.cut = asked, true
	fn := c.notify
	c.mu.Unlock()
	if first && fn != nil {
		fn(asked)
	}
}

// Pty implements ssh.Session with the clamped size and window changes.
func (c *ClampedSession) Pty() (ssh.Pty, <-chan ssh.Window, bool) {
	return c.pty, c.winch, c.ok
}

// OnClamp sets fn to hear, once per session, that the client asked for a
// size larger than MaxWidth×MaxHeight (asked is what it asked for). When
// the pty request itself was cut, fn is called at once.
func (c *ClampedSession) OnClamp(fn func(asked ssh.Window)) {
	c.mu.Lock()
	c.notify = fn
	cut, asked := c.cut, c.asked
	c.mu.Unlock()
	if cut {
		fn(asked)
	}
}
