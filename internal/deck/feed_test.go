package deck

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model"
)

// seq is the n-th message of a lane's session.
type seq struct {
	lane LaneID
	n    int
}

// Thread makes seq a server's event (backend.Event), which Feed queues.
func (seq) Thread() string { return "" }

// Feed keeps each lane's messages in order and loses none: what comes
// while the program is busy goes as one Batch. The program here is held
// busy until every message has been put.
func TestFeedKeepsEachLanesOrder(t *testing.T) {
	const lanes, each = 3, 500
	release := make(chan struct{})
	var mu sync.Mutex
	got := map[LaneID][]LaneMsg{}
	var others []tea.Msg
	send := func(msg tea.Msg) {
		<-release
		mu.Lock()
		defer mu.Unlock()
		if lm, ok := msg.(LaneMsg); ok {
			got[lm.Lane] = append(got[lm.Lane], lm)
		} else {
			others = append(others, msg)
		}
	}
	put := Feed(send)
	var wg sync.WaitGroup
	for l := range LaneID(lanes) {
		wg.Go(func() {
			for n := range each {
				put(LaneMsg{Lane: l, Msg: seq{l, n}})
			}
		})
	}
	wg.Wait() // no put blocked on the busy program
	close(release)
	put(Recheck{}) // not a lane's: sent as it comes
	deadline := time.Now().Add(2 * time.Minute)
	for {
		mu.Lock()
		n := 0
		for _, ms := range got {
			for _, m := range ms {
				n += len(Messages(m))
			}
		}
		mu.Unlock()
		if n == lanes*each {
			break
		}
		if time.Now().After(deadline) { // a hang, not a timing
			t.Fatalf("%d of %d messages arrived", n, lanes*each)
		}
		time.Sleep(time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	for l := range LaneID(lanes) {
		var order []int
		for _, m := range got[l] {
			for _, x := range Messages(m) {
				s := x.(seq)
				if s.lane != l {
					t.Fatalf("lane %d got lane %d's message", l, s.lane)
				}
				order = append(order, s.n)
			}
		}
		for i, n := range order {
			if n != i {
				t.Fatalf("lane %d: message %d is #%d (order %v…)", l, i, n, order[:min(len(order), i+3)])
			}
		}
		// all came while the program was held: at most the first alone
		// (if its goroutine took it before the rest came), then a Batch
		last := got[l][len(got[l])-1]
		if _, ok := last.Msg.(Batch); !ok || len(got[l]) > 2 {
			t.Errorf("lane %d: %d sends, the last a %T: want the messages batched", l, len(got[l]), last.Msg)
		}
	}
	if len(others) != 1 {
		t.Errorf("a message not a lane's was not passed on: %v", others)
	}
}

// A Batch reaches the lane's model message by message in order (a
// Recheck in it is the deck's), and the lane's state is read after it.
func TestBatchGoesToTheLaneInOrder(t *testing.T) {
	d, panes := newFakeDeck(t, Options{}, "a", "b")
	panes[1].set(func(s *model.State) { s.Summary.Name = "renamed" })
	d.Update(LaneMsg{Lane: 2, Msg: Batch{seq{2, 0}, Recheck{}, seq{2, 1}, seq{2, 2}}})
	if got := received[seq](panes[1]); fmt.Sprint(got) != "[{2 0} {2 1} {2 2}]" {
		t.Errorf("lane b got %v", got)
	}
	if n := received[Recheck](panes[1]); len(n) > 0 {
		t.Errorf("the Recheck reached the lane: %v", n)
	}
	if got := received[seq](panes[0]); len(got) > 0 {
		t.Errorf("lane a got lane b's messages %v", got)
	}
	if l := d.lane(2); l.sum.Name != "renamed" {
		t.Errorf("the lane's state was not read after the batch: %q", l.sum.Name)
	}
}

// Every delta of a Batch folds: a lane fed an answer's deltas in batches
// draws what a lane fed them one by one draws, the whole answer.
func TestBatchedDeltasAllFold(t *testing.T) {
	words := make([]string, 60)
	for i := range words {
		words[i] = fmt.Sprintf("w%02d", i)
	}
	text := strings.Join(words, " ")
	var deltas []tea.Msg
	for i := 0; i < len(text); i += 5 { // cut mid-word: a lost or moved delta shows
		deltas = append(deltas, backend.AgentMessageDeltaEvent{ItemID: "msg-1", Delta: text[i:min(i+5, len(text))]})
	}
	draw := func(batched bool) string {
		m := model.New(model.Options{NoColor: true})
		d := New(Options{Home: "/home/dev"}, Lane{ID: 1, Model: m})
		d.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
		start := []tea.Msg{
			model.SessionReadyMsg{Client: fakeDriver{}, Model: "mock-model", ThreadID: "t1"},
			backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}},
			backend.ItemStartedEvent{Item: backend.Item{Type: "agentMessage", ID: "msg-1"}},
		}
		for _, msg := range start {
			d.Update(LaneMsg{Lane: 1, Msg: msg})
		}
		if batched {
			half := len(deltas) / 2
			d.Update(LaneMsg{Lane: 1, Msg: Batch(deltas[:half])})
			d.Update(LaneMsg{Lane: 1, Msg: deltas[half]})
			d.Update(LaneMsg{Lane: 1, Msg: Batch(deltas[half+1:])})
		} else {
			for _, msg := range deltas {
				d.Update(LaneMsg{Lane: 1, Msg: msg})
			}
		}
		d.Update(tea.FocusMsg{}) // not a delta: the answer is drawn
		return stripped(d.View().Content)
	}
	batched, single := draw(true), draw(false)
	if batched != single {
		t.Errorf("batched:\n%s\none by one:\n%s", batched, single)
	}
	if got := strings.Join(strings.Fields(batched), " "); !strings.Contains(got, text) {
		t.Errorf("the answer drawn is not the whole text:\n%s", batched)
	}
}

// A lane's message that is not a server's event (a session ready after a
// restart, say) returns from put only once the program took it and the
// events queued before it: the command that asked for it then finds it
// folded (the restart's queued prompts went to the old session when it
// did not).
func TestFeedHandsOverOtherMessagesBeforeReturning(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var got []tea.Msg
	put := Feed(func(msg tea.Msg) {
		<-release
		mu.Lock()
		got = append(got, Messages(msg.(LaneMsg))...)
		mu.Unlock()
	})
	put(LaneMsg{Lane: 1, Msg: seq{1, 0}}) // an event: queued, returns at once
	returned := make(chan struct{})
	go func() {
		put(LaneMsg{Lane: 1, Msg: "ready"})
		close(returned)
	}()
	select {
	case <-returned:
		t.Fatal("put of a lane's other message returned before the program took it")
	case <-time.After(50 * time.Millisecond): // a wait that can only hide the bug, never fail a correct Feed
	}
	close(release)
	select {
	case <-returned:
	case <-time.After(2 * time.Minute):
		t.Fatal("put never returned")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || got[0] != (seq{1, 0}) || got[1] != "ready" {
		t.Fatalf("program got %v, want the event then \"ready\"", got)
	}
}
