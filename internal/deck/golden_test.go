package deck

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"tandem/internal/testkit/reqtest"
	"tandem/model"
)

// fiveLanes is a deck of five threads in different states, on the list:
// "fix flaky test" waits (a command approval) in a worktree, with two
// sub-agents; "docs pass" failed; "refactor status" ended two turns
// while not on screen (unread) and changed the file "fix flaky test"
// changed (a conflict); "bench" runs; "tidy imports" is idle. now is
// the deck's clock.
func fiveLanes(t *testing.T, w, h int) (*Model, []*fakePane, *time.Time) {
	t.Helper()
	now := epoch
	d, panes := newFakeDeck(t, Options{Now: func() time.Time { return now }},
		"fix flaky test", "docs pass", "refactor status", "bench", "tidy imports")
	d.Update(tea.WindowSizeMsg{Width: w, Height: h})
	rep := &reqtest.Replies{}
	view := "/home/dev/src/tandem/model/view.go"
	sums := []func(*model.State){
		func(s *model.State) {
			s.Pending = append(s.Pending, pendingReq(t, rep, "1"))
			s.Summary.Phase, s.Summary.Tokens, s.Summary.Created = model.PhaseWaiting, 15200, epoch.Add(-12*time.Minute)
			s.Summary.LastLine, s.Summary.Changed = "Run git push?", []string{view}
			s.Summary.Agents = []model.AgentSummary{{ThreadID: "ag-1", Name: "reviewer", Phase: model.PhaseRunning}, {ThreadID: "ag-2", Name: "explorer", Phase: model.PhaseIdle}}
		},
		func(s *model.State) {
			s.Summary.Phase, s.Summary.Failure, s.Summary.Tokens = model.PhaseFailed, "stream disconnected", 800
			s.Summary.Created, s.Summary.LastLine = epoch.Add(-3*time.Hour), "stream disconnected before completion"
		},
		func(s *model.State) {
			s.Summary.Turns, s.Summary.Tokens, s.Summary.Created = 2, 48000, epoch.Add(-40*time.Minute)
			s.Summary.LastLine, s.Summary.Changed = "Moved the title into status.", []string{"/home/dev/src/tandem/model/status/notify.go", view}
		},
		func(s *model.State) {
			s.Running, s.Summary.Phase, s.Summary.Tokens = true, model.PhaseRunning, 2300
			s.Summary.Created, s.Summary.LastLine = epoch.Add(-90*time.Second), "go test -bench . ./model"
		},
		func(s *model.State) { s.Summary.Created = epoch.Add(-26 * time.Hour) },
	}
	for i, f := range sums {
		panes[i].set(f)
		d.Update(LaneMsg{Lane: LaneID(i + 1), Msg: ping(0)})
	}
	d.add(Lane{ID: 1, Worktree: "/home/dev/src/tandem-wt/fix", Branch: "tandem/fix"})
	d.Update(keyOf(tea.KeyF4, 0))
	return d, panes, &now
}

func TestGoldenCommandCenter(t *testing.T) {
	d, _, _ := fiveLanes(t, 120, 16)
	teatest.RequireEqualOutput(t, []byte(screen(d)))
}

func TestGoldenCommandCenterFiltered(t *testing.T) {
	d, _, _ := fiveLanes(t, 120, 16)
	for _, k := range text("ref") {
		d.Update(k)
	}
	teatest.RequireEqualOutput(t, []byte(screen(d)))
}

func TestGoldenCommandCenterSmall(t *testing.T) {
	d, _, _ := fiveLanes(t, 20, 5)
	teatest.RequireEqualOutput(t, []byte(screen(d)))
}

// The inbox: the requests of two lanes, oldest first, each with who asks.
func TestGoldenInbox(t *testing.T) {
	d, panes, now := fiveLanes(t, 100, 12)
	*now = epoch.Add(4 * time.Minute)
	rep := &reqtest.Replies{}
	panes[3].set(func(s *model.State) { s.Pending = append(s.Pending, pendingReq(t, rep, "9")) })
	d.Update(LaneMsg{Lane: 4, Msg: ping(1)})
	*now = epoch.Add(5 * time.Minute)
	d.Update(keyOf(tea.KeyTab, 0))
	teatest.RequireEqualOutput(t, []byte(screen(d)))
}
