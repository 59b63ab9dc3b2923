package deck

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"tandem/model"
)

// The first quit key in the list names the threads a quit leaves with a
// turn running or a request waiting, and asks for the key again; the
// second quits.
func TestGoldenCommandCenterQuitWarns(t *testing.T) {
	d, _, _ := fiveLanes(t, 120, 16) // "fix flaky test" waits, "bench" runs
	if _, cmd := d.Update(keyOf('c', tea.ModCtrl)); quitsIn(cmd) {
		t.Fatal("one Ctrl+C quit")
	}
	s := screen(d)
	if !strings.Contains(s, "1 thread still running, 1 waiting for you — ctrl+c again to quit tandem") {
		t.Errorf("no warning naming the busy threads:\n%s", s)
	}
	teatest.RequireEqualOutput(t, []byte(s))
	if _, cmd := d.Update(keyOf('c', tea.ModCtrl)); !quitsIn(cmd) {
		t.Error("the second Ctrl+C did not quit")
	}
}

func quitsIn(cmd tea.Cmd) bool {
	for _, m := range run(cmd) {
		if _, ok := m.(tea.QuitMsg); ok {
			return true
		}
	}
	return false
}

// The lane on screen is told how many other threads run (and wait): its
// quit key warns of them (model/status QuitNote).
func TestDeckInfoCountsTheOthersRunning(t *testing.T) {
	d, panes := newFakeDeck(t, Options{}, "a", "b", "c")
	panes[1].set(func(s *model.State) { s.Running, s.Summary.Phase = true, model.PhaseRunning })
	d.Update(LaneMsg{Lane: 2, Msg: ping(0)})
	panes[2].set(func(s *model.State) { s.Running, s.Summary.Phase = true, model.PhaseWaiting })
	d.Update(LaneMsg{Lane: 3, Msg: ping(0)})
	panes[1].set(func(s *model.State) { s.Running, s.Summary.Phase = false, model.PhaseIdle })
	d.Update(LaneMsg{Lane: 2, Msg: ping(1)})
	want := []model.DeckInfo{{Key: "f4"}, {Running: 1, Key: "f4"}, {Running: 1, Waiting: 1, Key: "f4"}, {Waiting: 1, Key: "f4"}}
	if got := received[model.DeckInfo](panes[0]); !slices.Equal(got, want) {
		t.Errorf("lane a got %v, want %v", got, want)
	}
}

// A thread that starts waiting (or running) between the first quit key
// and the second is not left unseen: the second warns again, naming it,
// and only the third quits.
func TestQuitWarnsAgainWhenMoreWait(t *testing.T) {
	d, panes := newFakeDeck(t, Options{}, "a", "b", "c")
	d.Update(keyOf(tea.KeyF4, 0))
	panes[1].set(func(s *model.State) { s.Running, s.Summary.Phase = true, model.PhaseRunning })
	d.Update(LaneMsg{Lane: 2, Msg: ping(0)})
	if _, cmd := d.Update(keyOf('c', tea.ModCtrl)); quitsIn(cmd) {
		t.Fatal("one Ctrl+C quit")
	}
	panes[2].set(func(s *model.State) { s.Running, s.Summary.Phase = true, model.PhaseWaiting })
	d.Update(LaneMsg{Lane: 3, Msg: ping(0)})
	if _, cmd := d.Update(keyOf('c', tea.ModCtrl)); quitsIn(cmd) {
		t.Fatal("the second Ctrl+C quit past a thread that started waiting after the warning")
	}
	if s := screen(d); !strings.Contains(s, "1 thread still running, 1 waiting for you — ctrl+c again to quit tandem") {
		t.Errorf("the new warning does not name the waiting thread:\n%s", s)
	}
	if _, cmd := d.Update(keyOf('c', tea.ModCtrl)); !quitsIn(cmd) {
		t.Error("the Ctrl+C after the new warning did not quit")
	}
}
