package deck

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/model"
)

// readHost is a fakeHost with the server's read state: unread per lane
// (what ReadState answers), the calls made; unsupported answers every
// call as an older server would.
type readHost struct {
	fakeHost
	unread      map[LaneID]bool
	unsupported bool
	reads       []string
}

func (h *readHost) ReadState(id LaneID) tea.Cmd {
	h.reads = append(h.reads, fmt.Sprintf("read %d", id))
	return func() tea.Msg {
		if h.unsupported {
			return ReadState{Lane: id, Unsupported: true}
		}
		return ReadState{Lane: id, Known: true, Unread: h.unread[id]}
	}
}

func (h *readHost) MarkRead(id LaneID) tea.Cmd {
	h.reads = append(h.reads, fmt.Sprintf("mark %d", id))
	return func() tea.Msg {
		if h.unsupported {
			return ReadState{Lane: id, Unsupported: true}
		}
		h.unread[id] = false
		return ReadState{Lane: id, Known: true}
	}
}

// resumedRow opens stored thread "old" (3 turns of history) in the
// background and returns a function giving its row.
func resumedRow(t *testing.T, d *Model, h *readHost) (*fakePane, func() string) {
	t.Helper()
	feed(d, keyOf(tea.KeyF4, 0))
	feed(d, h.Resume("old")())
	p := h.panes[len(h.panes)-1]
	p.set(func(s *model.State) {
		s.Summary.ThreadID, s.Summary.Name, s.Summary.Phase, s.Summary.Turns = "old", "resumed", model.PhaseIdle, 3
	})
	feed(d, LaneMsg{Lane: 101, Msg: ping(0)})
	return p, func() string {
		row := rowsWith(screen(d), "resumed")
		if len(row) != 1 {
			t.Fatalf("no one row of the resumed lane:\n%s", screen(d))
		}
		return row[0]
	}
}

// A thread adopted with its history takes "done · unread" from the
// server's read state (another client left it unread); shown, it is
// marked read on the server, and a turn ending while it is on screen is
// marked read again.
func TestAdoptedThreadUnreadFromTheServer(t *testing.T) {
	h := &readHost{unread: map[LaneID]bool{101: true}}
	d, _ := newFakeDeck(t, Options{Host: h}, "a")
	p, row := resumedRow(t, d, h)
	if r := row(); !strings.Contains(r, "done · unread") {
		t.Errorf("the server's unread thread is not unread: %q", r)
	}
	if got := strings.Join(h.reads, "; "); got != "read 101" {
		t.Errorf("the host was asked %q, want the adopted thread's read state", got)
	}
	h.reads = nil
	feed(d, keyOf(tea.KeyEnter, 0)) // the resumed lane is selected: shown
	feed(d, LaneMsg{Lane: 101, Msg: ping(1)})
	p.set(func(s *model.State) { s.Summary.Turns = 4 })
	feed(d, LaneMsg{Lane: 101, Msg: ping(2)})
	feed(d, LaneMsg{Lane: 101, Msg: ping(3)}) // no new turn: no new mark
	if got := strings.Join(h.reads, "; "); got != "mark 101; mark 101" {
		t.Errorf("while shown the host was asked %q, want a mark when shown and one when its turn ended", got)
	}
	feed(d, keyOf(tea.KeyF4, 0))
	if r := row(); strings.Contains(r, "unread") {
		t.Errorf("the thread shown is still unread: %q", r)
	}
	if got := strings.Join(h.reads, "; "); got != "mark 101; mark 101; mark 101" {
		t.Errorf("leaving the thread, the host was asked %q, want one more mark", got)
	}
}

// The lane the deck opens on (the run's own thread) is marked read once
// it has a turn; a lane with no turn yet is not (nothing to read).
func TestLaneOnScreenMarkedRead(t *testing.T) {
	h := &readHost{unread: map[LaneID]bool{}}
	d, panes := newFakeDeck(t, Options{Host: h}, "a", "b")
	feed(d, LaneMsg{Lane: 1, Msg: ping(0)})
	if len(h.reads) != 0 {
		t.Fatalf("a thread with no turn was marked: %q", h.reads)
	}
	panes[0].set(func(s *model.State) { s.Summary.Turns = 1 })
	feed(d, LaneMsg{Lane: 1, Msg: ping(1)})
	panes[1].set(func(s *model.State) { s.Summary.Turns = 1 }) // off screen: not marked
	feed(d, LaneMsg{Lane: 2, Msg: ping(2)})
	if got := strings.Join(h.reads, "; "); got != "mark 1" {
		t.Errorf("the host was asked %q, want only the lane on screen marked", got)
	}
}

// A server without read state (an older codex) is asked once: the deck
// keeps its own count from then on, silently.
func TestNoServerReadStateFallsBack(t *testing.T) {
	h := &readHost{unread: map[LaneID]bool{}, unsupported: true}
	d, _ := newFakeDeck(t, Options{Host: h}, "a")
	p, row := resumedRow(t, d, h)
	if r := row(); strings.Contains(r, "unread") {
		t.Errorf("the history is unread: %q", r)
	}
	p.set(func(s *model.State) { s.Summary.Turns = 4 })
	feed(d, LaneMsg{Lane: 101, Msg: ping(1)})
	if r := row(); !strings.Contains(r, "done · unread") {
		t.Errorf("a turn ended off screen is not unread: %q", r)
	}
	feed(d, keyOf(tea.KeyEnter, 0))
	feed(d, keyOf(tea.KeyF4, 0))
	if r := row(); strings.Contains(r, "unread") {
		t.Errorf("shown, it is still unread: %q", r)
	}
	if got := strings.Join(h.reads, "; "); got != "read 101" {
		t.Errorf("the host was asked %q, want one read and nothing after Unsupported", got)
	}
	if s := screen(d); strings.Contains(s, "read state") {
		t.Errorf("the fallback is not silent:\n%s", s)
	}
}
