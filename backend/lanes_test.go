package backend

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// openFakeLane opens a lane on root and has the fake server answer its
// thread/start with thread id.
func openFakeLane(t *testing.T, root *Session, pt *pipeTransport, id string) (*Session, chan any) {
	t.Helper()
	got := make(chan any, 100)
	ln := root.Open(func(v any) { got <- v })
	errc := make(chan error, 1)
	go func() {
		_, err := ln.StartThread(context.Background())
		errc <- err
	}()
	m := pt.next(t)
	if m["method"] != "thread/start" {
		t.Fatalf("lane sent %v, want thread/start", m)
	}
	pt.say(t, `{"id":`+string(mustJSON(m["id"]))+`,"result":{"thread":{"id":"`+id+`"},"model":"m","cwd":"/w","approvalPolicy":"never","sandbox":{"type":"workspaceWrite"}}}`)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if ln.ThreadID() != id {
		t.Fatalf("lane's thread %q, want %q", ln.ThreadID(), id)
	}
	return ln, got
}

// delta is an agent message delta of thread th.
func delta(th, text string) string {
	return `{"method":"item/agentMessage/delta","params":{"threadId":"` + th + `","turnId":"t","itemId":"i","delta":"` + text + `"}}`
}

// barrier says a thread-less warning: every session gets it after all
// that was said before.
func barrier(t *testing.T, pt *pipeTransport, name string) {
	t.Helper()
	pt.say(t, `{"method":"warning","params":{"message":"`+name+`"}}`)
}

// until reads got up to the barrier name (or a ServerExitedEvent when
// name is "") and returns what came before it, described: "delta th x",
// "sub thread/started kid", "request th", "retry", ….
func until(t *testing.T, got chan any, name string) []string {
	t.Helper()
	var seen []string
	deadline := time.After(patience)
	for {
		select {
		case v := <-got:
			switch e := v.(type) {
			case WarningEvent:
				if e.Message == name {
					return seen
				}
				seen = append(seen, "warning "+e.Message)
			case ServerExitedEvent:
				if name == "" {
					return seen
				}
				seen = append(seen, "exited")
			default:
				seen = append(seen, describe(v))
			}
		case <-deadline:
			t.Fatalf("no %q after %v", name, seen)
		}
	}
}

func describe(v any) string {
	switch e := v.(type) {
	case AgentMessageDeltaEvent:
		return "delta " + e.ThreadID + " " + e.Delta
	case SubAgentEvent:
		if d, ok := e.Event.(AgentMessageDeltaEvent); ok {
			return "sub delta " + d.ThreadID + " " + d.Delta
		}
		return fmt.Sprintf("sub %T %s", e.Event, e.Event.Thread())
	case ServerRequest:
		return "request " + e.Thread()
	case RetryNotice:
		return fmt.Sprintf("retry %s done=%v", e.Method, e.Done)
	}
	return fmt.Sprintf("%T", v)
}

func TestLanesGetOnlyTheirOwnThreadsEvents(t *testing.T) {
	root, pt, rootGot := startFakeSession(t)
	lane, laneGot := openFakeLane(t, root, pt, "th-2")
	for i := range 3 {
		pt.say(t, delta("th-1", fmt.Sprint("a", i)))
		pt.say(t, delta("th-2", fmt.Sprint("b", i)))
	}
	barrier(t, pt, "one")
	if got, want := until(t, rootGot, "one"), []string{"delta th-1 a0", "delta th-1 a1", "delta th-1 a2"}; !slices.Equal(got, want) {
		t.Errorf("root got %q, want %q", got, want)
	}
	if got, want := until(t, laneGot, "one"), []string{"delta th-2 b0", "delta th-2 b1", "delta th-2 b2"}; !slices.Equal(got, want) {
		t.Errorf("lane got %q, want %q", got, want)
	}

	// Each session's turn is its own.
	pt.say(t, `{"method":"turn/started","params":{"threadId":"th-2","turn":{"id":"turn-b","items":[],"status":"inProgress"}}}`)
	barrier(t, pt, "two")
	until(t, laneGot, "two")
	until(t, rootGot, "two")
	if root.TurnID() != "" || lane.TurnID() != "turn-b" {
		t.Errorf("turns: root %q, lane %q; want none and turn-b", root.TurnID(), lane.TurnID())
	}
}

