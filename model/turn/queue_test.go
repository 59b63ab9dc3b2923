package turn

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"tandem/backend"
	"tandem/model/act"
)

func submit(s string) act.Submit { return act.Submit{Raw: s, Text: s, Hist: s} }

// notes are the queued prompts' notes, as the screen shows them.
func notes(tt *Turns) []string {
	var out []string
	for _, p := range tt.Pending() {
		out = append(out, p.Note)
	}
	return out
}

// Enter before the session is ready (and while it restarts) queues the
// message visibly: the composer empties, the queue shows it with "sends
// when the session is ready"; it is sent once, in order, each its own
// turn, once the login check is done (issue 27).
func TestEnterBeforeReadyQueues(t *testing.T) {
	restart := func(string) (RestartInfo, error) { return RestartInfo{}, nil }
	for name, setup := range map[string]func(r *rig){
		"starting":   func(*rig) {},
		"restarting": func(r *rig) { r.tt.OnFailed(errors.New("x"), ""); r.tt.Restart() },
	} {
		t.Run(name, func(t *testing.T) {
			r := newRig(t, act.Role{}, Options{Restart: restart})
			setup(r)
			r.take()
			r.tt.Enter(submit("msg B"))
			r.tt.Enter(submit("msg C"))
			is := r.take()
			if len(calls(is)) != 0 || len(all[act.SetDraft](is)) != 2 || !strings.Contains(notice(is), "sends when the session is ready") {
				t.Fatalf("Enter before ready: %v, notice %q", kinds(is), notice(is))
			}
			if got := r.tt.Queued(); !reflect.DeepEqual(got, []string{"msg B", "msg C"}) {
				t.Fatalf("queued %q", got)
			}
			if n := notes(r.tt); !reflect.DeepEqual(n, []string{"sends when the session is ready", "sends when the session is ready"}) {
				t.Fatalf("notes %q", n)
			}
			r.tt.OnReady(SessionReady{Client: r.c})
			r.tt.Apply(act.LoginChecked{})
			is = r.take()
			if st := call[act.StartTurn](t, is); st.Input.Text != "msg B" {
				t.Fatalf("first turn %q", st.Input.Text)
			}
			if h := all[act.AddHistory](is); len(h) != 1 || h[0].Entry != "msg B" {
				t.Errorf("history %+v", h)
			}
			r.tt.Result(act.TurnStarted{})
			r.tt.OnEvent(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "t1", Status: backend.TurnCompleted}})
			if st := call[act.StartTurn](t, r.take()); st.Input.Text != "msg C" || len(r.tt.Queued()) != 0 {
				t.Fatalf("second turn %q, left %q", st.Input.Text, r.tt.Queued())
			}
		})
	}
}

// Two Enters while the turn is starting (turn/start sent, not answered)
// are queued, shown with "sends when the turn has started", and once it
// has started steer it one at a time, in order, never glued (issue 27).
func TestEnterWhileStartingQueuesThenSteersInOrder(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	r.tt.Enter(submit("msg A"))
	r.take()
	r.tt.Enter(submit("msg B"))
	r.tt.Enter(submit("msg C"))
	is := r.take()
	if len(calls(is)) != 0 || len(all[act.SetDraft](is)) != 2 || !strings.Contains(notice(is), "sends when the turn has started") {
		t.Fatalf("Enter while starting: %v, notice %q", kinds(is), notice(is))
	}
	if n := notes(r.tt); !reflect.DeepEqual(n, []string{"sends when the turn has started", "sends when the turn has started"}) {
		t.Fatalf("notes %q", n)
	}
	r.c.turn = "turn-1"
	r.tt.Result(act.TurnStarted{Text: "msg A"})
	if st := call[act.Steer](t, r.take()); st.Text != "msg B" {
		t.Fatalf("first steer %q", st.Text)
	}
	// A third Enter meanwhile waits behind C.
	r.tt.Enter(submit("msg D"))
	if is := r.take(); len(calls(is)) != 0 {
		t.Fatalf("D overtook C: %v", kinds(is))
	}
	r.tt.Result(act.Steered{Text: "msg B"})
	if st := call[act.Steer](t, r.take()); st.Text != "msg C" {
		t.Fatalf("second steer %q", st.Text)
	}
	r.tt.Result(act.Steered{Text: "msg C"})
	if st := call[act.Steer](t, r.take()); st.Text != "msg D" {
		t.Fatalf("third steer %q", st.Text)
	}
	r.tt.Result(act.Steered{Text: "msg D"})
	if is := r.take(); len(calls(is)) != 0 || len(r.tt.Queued()) != 0 {
		t.Fatalf("after the steers: %v, queued %q", kinds(is), r.tt.Queued())
	}
}

