package backend

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// fastRetry keeps tests quick and deterministic (jitter factor 0.5).
var fastRetry = RetryPolicy{Tries: 5, Base: 2 * time.Millisecond, Max: 20 * time.Millisecond, Budget: time.Second, Jitter: func() float64 { return 0 }}

// The peer answers -32001 twice, then succeeds: the call returns the
// result, the same request was sent three times (new ids), and OnRetry
// saw two waits and a final Done.
func TestCallRetriesOverloaded(t *testing.T) {
	p := newPeer(t)
	p.conn.Retry = fastRetry
	var mu sync.Mutex
	var notices []RetryNotice
	p.conn.OnRetry = func(n RetryNotice) { mu.Lock(); notices = append(notices, n); mu.Unlock() }

	type res struct {
		v   string
		err error
	}
	out := make(chan res, 1)
	go func() {
		var v string
		err := p.conn.Call(context.Background(), "turn/start", map[string]string{"threadId": "t1"}, &v)
		out <- res{v, err}
	}()
	var ids []string
	for i := 0; i < 3; i++ {
		m := p.read(t)
		if m["method"] != "turn/start" {
			t.Fatalf("attempt %d: method %v", i+1, m["method"])
		}
		if params, _ := m["params"].(map[string]any); params["threadId"] != "t1" {
			t.Fatalf("attempt %d: params %v", i+1, m["params"])
		}
		id := fmt.Sprint(m["id"])
		ids = append(ids, id)
		if i < 2 {
			p.send(t, `{"jsonrpc":"2.0","id":`+id+`,"error":{"code":-32001,"message":"Server overloaded; retry later."}}`)
		} else {
			p.send(t, `{"jsonrpc":"2.0","id":`+id+`,"result":"ok"}`)
		}
	}
	select {
	case r := <-out:
		if r.err != nil || r.v != "ok" {
			t.Fatalf("Call = %q, %v; want ok, nil", r.v, r.err)
		}
	case <-time.After(patience):
		t.Fatal("Call did not return")
	}
	if ids[0] == ids[1] || ids[1] == ids[2] {
		t.Errorf("retries reused ids: %v", ids)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(notices) != 3 || notices[0].Attempt != 1 || notices[1].Attempt != 2 || !notices[2].Done {
		t.Fatalf("notices = %+v; want attempts 1, 2 then Done", notices)
	}
	if notices[0].Delay != time.Millisecond || notices[1].Delay != 2*time.Millisecond {
		t.Errorf("delays = %v, %v; want 1ms, 2ms (base 2ms doubling, jitter ×0.5)", notices[0].Delay, notices[1].Delay)
	}
}

// A server that stays overloaded gets Tries attempts, then the caller sees
// the -32001 error.
func TestCallGivesUpAfterTries(t *testing.T) {
	p := newPeer(t)
	p.conn.Retry = fastRetry
	out := make(chan error, 1)
	go func() { out <- p.conn.Call(context.Background(), "thread/start", nil, nil) }()
	for i := 0; i < fastRetry.Tries; i++ {
		m := p.read(t)
		p.send(t, fmt.Sprintf(`{"id":%v,"error":{"code":-32001,"message":"Server overloaded"}}`, m["id"]))
	}
	select {
	case err := <-out:
		if !IsOverloaded(err) {
			t.Fatalf("err = %v; want the -32001 error", err)
		}
	case <-time.After(patience):
		t.Fatal("Call did not return")
	}
}

// Other errors are not retried.
func TestCallDoesNotRetryOtherErrors(t *testing.T) {
	p := newPeer(t)
	p.conn.Retry = fastRetry
	out := make(chan error, 1)
	go func() { out <- p.conn.Call(context.Background(), "turn/start", nil, nil) }()
	m := p.read(t)
	p.send(t, fmt.Sprintf(`{"id":%v,"error":{"code":-32600,"message":"bad"}}`, m["id"]))
	err := <-out
	var re *RPCError
	if !errors.As(err, &re) || re.Code != CodeInvalidRequest {
		t.Fatalf("err = %v; want -32600", err)
	}
}

// The total wait never exceeds the budget: with a budget smaller than the
// second delay the call stops after two attempts.
func TestCallRetryBudget(t *testing.T) {
	p := newPeer(t)
	p.conn.Retry = RetryPolicy{Tries: 5, Base: 10 * time.Millisecond, Max: time.Second, Budget: 15 * time.Millisecond, Jitter: func() float64 { return 0.999 }}
	out := make(chan error, 1)
	go func() { out <- p.conn.Call(context.Background(), "turn/start", nil, nil) }()
	for i := 0; i < 2; i++ {
		m := p.read(t)
		p.send(t, fmt.Sprintf(`{"id":%v,"error":{"code":-32001,"message":"Server overloaded"}}`, m["id"]))
	}
	select {
	case err := <-out:
		if !IsOverloaded(err) {
			t.Fatalf("err = %v; want -32001 after the budget ran out", err)
		}
	case <-time.After(patience):
		t.Fatal("Call did not stop at the budget")
	}
}

func TestDefaultRetryFitsFiveSeconds(t *testing.T) {
	p := DefaultRetry
	p.Jitter = func() float64 { return 0.999999 }
	var total time.Duration
	for a := 1; a < p.Tries; a++ {
		total += p.delay(a)
	}
	if total > p.Budget || total > 5*time.Second {
		t.Errorf("worst-case waits %v exceed the 5 s budget", total)
	}
}

// Session methods retry -32001 and the session's sink hears "busy" (in
// order with the events) and then "done".
func TestSessionStartTurnRetriesOverloaded(t *testing.T) {
	s, pt, got := startFakeSession(t)
	s.conn.Retry = fastRetry
	drain := func() {
		for {
			select {
			case <-got:
			default:
				return
			}
		}
	}
	time.Sleep(20 * time.Millisecond)
	drain()
	out := make(chan error, 1)
	go func() {
		_, err := s.StartTurn(context.Background(), TurnInput{Text: "hello"})
		out <- err
	}()
	m := pt.next(t)
	if m["method"] != "turn/start" {
		t.Fatalf("want turn/start, got %v", m)
	}
	pt.say(t, fmt.Sprintf(`{"id":%v,"error":{"code":-32001,"message":"Server overloaded; retry later."}}`, m["id"]))
	m = pt.next(t)
	if m["method"] != "turn/start" {
		t.Fatalf("retry: want turn/start, got %v", m)
	}
	pt.say(t, fmt.Sprintf(`{"id":%v,"result":{"turn":{"id":"turn-9","status":"inProgress","items":[]}}}`, m["id"]))
	if err := <-out; err != nil {
		t.Fatalf("StartTurn after a retry: %v", err)
	}
	if s.TurnID() != "turn-9" {
		t.Fatalf("turn id = %q", s.TurnID())
	}
	var notices []RetryNotice
	deadline := time.After(patience)
	for len(notices) < 2 {
		select {
		case v := <-got:
			if n, ok := v.(RetryNotice); ok {
				notices = append(notices, n)
			}
		case <-deadline:
			t.Fatalf("sink got notices %+v; want busy then done", notices)
		}
	}
	if notices[0].Method != "turn/start" || notices[0].Attempt != 1 || notices[0].Done || !notices[1].Done {
		t.Fatalf("notices = %+v", notices)
	}
}

func TestIsNoRollout(t *testing.T) {
	noRollout := &RPCError{Code: CodeInvalidRequest, Message: "no rollout found for thread id 019a-x"}
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"the server's answer to thread/resume", fmt.Errorf("thread/resume: %w", noRollout), true},
		{"bare", noRollout, true},
		{"nil", nil, false},
		{"another -32600", &RPCError{Code: CodeInvalidRequest, Message: "thread not found"}, false},
		{"the words under another code", &RPCError{Code: CodeInternalError, Message: "no rollout found"}, false},
		{"the words without an RPC error", errors.New("thread/resume: no rollout found for thread id x"), false},
		{"closed", fmt.Errorf("thread/resume: %w", ErrClosed), false},
	} {
		if got := IsNoRollout(tc.err); got != tc.want {
			t.Errorf("%s: IsNoRollout(%v) = %v; want %v", tc.name, tc.err, got, tc.want)
		}
	}
}
