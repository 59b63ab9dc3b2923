package e2e

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
)

// TestLanesShareOneAppServer runs two threads on one app-server: the
// root session's and a lane's (Session.Open). Both turns run at once (the
// mock holds each model request until both have come, then streams them
// slowly), and each sink gets its own answer's deltas and none of the
// other thread's events. Then both are loaded, each has its own read
// state (MarkRead), and closing the lane leaves the root working.
func TestLanesShareOneAppServer(t *testing.T) {
	const (
		askA, answerA = "question for the root", "Root answer: alpha beta gamma delta epsilon zeta eta theta."
		askB, answerB = "question for the lane", "Lane answer: one two three four five six seven eight nine."
	)
	asks := func(text string) func(mockapi.Request) bool {
		return func(r mockapi.Request) bool { return r.LastUserText() == text }
	}
	slow := 5 * time.Millisecond
	e := NewEnv(t,
		mockapi.Response{When: asks(askA), Items: []mockapi.Item{mockapi.Text(answerA)}, ChunkDelay: slow},
		mockapi.Response{When: asks(askB), Items: []mockapi.Item{mockapi.Text(answerB)}, ChunkDelay: slow},
	)
	// Neither answer streams before both turns asked the model.
	var arrived sync.WaitGroup
	arrived.Add(2)
	var once sync.Map
	e.Mock.OnRequest(func(r mockapi.Request) {
		if text := r.LastUserText(); !r.Aux && (text == askA || text == askB) {
			if _, seen := once.LoadOrStore(text, true); !seen {
				arrived.Done()
			}
			waitGroup(t, &arrived)
		}
	})

	root, rootGot := e.Session(t, "never", "read-only")
	laneCh := make(chan any, 100000)
	lane := root.Open(func(v any) { laneCh <- v })
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	if _, err := lane.StartThread(ctx); err != nil {
		t.Fatalf("the lane's thread/start: %v", err)
	}
	if lane.ThreadID() == "" || lane.ThreadID() == root.ThreadID() {
		t.Fatalf("lane thread %q, root thread %q: want two threads", lane.ThreadID(), root.ThreadID())
	}

	errs := make(chan error, 2)
	for _, run := range []struct {
		s    *backend.Session
		text string
	}{{root, askA}, {lane, askB}} {
		go func() {
			_, err := run.s.StartTurn(ctx, backend.TurnInput{Text: run.text})
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("turn/start: %v", err)
		}
	}
	var wg sync.WaitGroup
	for _, c := range []struct {
		name, thread, other, answer string
		ch                          <-chan any
	}{
		{"root", root.ThreadID(), lane.ThreadID(), answerA, rootGot},
		{"lane", lane.ThreadID(), root.ThreadID(), answerB, laneCh},
	} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			text, foreign := ownAnswer(t, c.ch, c.thread, c.other)
			if text != c.answer {
				t.Errorf("%s's deltas make %q, want %q", c.name, text, c.answer)
			}
			if len(foreign) > 0 {
				t.Errorf("%s got %d events of the other thread, first %#v", c.name, len(foreign), foreign[0])
			}
		}()
	}
	wg.Wait()

	// Both threads are loaded; each has its own read state: marking the
	// lane's read leaves the root's unread.
	ids, err := root.LoadedThreads(ctx)
	if err != nil || !slices.Contains(ids, root.ThreadID()) || !slices.Contains(ids, lane.ThreadID()) {
		t.Errorf("thread/loaded/list = %q, %v; want both threads", ids, err)
	}
	if err := lane.MarkRead(ctx); err != nil {
		t.Fatalf("MarkRead: %v", err)
	}
	for _, c := range []struct {
		s      *backend.Session
		unread bool
	}{{root, true}, {lane, false}} {
		rs, err := c.s.ReadState(ctx)
		if err != nil || rs == nil || (rs.FirstUnread != nil) != c.unread {
			t.Errorf("thread %s's read state %+v, %v; want unread %v", c.s.ThreadID(), rs, err, c.unread)
		}
	}

	// Closing the lane leaves the app-server to the root.
	if err := lane.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := root.LoadedThreads(ctx); err != nil {
		t.Errorf("after the lane's Close the root's call failed: %v", err)
	}
	select {
	case <-root.Done():
		t.Error("closing the lane ended the root's connection")
	default:
	}
}

// ownAnswer reads ch up to its thread's turn/completed and returns the
// thread's agent message deltas joined, and the events of thread other
// that came (there should be none).
func ownAnswer(t *testing.T, ch <-chan any, thread, other string) (string, []backend.Event) {
	var text strings.Builder
	var foreign []backend.Event
	deadline := time.After(Patience)
	for {
		select {
		case v := <-ch:
			ev, ok := v.(backend.Event)
			if !ok {
				continue
			}
			if sub, ok := ev.(backend.SubAgentEvent); ok {
				ev = sub.Event
			}
			if ev.Thread() == other {
				foreign = append(foreign, ev)
				continue
			}
			switch e := ev.(type) {
			case backend.AgentMessageDeltaEvent:
				text.WriteString(e.Delta)
			case backend.TurnCompletedEvent:
				if e.ThreadID == thread {
					return text.String(), foreign
				}
			case backend.ServerExitedEvent:
				t.Errorf("the app-server exited: %+v", e)
				return text.String(), foreign
			}
		case <-deadline:
			t.Errorf("thread %s's turn never completed (so far %q)", thread, text.String())
			return text.String(), foreign
		}
	}
}

// waitGroup waits for wg, failing the test after Patience (a hang).
func waitGroup(t *testing.T, wg *sync.WaitGroup) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(Patience):
		t.Error("the two turns never both asked the model")
	}
}