// A queued steer that lost the race with the turn's end goes first into
// the next turn, ahead of what was queued after it.
func TestQueuedSteerLateKeepsOrder(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	r.tt.Enter(submit("msg A"))
	r.tt.Enter(submit("msg B"))
	r.tt.Enter(submit("msg C"))
	r.c.turn = "turn-1"
	r.tt.Result(act.TurnStarted{})
	r.take()
	r.tt.OnEvent(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
	r.c.turn = ""
	is := r.take() // C is sent as the next turn
	if st := call[act.StartTurn](t, is); st.Input.Text != "msg C" {
		t.Fatalf("next turn %q", st.Input.Text)
	}
	r.tt.Result(act.Steered{Text: "msg B", Err: &backend.RPCError{Code: backend.CodeInvalidRequest, Message: "no active turn"}})
	if got := r.tt.Queued(); !reflect.DeepEqual(got, []string{"msg B"}) {
		t.Fatalf("queued %q", got)
	}
}

// Input over the server's limit is refused before anything is drawn or
// sent, and kept; the notice names the limit and the length.
func TestInputOverLimitRefused(t *testing.T) {
	big := strings.Repeat("é", backend.MaxUserInputChars+1) // characters, not bytes
	ok := strings.Repeat("é", backend.MaxUserInputChars)
	r := ready(t, act.Role{}, Options{})
	r.tt.Enter(act.Submit{Raw: "[Pasted #1]", Text: big, Hist: "[Pasted #1]"})
	is := r.take()
	if len(calls(is)) != 0 || len(all[act.Echo](is)) != 0 || len(all[act.SetDraft](is)) != 0 {
		t.Fatalf("over the limit: %v", kinds(is))
	}
	if n := notice(is); !strings.Contains(n, "1,048,577 characters") || !strings.Contains(n, "1,048,576") {
		t.Fatalf("notice %q", n)
	}
	// Tab while a turn runs refuses it the same way.
	r.tt.Enter(submit(ok))
	r.take()
	r.tt.Apply(act.Queue{Raw: big})
	if is := r.take(); len(r.tt.Queued()) != 0 || !strings.Contains(notice(is), "1,048,576") {
		t.Fatalf("queued over the limit: %v", kinds(is))
	}
}

// Esc (an interrupt this viewer sent) puts the queued prompts back in the
// composer, one a line, and says so, rather than starting the next turn
// at once (as Codex's TUI does).
func TestInterruptPutsQueueBack(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	r.tt.Enter(submit("first"))
	r.c.turn = "turn-1"
	r.tt.Result(act.TurnStarted{})
	r.tt.Apply(act.Queue{Raw: "second"})
	r.tt.Apply(act.Queue{Raw: "third"})
	r.tt.Interrupt(false)
	r.take()
	r.tt.OnEvent(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnInterrupted}})
	is := r.take()
	if len(all[act.StartTurn](is)) != 0 || len(calls(is)) != 0 {
		t.Fatalf("the interrupt started a turn: %v", kinds(is))
	}
	if back := one[act.RestoreDraft](t, is); back.Text != "second\nthird" || len(r.tt.Queued()) != 0 {
		t.Fatalf("given back %q, queued %q", back.Text, r.tt.Queued())
	}
	if n := notice(is); !strings.Contains(n, "back in the composer") {
		t.Errorf("notice %q", n)
	}
}

// The command line's prompt is in the history (↑, Ctrl+R) as a typed one.
func TestCommandLinePromptInHistory(t *testing.T) {
	r := newRig(t, act.Role{}, Options{Prompt: "from the command line"})
	r.tt.OnReady(SessionReady{Client: r.c})
	r.tt.Apply(act.LoginChecked{})
	is := r.take()
	if h := all[act.AddHistory](is); len(h) != 1 || h[0].Entry != "from the command line" {
		t.Fatalf("history %+v", h)
	}
	if st := call[act.StartTurn](t, is); st.Input.Text != "from the command line" {
		t.Fatalf("turn %q", st.Input.Text)
	}
}

// A queued line that reads as a slash command is handed to the commands
// when its turn comes (act.RunQueued), then the queue goes on.
func TestQueuedCommandRunsAsCommand(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	r.tt.Enter(submit("first"))
	r.c.turn = "turn-1"
	r.tt.Result(act.TurnStarted{})
	r.tt.Apply(act.Queue{Raw: "/status"})
	r.tt.Apply(act.Queue{Raw: "/usr/bin is a path"})
	if n := notes(r.tt); !reflect.DeepEqual(n, []string{"runs as a command when its turn comes", ""}) {
		t.Fatalf("notes %q", n)
	}
	r.take()
	r.tt.OnEvent(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
	is := r.take()
	if len(calls(is)) != 0 || one[act.RunQueued](t, is).Raw != "/status" || len(all[act.FlushQueue](is)) != 1 {
		t.Fatalf("queued /status: %v", kinds(is))
	}
	r.tt.Apply(act.FlushQueue{})
	if st := call[act.StartTurn](t, r.take()); st.Input.Text != "/usr/bin is a path" {
		t.Fatalf("next turn %q", st.Input.Text)
	}
}

// /goal TEXT refused by the server gives the objective back to the
// composer, with a notice; a failed read gives nothing back.
func TestFailedGoalSetComesBack(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	r.tt.Result(act.GoalChanged{Action: act.GoalSet, Objective: "ship it", Err: errors.New("thread/goal/set: boom")})
	is := r.take()
	if back := one[act.RestoreDraft](t, is); back.Text != "/goal ship it" || !strings.Contains(notice(is), "back in the composer") {
		t.Fatalf("given back %q, notice %q", back.Text, notice(is))
	}
	r.tt.Result(act.GoalChanged{Action: act.GoalShow, Err: errors.New("thread/goal/get: boom")})
	if is := r.take(); len(all[act.RestoreDraft](is)) != 0 {
		t.Fatalf("a failed read gave back %v", kinds(is))
	}
}
