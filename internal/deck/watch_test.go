package deck

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model"
)

// A watcher's deck (ReadOnly) calls the host for nothing: each action
// and an answer from the inbox is refused with a notice naming it, and
// the inbox lists a request the watcher only knows of (State.Watched)
// without opening it.
func TestReadOnlyDeckRefusesActionsAndAnswers(t *testing.T) {
	h := &fakeHost{}
	d, panes := newFakeDeck(t, Options{Host: h, ReadOnly: true}, "a", "b")
	panes[1].set(func(s *model.State) {
		s.Watched = []backend.RequestView{{ID: backend.RequestID("7"), Method: backend.MethodCommandApproval}}
	})
	feed(d, tea.WindowSizeMsg{Width: 100, Height: 20})
	feed(d, keyOf(tea.KeyF4, 0))
	for _, k := range []struct {
		key  tea.KeyPressMsg
		says string
	}{
		{keyOf('n', tea.ModAlt), "only a driver can start a thread"},
		{keyOf('w', tea.ModAlt), "only a driver can start a thread"},
		{keyOf('r', tea.ModAlt), "only a driver can rename a thread"},
		{keyOf('a', tea.ModAlt), "only a driver can archive a thread"},
		{keyOf('i', tea.ModAlt), "only a driver can interrupt a thread"},
		{keyOf('x', tea.ModAlt), "only a driver can stop a thread"},
		{keyOf('m', tea.ModAlt), "only a driver can merge a worktree"},
		{keyOf('d', tea.ModAlt), "only a driver can remove a worktree"},
	} {
		feed(d, k.key)
		if s := screen(d); !strings.Contains(s, k.says) || strings.Contains(s, "prompt for") {
			t.Errorf("%s: no notice %q:\n%s", k.key, k.says, s)
		}
	}
	feed(d, keyOf(tea.KeyTab, 0))
	s := screen(d)
	if !strings.Contains(s, "1 request waiting") || !strings.Contains(s, "asks about the command (a driver answers)") {
		t.Errorf("the inbox does not list the watched request:\n%s", s)
	}
	feed(d, keyOf(tea.KeyEnter, 0))
	if s := screen(d); !strings.Contains(s, "only a driver can answer a request") || strings.Contains(s, "the lane b") {
		t.Errorf("Enter in a watcher's inbox did not refuse:\n%s", s)
	}
	if len(h.calls) != 0 {
		t.Errorf("a watcher's deck called the host: %q", h.calls)
	}
}