func TestLaneRequestReachesItsSinkAndIsAnswerable(t *testing.T) {
	root, pt, rootGot := startFakeSession(t)
	_, laneGot := openFakeLane(t, root, pt, "th-2")
	pt.say(t, `{"id":"q-2","method":"item/tool/call","params":{"threadId":"th-2","turnId":"t","callId":"c1","tool":"ask_user_question","arguments":{"questions":[{"id":"a","question":"?"}]}}}`)
	var req *ToolCallRequest
	select {
	case v := <-laneGot:
		var ok bool
		if req, ok = v.(*ToolCallRequest); !ok {
			t.Fatalf("lane got %#v, want its *ToolCallRequest", v)
		}
	case <-time.After(patience):
		t.Fatal("the lane's request never reached its sink")
	}
	go func() { _ = req.Succeed(`{"a":["yes"]}`) }()
	if reply := pt.next(t); reply["id"] != "q-2" || !strings.Contains(string(mustJSON(reply["result"])), `"success":true`) {
		t.Fatalf("reply %v, want q-2's success", reply)
	}
	// A request of a thread no session has is refused, as before lanes.
	pt.say(t, `{"id":43,"method":"item/tool/call","params":{"threadId":"th-9","turnId":"t","callId":"c2","tool":"ask_user_question","arguments":{}}}`)
	if reply := pt.next(t); string(mustJSON(reply["id"])) != "43" || !strings.Contains(string(mustJSON(reply["result"])), `"success":false`) {
		t.Fatalf("reply %v, want 43 refused", reply)
	}
	barrier(t, pt, "end")
	if got := until(t, rootGot, "end"); len(got) != 0 {
		t.Errorf("root got %q, want nothing of the lane's thread", got)
	}
}

func TestSubAgentIsItsLanesOnly(t *testing.T) {
	root, pt, rootGot := startFakeSession(t)
	_, laneGot := openFakeLane(t, root, pt, "th-2")
	// kid is spawned by the lane's thread; kid2's delta comes before the
	// lane's item names it; grandkid is kid's.
	pt.say(t, `{"method":"thread/started","params":{"thread":{"id":"kid","preview":"","cwd":"/w","createdAt":1,"updatedAt":1,"turns":[],"parentThreadId":"th-2"}}}`)
	pt.say(t, delta("kid", "k"))
	pt.say(t, delta("kid2", "early"))
	pt.say(t, `{"method":"item/completed","params":{"threadId":"th-2","turnId":"t","item":{"type":"collabAgentToolCall","id":"spawn","receiverThreadIds":["kid2"]}}}`)
	pt.say(t, `{"method":"thread/started","params":{"thread":{"id":"grandkid","preview":"","cwd":"/w","createdAt":1,"updatedAt":1,"turns":[],"parentThreadId":"kid"}}}`)
	pt.say(t, delta("grandkid", "g"))
	barrier(t, pt, "end")
	want := []string{
		"sub backend.ThreadStartedEvent kid", "sub delta kid k",
		"sub delta kid2 early", "backend.ItemCompletedEvent", // what was held comes first, as before lanes
		"sub backend.ThreadStartedEvent grandkid", "sub delta grandkid g",
	}
	if got := until(t, laneGot, "end"); !slices.Equal(got, want) {
		t.Errorf("lane got %q, want %q", got, want)
	}
	if got := until(t, rootGot, "end"); len(got) != 0 {
		t.Errorf("root got %q, want none of the lane's sub-agents", got)
	}
}

func TestHeldEventsReachTheLaneThatResumesTheirThread(t *testing.T) {
	root, pt, rootGot := startFakeSession(t)
	laneGot := make(chan any, 100)
	lane := root.Open(func(v any) { laneGot <- v })
	pt.say(t, delta("th-9", "before"))
	barrier(t, pt, "held")
	until(t, laneGot, "held")
	if got := until(t, rootGot, "held"); len(got) != 0 {
		t.Fatalf("root got %q of a thread it does not have", got)
	}
	resumeFake(t, lane, pt, "th-9")
	pt.say(t, delta("th-9", "after"))
	barrier(t, pt, "end")
	if got, want := until(t, laneGot, "end"), []string{"delta th-9 before", "delta th-9 after"}; !slices.Equal(got, want) {
		t.Errorf("lane got %q, want %q", got, want)
	}
	if got := until(t, rootGot, "end"); len(got) != 0 {
		t.Errorf("root got %q", got)
	}
}

