package hub

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"tandem/backend"
)

// wireReply records what reaches the "app-server".
type wireReply struct {
	mu   sync.Mutex
	sent []string
}

func (w *wireReply) reply(result any, rpcErr *backend.RPCError) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	b, _ := json.Marshal(result)
	if rpcErr != nil {
		b = []byte(rpcErr.Message)
	}
	w.sent = append(w.sent, string(b))
	return nil
}

func approval(t *testing.T, id string, w *wireReply) *backend.CommandApprovalRequest {
	t.Helper()
	req, err := backend.DecodeRequest("item/commandExecution/requestApproval", backend.RequestID(id),
		json.RawMessage(`{"threadId":"th","turnId":"tu","itemId":"it","command":"touch x"}`), w.reply)
	if err != nil {
		t.Fatal(err)
	}
	return req.(*backend.CommandApprovalRequest)
}

// drain reads everything a viewer has now.
func drain(t *testing.T, v *Viewer) []any {
	t.Helper()
	var out []any
	for v.Lag() > 0 {
		b, ok := v.Next()
		if !ok {
			break
		}
		out = append(out, b...)
	}
	return out
}

func TestLateJoinerGetsWholeLogThenLive(t *testing.T) {
	h := New()
	a := h.Join("alice", Driver)
	for i := range 5 {
		h.Publish(backend.AgentMessageDeltaEvent{ItemID: "m", Delta: fmt.Sprint(i)})
	}
	b := h.Join("bob", Watcher)
	h.Publish(backend.AgentMessageDeltaEvent{ItemID: "m", Delta: "live"})

	got := drain(t, b)
	var deltas []string
	var joins []string
	for _, e := range got {
		switch e := e.(type) {
		case backend.AgentMessageDeltaEvent:
			deltas = append(deltas, e.Delta)
		case PresenceEvent:
			joins = append(joins, e.Text())
		}
	}
	if fmt.Sprint(deltas) != "[0 1 2 3 4 live]" {
		t.Fatalf("late joiner deltas = %v", deltas)
	}
	if fmt.Sprint(joins) != "[alice joined as driver bob joined as watcher]" {
		t.Fatalf("presence = %v", joins)
	}
	if n := len(drain(t, a)); n != 8 {
		t.Fatalf("alice got %d entries, want 8", n)
	}
	b.Leave()
	last := drain(t, a)
	pe, ok := last[len(last)-1].(PresenceEvent)
	if !ok || pe.Joined || pe.Who.Name != "bob" || len(pe.Present) != 1 || pe.Present[0].Name != "alice" {
		t.Fatalf("leave event = %#v", last[len(last)-1])
	}
}

func TestFirstDriverAnswerWinsAndResolvesForOthers(t *testing.T) {
	h := New()
	w := &wireReply{}
	a, b, c := h.Join("alice", Driver), h.Join("bob", Driver), h.Join("carol", Watcher)
	h.Publish(approval(t, "7", w))

	reqOf := func(v *Viewer) *backend.CommandApprovalRequest {
		for _, e := range drain(t, v) {
			if r, ok := e.(*backend.CommandApprovalRequest); ok {
				return r
			}
		}
		t.Fatalf("%s got no request", v.Who().Name)
		return nil
	}
	ra, rb := reqOf(a), reqOf(b)
	if ra.Params.Command == nil || *ra.Params.Command != "touch x" {
		t.Fatalf("copy lost params: %+v", ra.Params)
	}
	for _, e := range drain(t, c) {
		if _, answerable := e.(backend.ServerRequest); answerable {
			t.Fatalf("the watcher got an answerable request: %T", e)
		}
	}
	if err := rb.Answer(backend.Decline); err != nil {
		t.Fatal(err)
	}
	if err := ra.Answer(backend.Accept); err != nil {
		t.Fatalf("a later answer is dropped quietly, got %v", err)
	}
	if fmt.Sprint(w.sent) != `[{"decision":"decline"}]` {
		t.Fatalf("wire got %v, want only bob's decline", w.sent)
	}
	var resolved int
	for _, e := range drain(t, a) {
		if r, ok := e.(backend.RequestResolvedEvent); ok && r.RequestID.String() == "7" {
			resolved++
		}
	}
	if resolved != 1 {
		t.Fatalf("alice saw %d resolved events", resolved)
	}
	// A late joiner is not shown an answered request.
	d := h.Join("dave", Driver)
	for _, e := range drain(t, d) {
		if _, ok := e.(backend.ServerRequest); ok {
			t.Fatal("late joiner got an answered request")
		}
	}
}

