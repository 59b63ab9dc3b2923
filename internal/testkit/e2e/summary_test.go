package e2e

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model"
)

// The thread at a glance against the real app-server (State().Summary,
// what the command center lists): open and idle with its id, workspace
// and creation; running; waiting for the command's approval; idle again
// once the turn ended, with the answer's line and a turn counted.
func TestSummaryOnRealServer(t *testing.T) {
	e := NewEnv(t, approvalScript()...)
	ch := make(chan any, 1024)
	s := e.ReadySession(t, "untrusted", "workspace-write", nil, func(msg any) { ch <- msg })
	m := model.New(model.Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	// until folds the session's messages into m until cond holds of its
	// summary; it returns the request last seen.
	var req *backend.CommandApprovalRequest
	until := func(what string, cond func(model.Summary) bool) model.Summary {
		t.Helper()
		deadline := time.After(Patience)
		for {
			if sum := m.State().Summary; cond(sum) {
				return sum
			}
			select {
			case msg := <-ch:
				if r, ok := msg.(*backend.CommandApprovalRequest); ok {
					req = r
				}
				m.Update(msg) // its commands (calls, timers) are not run: the fold is what counts here
			case <-deadline:
				t.Fatalf("%s: the summary stayed %+v", what, m.State().Summary)
			}
		}
	}
	sum := until("open", func(s model.Summary) bool { return s.Phase == model.PhaseIdle })
	if sum.ThreadID != s.ThreadID() || sum.Cwd != e.Dir || sum.Created.IsZero() || time.Since(sum.Created) > time.Hour {
		t.Errorf("the open thread: %+v (thread %s in %s)", sum, s.ThreadID(), e.Dir)
	}
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	if _, err := s.StartTurn(ctx, backend.TurnInput{Text: "make the file"}); err != nil {
		t.Fatal(err)
	}
	until("running", func(s model.Summary) bool { return s.Phase == model.PhaseRunning })
	sum = until("waiting", func(s model.Summary) bool { return s.Phase == model.PhaseWaiting })
	if req == nil {
		t.Fatal("waiting, but no approval came")
	}
	if err := req.Answer(backend.Accept); err != nil {
		t.Fatal(err)
	}
	sum = until("idle after the turn", func(s model.Summary) bool { return s.Phase == model.PhaseIdle && s.Turns == 1 })
	if sum.LastLine != "All done." || sum.Failure != "" {
		t.Errorf("after the turn: %+v", sum)
	}
}
