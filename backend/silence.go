package backend

import (
	"context"
	"errors"
	"time"
)

// A server's silence: what tandem is owed and has not heard (the
// status line names a server silent too long, and F5 kills it), and
// whether a call that got no answer may have been carried out.

// MaybeSent reports whether a call that failed with err may still have
// been carried out by the server: it gave up waiting (its context ended)
// or the connection ended while it waited, so no answer says either way.
// An error the server answered with (*RPCError) or one before any
// request was written is not such a failure.
func MaybeSent(err error) bool {
	var rpcErr *RPCError
	if err == nil || errors.As(err, &rpcErr) {
		return false
	}
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || errors.Is(err, ErrClosed)
}

// Unanswered is the time since which the server has owed an answer and
// said nothing: the later of when the oldest request still unanswered was
// sent (also one whose call gave up waiting) and when the last message of
// any kind came from it. It is the zero time when no request is owed, or
// once the connection ended. Times are the wall clock's (time.Now).
func (c *Conn) Unanswered() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || len(c.owed) == 0 {
		return time.Time{}
	}
	var oldest time.Time
	for _, t := range c.owed {
		if oldest.IsZero() || t.Before(oldest) {
			oldest = t
		}
	}
	if c.heard.After(oldest) {
		return c.heard
	}
	return oldest
}

// answered records the server's answer to request id: it and every
// request sent before it are no longer owed (a server that answers a
// later request is not stuck on an earlier one it dropped).
func (c *Conn) answered(id int64) {
	for i := range c.owed {
		if i <= id { // ids grow in the order requests are sent
			delete(c.owed, i)
		}
	}
}

// giveUp drops the call waiting for request id; the request stays owed
// (Unanswered) until the server answers it or a later one.
func (c *Conn) giveUp(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}
