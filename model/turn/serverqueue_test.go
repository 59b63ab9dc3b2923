package turn

import (
	"strings"
	"testing"

	"tandem/backend"
	"tandem/model/act"
)

func sub(id, text string) backend.QueuedSubmission {
	return backend.QueuedSubmission{ID: id, Input: backend.TextInput(text)}
}

// TestServerQueueChangedTellsWhatWasQueued: thread/queue/changed for the
// thread reads the server's queue; each message not told yet is told
// once in a notice, one that left the queue is forgotten; another
// thread's change asks nothing.
func TestServerQueueChangedTellsWhatWasQueued(t *testing.T) {
	long := strings.Repeat("word ", 30)
	tests := []struct {
		name    string
		before  []backend.QueuedSubmission // told already
		queue   []backend.QueuedSubmission
		err     error
		running bool
		want    string // the notice; "" for none
	}{
		{name: "one, mid-turn", queue: []backend.QueuedSubmission{sub("q1", "run the tests\nand more")}, running: true,
			want: "queued from elsewhere: run the tests — runs when this turn ends"},
		{name: "one, idle", queue: []backend.QueuedSubmission{sub("q1", "run the tests")},
			want: "queued from elsewhere: run the tests — runs next"},
		{name: "told already", before: []backend.QueuedSubmission{sub("q1", "run the tests")},
			queue: []backend.QueuedSubmission{sub("q1", "run the tests")}, running: true},
		{name: "a second after the first", before: []backend.QueuedSubmission{sub("q1", "first")},
			queue: []backend.QueuedSubmission{sub("q1", "first"), sub("q2", "second")}, running: true,
			want: "queued from elsewhere: second — runs when this turn ends"},
		{name: "two new", queue: []backend.QueuedSubmission{sub("q1", "first"), sub("q2", "second")}, running: true,
			want: "queued from elsewhere: first (and 1 more) — runs when this turn ends"},
		{name: "long is cut", queue: []backend.QueuedSubmission{sub("q1", long)}, running: true,
			want: "queued from elsewhere: " + strings.TrimSpace(strings.Repeat("word ", 12)) + "… — runs when this turn ends"},
		{name: "emptied: it ran", before: []backend.QueuedSubmission{sub("q1", "first")}},
		{name: "a codex without the queue", queue: nil, err: &backend.RPCError{Code: backend.CodeMethodNotFound, Message: "method not found"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := ready(t, act.Role{}, Options{})
			if tc.running {
				r.tt.OnEvent(backend.TurnStartedEvent{})
			}
			r.tt.Result(act.ServerQueue{Queue: tc.before})
			r.take()
			r.tt.OnEvent(backend.ThreadQueueChangedEvent{ThreadID: "t-first"})
			call[act.ReadServerQueue](t, r.take())
			r.tt.Result(act.ServerQueue{Queue: tc.queue, Err: tc.err})
			if got := notice(r.take()); got != tc.want {
				t.Errorf("notice %q; want %q", got, tc.want)
			}
		})
	}
}

// TestServerQueueChangedOfAnotherThread: a change of a thread not shown
// reads nothing.
func TestServerQueueChangedOfAnotherThread(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	if !r.tt.OnEvent(backend.ThreadQueueChangedEvent{ThreadID: "t-other"}) {
		t.Error("the turn machine did not take thread/queue/changed")
	}
	if cs := calls(r.take()); len(cs) != 0 {
		t.Errorf("calls %v for another thread's queue; want none", cs)
	}
}

// TestServerQueueForgetsWhatRan: a message told, run (gone from the
// queue) and queued again under a new id is told again; the same id
// back is not told twice while it stays.
func TestServerQueueForgetsWhatRan(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	r.tt.Result(act.ServerQueue{Queue: []backend.QueuedSubmission{sub("q1", "again")}})
	if notice(r.take()) == "" {
		t.Fatal("the first message was not told")
	}
	r.tt.Result(act.ServerQueue{})
	r.take()
	r.tt.Result(act.ServerQueue{Queue: []backend.QueuedSubmission{sub("q1", "again")}})
	if notice(r.take()) == "" {
		t.Error("a message queued again after the first ran was not told")
	}
}
