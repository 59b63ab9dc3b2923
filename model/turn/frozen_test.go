package turn

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"tandem/backend"
	"tandem/model/act"
)

// Steers typed while an earlier one has no answer (a frozen server) go
// one at a time: the later ones are queued, never sent beside it; once
// the server says the first arrived, the next goes; if it did not, all of
// them come back to the composer in the order typed. Nothing is sent
// twice, glued or reversed (the adversarial round's steer A, B, C).
func TestSteersWaitForTheOneBefore(t *testing.T) {
	for _, there := range []bool{true, false} {
		r := ready(t, act.Role{}, Options{})
		r.tt.OnEvent(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
		r.c.turn = "turn-1"
		r.take()
		r.tt.Enter(submit("steer A"))
		call[act.Steer](t, r.take())
		r.tt.Enter(submit("steer B"))
		r.tt.Enter(submit("steer C"))
		if is := r.take(); len(calls(is)) != 0 {
			t.Fatalf("B and C were sent while A had no answer: %v", kinds(is))
		}
		r.tt.Result(act.Steered{Text: "steer A", Err: fmt.Errorf("turn/steer: %w", context.DeadlineExceeded)})
		is := r.take()
		if len(calls(is)) != 1 || len(all[act.RestoreDraft](is)) != 0 {
			t.Fatalf("A's timeout: %v", kinds(is))
		}
		call[act.ReadTurns](t, is)
		tu := userTurn("turn-1", backend.TurnInProgress, "first", "steer A")
		if !there {
			tu = userTurn("turn-1", backend.TurnInProgress, "first")
		}
		is = answer(t, r, []backend.Turn{tu})
		if there {
			if st := call[act.Steer](t, is); st.Text != "steer B" {
				t.Fatalf("after A arrived, the next steer is %q", st.Text)
			}
			r.tt.Result(act.Steered{Text: "steer B"})
			if st := call[act.Steer](t, r.take()); st.Text != "steer C" {
				t.Fatalf("after B, the next steer is %q", st.Text)
			}
			continue
		}
		back := all[act.RestoreDraft](is)
		if len(back) != 1 || back[0].Text != "steer A\nsteer B\nsteer C" || len(calls(is)) != 0 || len(r.tt.Queued()) != 0 {
			t.Fatalf("A not delivered: back %+v, calls %v, queued %q", back, kinds(is), r.tt.Queued())
		}
	}
}

// Esc while turn/start has no answer is not dropped: the interrupt goes
// as soon as the turn's id is known, and the lines queued for the turn
// come back to the composer at once.
func TestEscBeforeTheTurnHasAnID(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	r.tt.Enter(submit("slow"))
	call[act.StartTurn](t, r.take())
	r.tt.Enter(submit("L1"))
	r.take()
	r.tt.Interrupt(false)
	is := r.take()
	if len(calls(is)) != 0 {
		t.Fatalf("Esc before the turn's id called %v", kinds(is))
	}
	if back := all[act.RestoreDraft](is); len(back) != 1 || !strings.Contains(back[0].Text, "L1") || len(r.tt.Queued()) != 0 {
		t.Fatalf("the queued line: back %+v, queued %q", back, r.tt.Queued())
	}
	r.c.turn = "turn-1"
	r.tt.Result(act.TurnStarted{Text: "slow"})
	is = r.take()
	call[act.Interrupt](t, is)
	if n := len(calls(is)); n != 1 {
		t.Fatalf("the turn's start sent %d calls (%v); want the interrupt only", n, kinds(is))
	}
	// Its turn/started later sends nothing more.
	r.tt.OnEvent(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	if is := r.take(); len(calls(is)) != 0 {
		t.Fatalf("turn/started after the interrupt called %v", kinds(is))
	}
}