func TestRefusePendingRefusesOnlyUnanswered(t *testing.T) {
	h := New()
	w := &wireReply{}
	v := h.Join("alice", Driver)
	h.Publish(approval(t, "1", w))
	h.Publish(approval(t, "2", w))
	for _, e := range drain(t, v) {
		if r, ok := e.(*backend.CommandApprovalRequest); ok && r.ID().String() == "1" {
			_ = r.Answer(backend.Accept)
		}
	}
	if n := h.RefusePending(); n != 1 {
		t.Fatalf("refused %d", n)
	}
	if fmt.Sprint(w.sent) != `[{"decision":"accept"} {"decision":"cancel"}]` {
		t.Fatalf("wire = %v", w.sent)
	}
}

// A viewer that never reads does not slow Publish or other viewers.
func TestStalledViewerDoesNotBlock(t *testing.T) {
	h := New()
	_ = h.Join("stalled", Watcher)
	fast := h.Join("fast", Watcher)
	done := make(chan int)
	go func() {
		n := 0
		for {
			b, ok := fast.Next()
			if !ok {
				done <- n
				return
			}
			n += len(b)
		}
	}()
	start := time.Now()
	for i := range 100000 {
		h.Publish(backend.AgentMessageDeltaEvent{ItemID: "m", Delta: fmt.Sprint(i)})
	}
	h.Close()
	select {
	case n := <-done:
		if n != 100000+2 {
			t.Fatalf("fast viewer got %d", n)
		}
	case <-time.After(patience):
		t.Fatal("fast viewer stalled")
	}
	t.Logf("100k publishes with a stalled viewer: %v", time.Since(start))
}

func TestLeaveUnblocksNext(t *testing.T) {
	h := New()
	v := h.Join("a", Driver)
	drain(t, v)
	ended := make(chan bool)
	go func() { _, ok := v.Next(); ended <- ok }()
	v.Leave()
	v.Leave()
	select {
	case ok := <-ended:
		if ok {
			t.Fatal("Next returned ok after Leave")
		}
	case <-time.After(patience):
		t.Fatal("Next did not return after Leave")
	}
}

func BenchmarkPublish20Viewers(b *testing.B) {
	h := New()
	var wg sync.WaitGroup
	for i := range 20 {
		v := h.Join(fmt.Sprint("v", i), Watcher)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if _, ok := v.Next(); !ok {
					return
				}
			}
		}()
	}
	ev := backend.AgentMessageDeltaEvent{ItemID: "m", Delta: "hello "}
	b.ResetTimer()
	for range b.N {
		h.Publish(ev)
	}
	h.Close()
	wg.Wait()
}

// TestWatcherCannotAnswerAnyKind: for every server request kind of the
// protocol table, a watcher gets a backend.RequestView (no way to reply),
// a driver an answerable copy of the same kind, and the original is left
// unanswered by the watcher.
func TestWatcherCannotAnswerAnyKind(t *testing.T) {
	for i, method := range backend.RequestMethods() {
		t.Run(method, func(t *testing.T) {
			h := New()
			w := &wireReply{}
			d, watcher := h.Join("alice", Driver), h.Join("carol", Watcher)
			id := backend.RequestID(fmt.Sprint(i + 1))
			orig, err := backend.DecodeRequest(method, id, []byte(`{"threadId":"th"}`), w.reply)
			if err != nil || orig == nil {
				t.Fatalf("decoding %s: %v", method, err)
			}
			h.Publish(orig)
			var view *backend.RequestView
			for _, e := range drain(t, watcher) {
				if _, answerable := e.(backend.ServerRequest); answerable {
					t.Fatalf("the watcher got an answerable %T", e)
				}
				if v, ok := e.(backend.RequestView); ok {
					view = &v
				}
			}
			if view == nil || view.Method != method || view.ID.String() != id.String() {
				t.Fatalf("the watcher's view = %+v", view)
			}
			var copyOf backend.ServerRequest
			for _, e := range drain(t, d) {
				if r, ok := e.(backend.ServerRequest); ok {
					copyOf = r
				}
			}
			if copyOf == nil || fmt.Sprintf("%T", copyOf) != fmt.Sprintf("%T", orig) || copyOf == orig {
				t.Fatalf("the driver got %T, want a copy of %T", copyOf, orig)
			}
			if orig.Answered() || len(w.sent) != 0 {
				t.Fatal("the original was answered")
			}
		})
	}
}
