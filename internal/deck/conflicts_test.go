package deck

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/model"
)

// The list asks Overlaps again only when something it answers from
// changed: a lane's changed paths, a lane added or dropped, or a Recheck
// (the host read a checkout's git status) — not per frame, not per
// message of a lane whose paths stayed the same.
func TestOverlapsAskedOnlyWhenSomethingChanged(t *testing.T) {
	calls := 0
	shared := false // what the "git status" the host holds says
	overlaps := func(a, b Thread) []string {
		calls++
		if shared {
			return []string{"/home/dev/src/x/go.mod"}
		}
		return SamePaths(a, b)
	}
	d, panes := newFakeDeck(t, Options{Overlaps: overlaps}, "a", "b", "c")
	feed(d, keyOf(tea.KeyF4, 0))
	pairs := 3 // three lanes
	steps := []struct {
		name  string
		do    func()
		calls int // Overlaps calls the step makes
		want  string
	}{
		{"frames", func() { screen(d); screen(d); screen(d) }, 0, ""},
		{"a message that changes no path", func() {
			panes[0].set(func(s *model.State) { s.Summary.Tokens = 1200 })
			feed(d, LaneMsg{Lane: 1, Msg: "token count"})
		}, 0, ""},
		{"a changed path", func() {
			panes[0].set(func(s *model.State) { s.Summary.Changed = []string{"/home/dev/src/a/x.go"} })
			feed(d, LaneMsg{Lane: 1, Msg: "file change"})
		}, pairs, ""},
		{"the same path in another lane", func() {
			panes[1].set(func(s *model.State) { s.Summary.Changed = []string{"/home/dev/src/a/x.go"} })
			feed(d, LaneMsg{Lane: 2, Msg: "file change"})
		}, pairs, "same file: ~/src/a/x.go (also b)"},
		{"the host's git status, then a Recheck", func() {
			shared = true
			screen(d)
			feed(d, LaneMsg{Lane: 3, Msg: Recheck{}})
		}, pairs, "same file: ~/src/x/go.mod (also c)"},
		{"a lane dropped", func() { feed(d, DropLane{Lane: 3}) }, 1, ""},
	}
	for _, s := range steps {
		calls = 0
		s.do()
		screen(d)
		if calls != s.calls {
			t.Errorf("%s: Overlaps asked %d times, want %d", s.name, calls, s.calls)
		}
		if s.want != "" && !strings.Contains(screen(d), s.want) {
			t.Errorf("%s: no %q:\n%s", s.name, s.want, screen(d))
		}
	}
}
