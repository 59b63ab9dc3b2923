package turn

import (
	"fmt"
	"strings"

	"tandem/backend"
	"tandem/model/act"
	"tandem/ui"
)

// OnEvent takes a backend event that drives the turn machine — a turn
// started or completed, an error or a warning, the thread gone idle, the
// app-server gone, the model rerouted, the goal changed, the server's
// queue changed — and reports
// whether it was one (the panes fold the others).
func (t *Turns) OnEvent(ev backend.Event) bool {
	switch e := ev.(type) {
	case backend.TurnStartedEvent:
		if t.t.starting || t.t.check != nil {
			t.confirmStart() // truth.go: the server started our turn/start
		}
		t.followTurn() // machine.go: ours is running already
		t.out().Clear(act.NoticeTurnStarting)
		if !t.interruptNow() { // Esc came before the turn's id
			t.steerQueued() // queue.go: what Enter queued while it started
		}
	case backend.TurnCompletedEvent:
		mine, d := t.t.busy(), t.now().Sub(t.t.started)
		t.endTurn(e.Turn)
		if mine { // this viewer's turn: the title and a notification
			t.out().Want(act.TurnEnded{Turn: e.Turn, Took: d})
		}
		t.flushQueue() // send the next queued prompt
		return false   // the fold too: what still streamed is cut
	case backend.ErrorEvent:
		if e.WillRetry {
			t.banner(ui.BannerWarning, e.Error.Message+" (retrying)", nil)
		} else {
			t.banner(ui.BannerError, e.Error.Message, detailLines(e.Error.AdditionalDetails))
			t.t.err = e.Error.Message
		}
	case backend.WarningEvent:
		if e.Thread() == "" && !t.rec.firstWarning(e.Text()) {
			return true // a restarted server says its server-wide warnings again
		}
		if e.Advisory() && t.opts.State != nil && !t.opts.State.Once("warning: "+e.Text()) {
			return true // about the machine (no bubblewrap): shown once per machine
		}
		t.banner(ui.BannerWarning, e.Text(), nil)
	case backend.ThreadStatusEvent:
		if e.Status.Type == "idle" {
			t.onThreadIdle()
		}
	case backend.ServerExitedEvent:
		if e.Detached && t.canReattach() {
			t.onDetached(e) // reattach.go: the agent goes on
			return true
		}
		t.onServerExited(e) // recovery.go
	case backend.ModelReroutedEvent:
		why := e.Reason
		if why == "highRiskCyberActivity" {
			why = "flagged as high-risk cyber activity"
		}
		t.banner(ui.BannerWarning, fmt.Sprintf("%s is not answering this turn: %s answers instead (%s)", e.FromModel, e.ToModel, why), nil)
		t.setStatusModel(e.ToModel)
	case backend.GoalUpdatedEvent, backend.GoalClearedEvent:
		t.onGoalEvent(e) // goal.go
	case backend.ThreadQueueChangedEvent:
		t.onServerQueueChanged(e) // serverqueue.go: queued from elsewhere
	default:
		return false
	}
	return true
}

func detailLines(s *string) []string {
	if s == nil || *s == "" {
		return nil
	}
	return strings.Split(*s, "\n")
}
