package backend

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"time"
)

// RetryPolicy bounds how a call the server refused with -32001 ("Server
// overloaded; retry later") is retried: at most Tries attempts in all,
// waiting Base, 2·Base, 4·Base … (capped at Max) between them, each wait
// scaled by a random factor in [0.5, 1) ("equal jitter"), and never waiting
// more than Budget in total.
type RetryPolicy struct {
	Tries     int
	Base, Max time.Duration
	Budget    time.Duration
	// Jitter returns a number in [0, 1); nil means math/rand/v2.Float64.
	Jitter func() float64
}

// DefaultRetry is the policy of every Conn.Call: 5 tries within 5 s.
var DefaultRetry = RetryPolicy{Tries: 5, Base: 250 * time.Millisecond, Max: 2 * time.Second, Budget: 5 * time.Second}

// RetryNotice reports a call waiting to retry after -32001. Attempt is the
// attempt that failed (1-based) and Delay the wait before the next one.
// A notice with Done set follows the last retry of a call, whether it
// succeeded or gave up, so a "server busy" hint can be cleared.
type RetryNotice struct {
	Method         string
	Attempt, Tries int
	Delay          time.Duration
	Done           bool
}

// delay returns the wait after the attempt-th failure (1-based).
func (p RetryPolicy) delay(attempt int) time.Duration {
	d := p.Base << (attempt - 1)
	if d > p.Max || d <= 0 {
		d = p.Max
	}
	j := p.Jitter
	if j == nil {
		j = rand.Float64
	}
	return time.Duration(float64(d) * (0.5 + 0.5*j()))
}

// IsOverloaded reports whether err is the server's -32001 answer.
func IsOverloaded(err error) bool {
	var re *RPCError
	return errors.As(err, &re) && re.Code == CodeServerOverloaded
}

// IsNoRollout reports whether err is the server's refusal to open or
// read a thread it has no rollout of (an *RPCError, code -32600, "no
// rollout found for thread id …"): codex writes a thread's rollout with
// its first turn, so a thread that never had one cannot be resumed by a
// new app-server.
func IsNoRollout(err error) bool {
	var re *RPCError
	return errors.As(err, &re) && re.Code == CodeInvalidRequest && strings.Contains(strings.ToLower(re.Message), "no rollout")
}

// Call sends a request and waits for its response, decoding the result
// into result (which may be nil). When the server answers -32001 the
// request is sent again under c.Retry (DefaultRetry when zero), and
// c.OnRetry, if set, is told before each wait and once more at the end.
// It returns an *RPCError when the server answered with an error (the last
// one after retries), ctx.Err() when ctx ends first, and ErrClosed when
// the connection closes before an answer arrives.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	return c.call(ctx, method, params, result, c.OnRetry)
}

// call is Call telling onRetry (nil: no one) about the retries: a
// session on a shared connection hears of its own calls' only (lanes.go).
func (c *Conn) call(ctx context.Context, method string, params, result any, onRetry func(RetryNotice)) error {
	p := c.Retry
	if p.Tries == 0 {
		p = DefaultRetry
	}
	var spent time.Duration
	retried := false
	done := func() {
		if retried && onRetry != nil {
			onRetry(RetryNotice{Method: method, Tries: p.Tries, Done: true})
		}
	}
	for attempt := 1; ; attempt++ {
		err := c.callOnce(ctx, method, params, result)
		if err == nil || !IsOverloaded(err) || attempt >= p.Tries {
			done()
			return err
		}
		d := p.delay(attempt)
		if spent+d > p.Budget {
			done()
			return err
		}
		spent += d
		retried = true
		c.log.Info("server overloaded, retrying", "method", method, "attempt", attempt, "delay", d)
		if onRetry != nil {
			onRetry(RetryNotice{Method: method, Attempt: attempt, Tries: p.Tries, Delay: d})
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			done()
			return err
		case <-t.C:
		}
	}
}
