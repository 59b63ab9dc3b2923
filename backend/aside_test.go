package backend

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// asideResult is what Aside returned.
type asideResult struct {
	answer string
	err    error
}

// startAside runs Aside(ctx, prompt) on s and returns where its result
// comes.
func startAside(ctx context.Context, s *Session, prompt string) <-chan asideResult {
	out := make(chan asideResult, 1)
	go func() {
		a, err := s.Aside(ctx, prompt)
		out <- asideResult{a, err}
	}()
	return out
}

// expect reads the session's next request and checks its method.
func expect(t *testing.T, pt *pipeTransport, method string) map[string]any {
	t.Helper()
	m := pt.next(t)
	if m["method"] != method {
		t.Fatalf("the session sent %v, want %s", m, method)
	}
	return m
}

func answer(t *testing.T, pt *pipeTransport, req map[string]any, result string) {
	t.Helper()
	pt.say(t, `{"id":`+string(mustJSON(req["id"]))+`,"result":`+result+`}`)
}

// A fork refused with prediction mode is asked again plain, read-only;
// the fork's turn runs read-only, never asking; its approval is refused
// (never delivered to the thread's sink) and named after the answer; its
// deltas are not the thread's; the fork is unsubscribed at the end.
func TestAsideForksRefusesAndLetsGo(t *testing.T) {
	s, pt, got := startFakeSession(t)
	res := startAside(context.Background(), s, "what is X?")
	f1 := expect(t, pt, "thread/fork")
	p := f1["params"].(map[string]any)
	if p["threadId"] != "th-1" || p["ephemeral"] != true || p["experimentalPredictionMode"] != true {
		t.Fatalf("the first fork's params are %v", p)
	}
	pt.say(t, `{"id":`+string(mustJSON(f1["id"]))+`,"error":{"code":-32600,"message":"no rollout"}}`)
	f2 := expect(t, pt, "thread/fork")
	p = f2["params"].(map[string]any)
	if p["ephemeral"] != true || p["experimentalPredictionMode"] != nil || p["sandbox"] != "read-only" || p["approvalPolicy"] != "never" {
		t.Fatalf("the plain fork's params are %v", p)
	}
	answer(t, pt, f2, `{"thread":{"id":"fork-1"}}`)
	ts := expect(t, pt, "turn/start")
	p = ts["params"].(map[string]any)
	if p["threadId"] != "fork-1" || p["approvalPolicy"] != "never" || !strings.Contains(string(mustJSON(p["sandboxPolicy"])), "readOnly") ||
		!strings.Contains(string(mustJSON(p["input"])), "what is X?") {
		t.Fatalf("the fork's turn/start params are %v", p)
	}
	answer(t, pt, ts, `{"turn":{"id":"ft-1","items":[],"status":"inProgress"}}`)
	pt.say(t, `{"method":"item/agentMessage/delta","params":{"threadId":"fork-1","turnId":"ft-1","itemId":"m1","delta":"X is "}}`)
	pt.say(t, `{"id":77,"method":"item/commandExecution/requestApproval","params":{"threadId":"fork-1","turnId":"ft-1","itemId":"c1","command":"rm -rf /"}}`)
	refusal := pt.next(t)
	if string(mustJSON(refusal["id"])) != "77" || strings.Contains(string(mustJSON(refusal["result"])), "accept") {
		t.Fatalf("the fork's approval was answered %v, want a refusal", refusal)
	}
	pt.say(t, `{"method":"item/agentMessage/delta","params":{"threadId":"fork-1","turnId":"ft-1","itemId":"m1","delta":"a letter."}}`)
	pt.say(t, `{"method":"turn/completed","params":{"threadId":"fork-1","turn":{"id":"ft-1","items":[],"status":"completed"}}}`)
	un := expect(t, pt, "thread/unsubscribe")
	if un["params"].(map[string]any)["threadId"] != "fork-1" {
		t.Fatalf("unsubscribed %v", un)
	}
	answer(t, pt, un, `{"status":"unsubscribed"}`)
	r := <-res
	if r.err != nil || !strings.HasPrefix(r.answer, "X is a letter.") || !strings.Contains(r.answer, "item/commandExecution/requestApproval") {
		t.Fatalf("Aside gave %q, %v", r.answer, r.err)
	}
	// A late event of the fork is dropped, not held or delivered; the
	// thread's own still come.
	pt.say(t, `{"method":"item/agentMessage/delta","params":{"threadId":"fork-1","turnId":"ft-1","itemId":"m1","delta":"late"}}`)
	pt.say(t, `{"method":"item/agentMessage/delta","params":{"threadId":"th-1","turnId":"t","itemId":"i","delta":"mine"}}`)
	select {
	case v := <-got:
		if d, ok := v.(AgentMessageDeltaEvent); !ok || d.Delta != "mine" {
			t.Fatalf("the thread's sink got %#v first, want its own delta", v)
		}
	case <-time.After(patience):
		t.Fatal("the thread's delta never came")
	}
	s.lanes.mu.Lock()
	held := len(s.lanes.held)
	s.lanes.mu.Unlock()
	if held != 0 {
		t.Errorf("%d threads held after the aside; want none", held)
	}
}

// An aside cut by its ctx interrupts the fork's turn, unsubscribes it,
// and returns the ctx's error.
func TestAsideCutInterruptsTheFork(t *testing.T) {
	s, pt, _ := startFakeSession(t)
	ctx, cancel := context.WithCancel(context.Background())
	res := startAside(ctx, s, "long question")
	answer(t, pt, expect(t, pt, "thread/fork"), `{"thread":{"id":"fork-2"}}`)
	answer(t, pt, expect(t, pt, "turn/start"), `{"turn":{"id":"ft-2","items":[],"status":"inProgress"}}`)
	cancel()
	in := expect(t, pt, "turn/interrupt")
	if p := in["params"].(map[string]any); p["threadId"] != "fork-2" || p["turnId"] != "ft-2" {
		t.Fatalf("interrupted %v", p)
	}
	answer(t, pt, in, `{}`)
	answer(t, pt, expect(t, pt, "thread/unsubscribe"), `{"status":"unsubscribed"}`)
	if r := <-res; !errors.Is(r.err, context.Canceled) {
		t.Fatalf("Aside gave %q, %v; want context.Canceled", r.answer, r.err)
	}
}

// With no thread open there is nothing to fork.
func TestAsideNeedsAThread(t *testing.T) {
	s, _, _ := startFakeSession(t)
	s.SetThread("")
	if _, err := s.Aside(context.Background(), "q"); !errors.Is(err, ErrNoThread) {
		t.Fatalf("Aside without a thread: %v", err)
	}
}

// A recording's ephemeral fork (an aside's) opens no thread for its
// reader; any other fork does.
func TestDecodeCallLeavesAsidesForks(t *testing.T) {
	for _, tc := range []struct {
		params string
		open   bool
	}{
		{`{"threadId":"th-1","ephemeral":true,"experimentalPredictionMode":true}`, false},
		{`{"threadId":"th-1","beforeTurnId":"t2"}`, true},
	} {
		call, err := DecodeCall(ThreadFork.Name(), []byte(tc.params))
		if _, ok := call.(ThreadOpenCall); err != nil || ok != tc.open {
			t.Errorf("%s: %#v, %v; want a thread open: %v", tc.params, call, err, tc.open)
		}
	}
}