// resumeFake has s resume thread id, the fake server answering.
func resumeFake(t *testing.T, s *Session, pt *pipeTransport, id string) {
	t.Helper()
	errc := make(chan error, 1)
	go func() {
		_, err := s.ResumeThread(context.Background(), id)
		errc <- err
	}()
	m := pt.next(t)
	if m["method"] != "thread/resume" {
		t.Fatalf("sent %v, want thread/resume", m)
	}
	pt.say(t, `{"id":`+string(mustJSON(m["id"]))+`,"result":{"thread":{"id":"`+id+`","turns":[]},"initialTurnsPage":{"data":[],"nextCursor":null},"model":"m","cwd":"/w","approvalPolicy":"never","sandbox":{"type":"workspaceWrite"}}}`)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

func TestALeftThreadsLateEventsAreNotHeld(t *testing.T) {
	root, pt, rootGot := startFakeSession(t)
	resumeFake(t, root, pt, "th-5") // the root leaves th-1
	pt.say(t, delta("th-1", "late"))
	laneGot := make(chan any, 100)
	lane := root.Open(func(v any) { laneGot <- v })
	resumeFake(t, lane, pt, "th-1")
	pt.say(t, delta("th-1", "now"))
	barrier(t, pt, "end")
	if got, want := until(t, laneGot, "end"), []string{"delta th-1 now"}; !slices.Equal(got, want) {
		t.Errorf("lane got %q, want %q (not what came after the root left it, before the lane read it)", got, want)
	}
	if got := until(t, rootGot, "end"); len(got) != 0 {
		t.Errorf("root got %q", got)
	}
}

func TestClosingALaneLeavesTheOthers(t *testing.T) {
	root, pt, rootGot := startFakeSession(t)
	b, bGot := openFakeLane(t, root, pt, "th-2")
	_, cGot := openFakeLane(t, root, pt, "th-3")
	done := make(chan error, 1)
	go func() { done <- b.Close() }()
	m := pt.next(t)
	if m["method"] != "thread/unsubscribe" || !strings.Contains(string(mustJSON(m["params"])), `"threadId":"th-2"`) {
		t.Fatalf("closing a lane sent %v, want thread/unsubscribe of th-2", m)
	}
	pt.say(t, `{"id":`+string(mustJSON(m["id"]))+`,"result":{"status":"unsubscribed"}}`)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	select {
	case <-b.Done():
	default:
		t.Fatal("the closed lane's feed did not end")
	}
	close(bGot)
	for v := range bGot {
		t.Errorf("the lane closed on purpose got %s", describe(v))
	}
	pt.say(t, delta("th-1", "root"))
	pt.say(t, delta("th-2", "gone"))
	pt.say(t, delta("th-3", "c"))
	barrier(t, pt, "end")
	if got, want := until(t, rootGot, "end"), []string{"delta th-1 root"}; !slices.Equal(got, want) {
		t.Errorf("root got %q, want %q", got, want)
	}
	if got, want := until(t, cGot, "end"), []string{"delta th-3 c"}; !slices.Equal(got, want) {
		t.Errorf("the other lane got %q, want %q", got, want)
	}
	select {
	case <-root.Done():
		t.Fatal("closing a lane ended the connection")
	default:
	}
}

func TestRootCloseEndsEveryLane(t *testing.T) {
	root, pt, rootGot := startFakeSession(t)
	b, bGot := openFakeLane(t, root, pt, "th-2")
	c, cGot := openFakeLane(t, root, pt, "th-3")
	if err := root.Close(); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]chan any{"root": rootGot, "b": bGot, "c": cGot} {
		if seen := until(t, got, ""); len(seen) != 0 {
			t.Errorf("%s got %q before its ServerExitedEvent", name, seen)
		}
	}
	<-b.Done()
	<-c.Done()
	// A lane opened after the end gets the end at once.
	late := make(chan any, 1)
	l := root.Open(func(v any) { late <- v })
	<-l.Done()
	if _, ok := (<-late).(ServerExitedEvent); !ok {
		t.Error("a lane opened on an ended connection got no ServerExitedEvent")
	}
}

