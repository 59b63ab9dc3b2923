package pair

import (
	"context"
	"sync"
	"time"

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

// minResizeGap is the least time between two window changes passed on:
// a flood of them is coalesced (the latest wins), so a client cannot make
// the host redraw its screen as fast as it can send requests.
const minResizeGap = 50 * time.Millisecond

// ClampedSession is an ssh.Session whose pty size and window changes never
// exceed MaxWidth×MaxHeight, arrive at most every minResizeGap, and whose
// Context ends with the session itself: when the client closes the
// session's channel, even if it keeps the connection for other sessions.
// Wrap a session with Clamp before any middleware reads its pty.
type ClampedSession struct {
	ssh.Session
	ctx   sessionContext
	pty   ssh.Pty
	winch chan ssh.Window
	ok    bool

	mu     sync.Mutex
	asked  ssh.Window // the largest size asked for that was cut, if any
	cut    bool
	notify func(asked ssh.Window)
}

// sessionContext is the connection's context, ended early by cancel (the
// session's channel ended).
type sessionContext struct {
	ssh.Context
	ctx    context.Context
	cancel context.CancelFunc
}

// Done implements context.Context.
func (c sessionContext) Done() <-chan struct{} { return c.ctx.Done() }

// Err implements context.Context.
func (c sessionContext) Err() error { return c.ctx.Err() }

// Clamp wraps sess. Its window changes are forwarded, clamped and
// coalesced, until the client's requests end, which also ends the
// session's Context.
func Clamp(sess ssh.Session) *ClampedSession {
	ctx, cancel := context.WithCancel(sess.Context())
	c := &ClampedSession{Session: sess, ctx: sessionContext{Context: sess.Context(), ctx: ctx, cancel: cancel}}
	pty, winch, ok := sess.Pty()
	ReleasePty(sess.Context()) // the library's pty is not read again
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

// Context implements ssh.Session: the connection's context, ended when
// the session's channel ends.
func (c *ClampedSession) Context() ssh.Context { return c.ctx }

// forward passes window changes on, clamped and at most one per
// minResizeGap (the latest wins), until the client's requests end (the
// server closes in then), which ends the session's context. It reads in
// until it is closed, so the server's request loop never blocks on it.
// c.winch is never closed: a reader that does not check for a closed
// channel (wish's window-change loop) would otherwise spin on it.
func (c *ClampedSession) forward(in <-chan ssh.Window) {
	defer c.ctx.cancel()
	done := c.ctx.Done()
	var (
		pending ssh.Window
		have    bool
		last    time.Time
		timer   *time.Timer
		tick    <-chan time.Time
	)
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		var out chan ssh.Window
		if have && tick == nil {
			out = c.winch
		}
		select {
		case w, ok := <-in:
			if !ok {
				return
			}
			cw, cut := clampWindow(w)
			if cut {
				c.noteCut(w)
			}
			pending, have = cw, true
			if wait := minResizeGap - time.Since(last); wait > 0 && tick == nil {
				timer = time.NewTimer(wait)
				tick = timer.C
			}
		case <-tick:
			tick = nil
		case out <- pending:
			have, last = false, time.Now()
		case <-done:
			// Keep reading in (and dropping) until the server closes it.
			for range in {
			}
			return
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
