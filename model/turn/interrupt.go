package turn

import (
	"tandem/model/act"
	"tandem/ui"
)

// Interrupt sends turn/interrupt for the running turn (Esc, Ctrl+C).
// With refuseFirst the requests waiting for an answer are refused first,
// never accepted, and the interrupt is sent once they are (Ctrl+C with a
// form up mid-turn).
func (t *Turns) Interrupt(refuseFirst bool) {
	c := t.client
	if c == nil {
		if refuseFirst {
			t.out().Want(act.RefuseRequests{})
		}
		return
	}
	t.notice(act.NoticeInterrupting, "interrupting…")
	t.t.interruptSent = t.now()
	if c.TurnID() == "" && (t.t.starting || t.t.check != nil) {
		// turn/start has no answer yet: the turn is interrupted as soon
		// as its id is known (interruptNow), and the lines queued for it
		// come back now.
		t.t.interruptLater = true
		t.restoreQueue()
		if refuseFirst {
			t.out().Want(act.RefuseRequests{})
		}
		return
	}
	if refuseFirst {
		t.out().Want(act.RefuseRequests{Then: act.Run(c, act.Request{For: act.ToTurn, Do: act.Interrupt{}})})
		return
	}
	t.out().Call(act.ToTurn, act.Interrupt{})
}

func (t *Turns) onInterrupted(r act.Interrupted) {
	if r.Stop {
		t.onStopped(r.Err) // leave.go
		return
	}
	if r.Err != nil {
		t.banner(ui.BannerWarning, "interrupt failed: "+r.Err.Error(), nil)
	}
}

// interruptNow sends the interrupt Esc asked for before the turn's id was
// known (Interrupt), once it is; it reports whether it did.
func (t *Turns) interruptNow() bool {
	if !t.t.interruptLater || t.client == nil || t.client.TurnID() == "" {
		return false
	}
	t.t.interruptLater = false
	t.out().Call(act.ToTurn, act.Interrupt{})
	return true
}
