package backend

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// Unanswered is zero while nothing is owed; from a request on, it is the
// later of its sending and the last line heard; a call that gave up
// leaves its request owed; an answer to a later request clears both.
func TestUnansweredTracksTheServersSilence(t *testing.T) {
	p := newPeer(t)
	if u := p.conn.Unanswered(); !u.IsZero() {
		t.Fatalf("nothing sent, Unanswered %v", u)
	}
	before := time.Now()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- p.conn.Call(ctx, "turn/start", nil, nil) }()
	p.read(t)
	u1 := p.conn.Unanswered()
	if u1.Before(before) || u1.After(time.Now()) {
		t.Fatalf("Unanswered %v; want the request's sending, after %v", u1, before)
	}
	heard := time.Now()
	p.send(t, `{"jsonrpc":"2.0","method":"item/agentMessage/delta","params":{}}`)
	waitFor(t, "the notification", func() bool {
		p.h.mu.Lock()
		defer p.h.mu.Unlock()
		return len(p.h.notes) == 1
	})
	if u2 := p.conn.Unanswered(); u2.Before(heard) {
		t.Errorf("after a notification Unanswered %v; want the time it was heard, after %v", u2, heard)
	}
	cancel()
	if err := <-errc; !MaybeSent(err) {
		t.Fatalf("the call that gave up: %v", err)
	}
	if u := p.conn.Unanswered(); u.IsZero() {
		t.Fatal("a request given up on is no longer owed")
	}
	go func() { errc <- p.conn.Call(context.Background(), "thread/read", nil, nil) }()
	m := p.read(t)
	p.send(t, `{"jsonrpc":"2.0","id":`+string(mustJSON(m["id"]))+`,"result":{}}`)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if u := p.conn.Unanswered(); !u.IsZero() {
		t.Errorf("after a later request's answer Unanswered %v; want zero", u)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s after %v", what, patience)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestMaybeSent(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("copying the image: no such file"), false},
		{fmt.Errorf("turn/start: %w", &RPCError{Code: -32600, Message: "no thread"}), false},
		{fmt.Errorf("turn/start: %w", context.DeadlineExceeded), true},
		{fmt.Errorf("turn/start: %w", context.Canceled), true},
		{fmt.Errorf("turn/start: %w", ErrClosed), true},
	} {
		if got := MaybeSent(tc.err); got != tc.want {
			t.Errorf("MaybeSent(%v) = %v; want %v", tc.err, got, tc.want)
		}
	}
}