func TestLaneHearsOfItsOwnRetriesAndListsLoadedThreads(t *testing.T) {
	root, pt, rootGot := startFakeSession(t)
	lane, laneGot := openFakeLane(t, root, pt, "th-2")
	type res struct {
		ids []string
		err error
	}
	rc := make(chan res, 1)
	go func() {
		ids, err := lane.LoadedThreads(context.Background())
		rc <- res{ids, err}
	}()
	m := pt.next(t)
	if m["method"] != "thread/loaded/list" {
		t.Fatalf("sent %v, want thread/loaded/list", m)
	}
	pt.say(t, `{"id":`+string(mustJSON(m["id"]))+`,"error":{"code":-32001,"message":"Server overloaded; retry later"}}`)
	m = pt.next(t) // the retry
	pt.say(t, `{"id":`+string(mustJSON(m["id"]))+`,"result":{"data":["th-1","th-2"],"nextCursor":"p2"}}`)
	m = pt.next(t)
	if !strings.Contains(string(mustJSON(m["params"])), `"cursor":"p2"`) {
		t.Fatalf("second page asked with %v, want cursor p2", m["params"])
	}
	pt.say(t, `{"id":`+string(mustJSON(m["id"]))+`,"result":{"data":["th-3"],"nextCursor":null}}`)
	r := <-rc
	if r.err != nil || !slices.Equal(r.ids, []string{"th-1", "th-2", "th-3"}) {
		t.Fatalf("LoadedThreads = %q, %v", r.ids, r.err)
	}
	barrier(t, pt, "end")
	if got, want := until(t, laneGot, "end"), []string{"retry thread/loaded/list done=false", "retry thread/loaded/list done=true"}; !slices.Equal(got, want) {
		t.Errorf("lane got %q, want %q", got, want)
	}
	if got := until(t, rootGot, "end"); len(got) != 0 {
		t.Errorf("root got %q, want none of the lane's retries", got)
	}
}

func TestMarkRead(t *testing.T) {
	for _, c := range []struct {
		name, readState string
		update          bool // thread/readState/update sent, on the revision read
		err             error
	}{
		{"unread", `{"firstUnread":{"type":"turn","turnId":"tu-1"},"revision":"rev-7"}`, true, nil},
		{"already read", `{"firstUnread":null,"revision":"rev-8"}`, false, nil},
		{"no read state", `null`, false, ErrNoReadState},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, pt, _ := startFakeSession(t)
			lane, _ := openFakeLane(t, root, pt, "th-2")
			errc := make(chan error, 1)
			go func() { errc <- lane.MarkRead(context.Background()) }()
			m := pt.next(t)
			if m["method"] != "thread/read" || !strings.Contains(string(mustJSON(m["params"])), `"threadId":"th-2"`) {
				t.Fatalf("sent %v, want thread/read of the lane's thread", m)
			}
			pt.say(t, `{"id":`+string(mustJSON(m["id"]))+`,"result":{"thread":{"id":"th-2"},"readState":`+c.readState+`}}`)
			if c.update {
				m = pt.next(t)
				want := `{"expectedRevision":"rev-7","operation":{"type":"read"},"threadId":"th-2"}`
				if m["method"] != "thread/readState/update" || string(mustJSON(m["params"])) != want {
					t.Fatalf("sent %v, want thread/readState/update %s", m, want)
				}
				pt.say(t, `{"id":`+string(mustJSON(m["id"]))+`,"result":{"readState":{"firstUnread":null,"revision":"rev-9"}}}`)
			}
			if err := <-errc; !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
				t.Fatalf("MarkRead = %v, want %v", err, c.err)
			}
			// Nothing more was sent: the next message is the next call's.
			go func() { _, _ = lane.LoadedThreads(context.Background()) }()
			if m := pt.next(t); m["method"] != "thread/loaded/list" {
				t.Fatalf("MarkRead also sent %v", m)
			}
		})
	}
}
