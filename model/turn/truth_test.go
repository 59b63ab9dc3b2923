package turn

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"tandem/backend"
	"tandem/model/act"
	"tandem/thread"
)

// userTurn is a turn of the thread whose first item is the user's text.
func userTurn(id, status string, texts ...string) backend.Turn {
	tu := backend.Turn{ID: id, Status: status}
	for _, s := range texts {
		tu.Items = append(tu.Items, backend.Item{Type: "userMessage", Content: []backend.UserContent{{Type: "text", Text: s}}})
	}
	return tu
}

// answer hands the check's read its answer, turns; a "no" is asked again
// once after checkRetry, and answered alike. It returns what the last
// answer asked for.
func answer(t *testing.T, r *rig, turns []backend.Turn) []act.Intent {
	t.Helper()
	r.tt.Result(act.TurnsRead{Thread: "t-first", Turns: turns})
	is := r.take()
	if !r.tt.Checking() {
		return is
	}
	if len(r.timers) == 0 || r.timers[len(r.timers)-1].d != checkRetry || len(all[act.SetDraft](is))+len(all[act.RestoreDraft](is)) != 0 {
		t.Fatalf("a first no: %v, timers %+v", kinds(is), r.timers)
	}
	r.fire()
	call[act.ReadTurns](t, r.take())
	r.tt.Result(act.TurnsRead{Thread: "t-first", Turns: turns})
	return r.take()
}

// noAnswer is a call that gave up waiting: the server may have carried
// it out.
var noAnswer = fmt.Errorf("turn/start: %w", context.DeadlineExceeded)

// startUnanswered sends "fix it" as a turn after turn-1 and has its
// turn/start time out; it returns what that asked for.
func startUnanswered(t *testing.T, r *rig) []act.Intent {
	t.Helper()
	r.w.lastTurn = "turn-1"
	r.tt.Enter(act.Submit{Raw: "fix it", Text: "fix it", Hist: "fix it"})
	r.take()
	r.tt.Result(act.TurnStarted{Text: "fix it", Err: noAnswer})
	return r.take()
}

// A turn/start that got no answer is neither called failed nor given
// back: the thread's turns are read, and only a thread without the turn
// gives the prompt back; a turn the server has is followed (running, or
// ended as it did); a server that does not say is asked again on the
// clock, never told failed.
func TestUnansweredStartAsksTheServer(t *testing.T) {
	cases := []struct {
		name    string
		turns   []backend.Turn
		running bool   // the turn shows as running after
		back    bool   // the prompt comes back
		banner  string // a banner begins so ("" none)
	}{
		{"the server started it", []backend.Turn{userTurn("turn-1", backend.TurnCompleted, "earlier"), userTurn("turn-2", backend.TurnInProgress, "fix it")}, true, false, ""},
		{"just started, no item written yet", []backend.Turn{userTurn("turn-1", backend.TurnCompleted, "earlier"), {ID: "turn-2", Status: backend.TurnInProgress}}, true, false, ""},
		{"it ran and ended", []backend.Turn{userTurn("turn-1", backend.TurnCompleted, "earlier"), userTurn("turn-2", backend.TurnInterrupted, "fix it")}, false, false, "Turn interrupted"},
		{"no such turn", []backend.Turn{userTurn("turn-1", backend.TurnCompleted, "earlier")}, false, true, "could not start the turn: codex did not answer turn/start, and the thread has no such turn"},
		{"the same words before turn-1 are not it", []backend.Turn{userTurn("turn-0", backend.TurnCompleted, "fix it"), userTurn("turn-1", backend.TurnCompleted, "earlier")}, false, true, "could not start the turn"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := ready(t, act.Role{}, Options{})
			is := startUnanswered(t, r)
			if len(all[act.SetDraft](is)) != 0 || len(banners(is)) != 0 {
				t.Fatalf("a turn/start with no answer was called failed: banners %q, %v", banners(is), kinds(is))
			}
			if rd := call[act.ReadTurns](t, is); rd.Thread != "t-first" {
				t.Fatalf("read thread %q", rd.Thread)
			}
			if !r.tt.Running() || !r.tt.Checking() || !strings.Contains(notice(is), "asking it whether the turn started") {
				t.Fatalf("while asking: running %v checking %v notice %q", r.tt.Running(), r.tt.Checking(), notice(is))
			}
			// Enter meanwhile sends nothing: the turn may be running. The
			// line is queued behind the prompt.
			r.tt.Enter(act.Submit{Raw: "again", Text: "again", Hist: "again"})
			if got := calls(r.take()); len(got) != 0 {
				t.Fatalf("Enter while asking called %v", got)
			}
			is = answer(t, r, tc.turns)
			// Not started: the prompt comes back with the line queued
			// behind it, in the order typed; nothing is sent.
			back := all[act.RestoreDraft](is)
			if tc.back != (len(back) == 1 && back[0].Text == "fix it\nagain") {
				t.Errorf("the prompt given back: %+v; want %v", back, tc.back)
			}
			sent := func(is []act.Intent) int {
				n := 0
				for _, c := range calls(is) {
					switch c.(type) {
					case act.Steer, act.StartTurn:
						n++
					}
				}
				return n
			}
			if tc.back && sent(is) != 0 {
				t.Errorf("the queued line was sent though the prompt ahead of it came back: %v", kinds(is))
			}
			// Started: the queued line goes once: it steers the running
			// turn when its turn/started names it, or starts the next
			// turn after one that ended.
			if !tc.back {
				n := sent(is)
				if tc.running {
					r.c.turn = "turn-2"
					r.tt.OnEvent(backend.TurnStartedEvent{})
					n += sent(r.take())
				}
				if n != 1 {
					t.Errorf("the queued line was sent %d times", n)
				}
			}
			if r.tt.Running() != (tc.running || !tc.back) || r.tt.Checking() {
				t.Errorf("running %v checking %v; want running %v", r.tt.Running(), r.tt.Checking(), tc.running || !tc.back)
			}
			bs := banners(is)
			if tc.banner == "" && len(bs) > 0 || tc.banner != "" && !slices.ContainsFunc(bs, func(s string) bool { return strings.HasPrefix(s, tc.banner) }) {
				t.Errorf("banners %q; want %q", bs, tc.banner)
			}
			if tc.name == "it ran and ended" {
				if m := one[act.MergeHistory](t, is); len(m.Turns) != 1 || m.Turns[0].ID != "turn-2" || m.Dropped != "turn-2" {
					t.Errorf("merged %+v", m)
				}
			}
		})
	}
}

// A server that does not say (the read fails) is asked again when the
// clock says, and its turn/started settles it without any read.
func TestUnansweredStartWaitsForTheServer(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	startUnanswered(t, r)
	r.tt.Result(act.TurnsRead{Thread: "t-first", Err: fmt.Errorf("thread/read: %w", context.DeadlineExceeded)})
	is := r.take()
	if len(banners(is)) != 0 || len(all[act.SetDraft](is)) != 0 || !r.tt.Checking() {
		t.Fatalf("a read with no answer: banners %q, %v, checking %v", banners(is), kinds(is), r.tt.Checking())
	}
	if len(r.timers) != 1 || r.timers[0].d != checkRetry {
		t.Fatalf("timers %+v; want one of %v", r.timers, checkRetry)
	}
	r.fire()
	call[act.ReadTurns](t, r.take())
	// The turn's turn/started comes: it runs, the check is over and its
	// late read changes nothing.
	r.tt.OnEvent(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-2"}})
	if is := r.take(); !r.tt.Running() || r.tt.Checking() || len(banners(is)) != 0 {
		t.Fatalf("turn/started: running %v checking %v banners %q", r.tt.Running(), r.tt.Checking(), banners(is))
	}
	r.tt.Result(act.TurnsRead{Thread: "t-first", Turns: []backend.Turn{userTurn("turn-1", backend.TurnCompleted, "earlier")}})
	if is := r.take(); len(all[act.SetDraft](is)) != 0 || len(banners(is)) != 0 || !r.tt.Running() {
		t.Errorf("a late read after turn/started: %v", kinds(is))
	}
}

// A thread whose turns cannot be listed (a fresh thread: -32601 until
// its first turn is written) is asked again; refused twice, with no
// turn/started meanwhile, the turn did not start.
func TestRefusedReadsMeanNoTurn(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	startUnanswered(t, r)
	refused := fmt.Errorf("thread/read: %w", &backend.RPCError{Code: -32601, Message: "list_turns is not supported yet"})
	r.tt.Result(act.TurnsRead{Thread: "t-first", Err: refused})
	if is := r.take(); len(all[act.SetDraft](is)) != 0 || !r.tt.Checking() {
		t.Fatalf("one refusal: %v", kinds(is))
	}
	r.fire()
	call[act.ReadTurns](t, r.take())
	r.tt.Result(act.TurnsRead{Thread: "t-first", Err: refused})
	if is := r.take(); len(all[act.SetDraft](is)) != 1 || r.tt.Checking() || r.tt.Running() {
		t.Errorf("two refusals: %v, checking %v", kinds(is), r.tt.Checking())
	}
}

// turn/started before turn/start's timeout: the error is no failure and
// nothing is asked. An error the server answered with is a failure at
// once.
func TestStartErrorsThatNeedNoCheck(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	r.tt.Enter(act.Submit{Raw: "fix it", Text: "fix it", Hist: "fix it"})
	r.tt.OnEvent(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-2"}})
	r.take()
	r.tt.Result(act.TurnStarted{Text: "fix it", Err: noAnswer})
	if is := r.take(); len(calls(is)) != 0 || len(banners(is)) != 0 || !r.tt.Running() || r.tt.Checking() {
		t.Errorf("a timeout after turn/started: %v, running %v", kinds(is), r.tt.Running())
	}

	r = ready(t, act.Role{}, Options{})
	r.tt.Enter(act.Submit{Raw: "fix it", Text: "fix it", Hist: "fix it"})
	r.take()
	r.tt.Result(act.TurnStarted{Text: "fix it", Err: fmt.Errorf("turn/start: %w", &backend.RPCError{Code: -32600, Message: "thread not found"})})
	is := r.take()
	if len(all[act.Request](is)) != 0 || r.tt.Running() || len(all[act.SetDraft](is)) != 1 {
		t.Errorf("a refused turn/start: %v, running %v", kinds(is), r.tt.Running())
	}
}

// The server dies while it owes turn/start's answer: nothing is given
// back until the restarted server is asked, which finds no such turn.
func TestUnansweredStartAskedAfterRestart(t *testing.T) {
	r := ready(t, act.Role{}, Options{Restart: func(string) (RestartInfo, error) { return RestartInfo{ThreadID: "t-first"}, nil }})
	r.w.lastTurn = "turn-1"
	r.tt.Enter(act.Submit{Raw: "fix it", Text: "fix it", Hist: "fix it"})
	r.take()
	r.tt.OnEvent(backend.ServerExitedEvent{Status: "killed by signal 9"})
	r.tt.Result(act.TurnStarted{Text: "fix it", Err: fmt.Errorf("turn/start: %w", backend.ErrClosed)})
	is := r.take()
	if len(all[act.SetDraft](is)) != 0 || len(all[act.Request](is)) != 0 || !r.tt.Checking() {
		t.Fatalf("a dead server's turn/start: %v, checking %v", kinds(is), r.tt.Checking())
	}
	r.tt.F5()
	msg := restartCmd(t, r, r.take())()
	r.tt.OnReady(SessionReady{Client: r.c, ThreadID: "t-first"})
	call[act.ReadTurns](t, r.take())
	r.tt.Update(msg.(Msg))
	r.take()
	is = answer(t, r, []backend.Turn{userTurn("turn-1", backend.TurnCompleted, "earlier")})
	if back := all[act.SetDraft](is); len(back) != 1 || back[0].Text != "fix it" || r.tt.Checking() || r.tt.Busy() {
		t.Errorf("after the restart: %v, checking %v", kinds(is), r.tt.Checking())
	}
}

// A steer that got no answer is checked in the turn: there, it is drawn
// as sent; not there, its text comes back.
func TestUnansweredSteerAsksTheServer(t *testing.T) {
	for _, there := range []bool{true, false} {
		r := ready(t, act.Role{}, Options{})
		r.tt.OnEvent(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
		r.c.turn = "turn-1"
		r.take()
		r.tt.Enter(act.Submit{Raw: "also this", Text: "also this", Hist: "also this"})
		call[act.Steer](t, r.take())
		r.tt.Result(act.Steered{Text: "also this", Err: fmt.Errorf("turn/steer: %w", context.DeadlineExceeded)})
		is := r.take()
		if len(all[act.RestoreDraft](is)) != 0 || len(banners(is)) != 0 {
			t.Fatalf("a steer with no answer was called failed: %v", kinds(is))
		}
		call[act.ReadTurns](t, is)
		tu := userTurn("turn-1", backend.TurnInProgress, "first", "also this")
		if !there {
			tu = userTurn("turn-1", backend.TurnInProgress, "also this") // its prompt, not the steer
		}
		is = answer(t, r, []backend.Turn{tu})
		if there != (len(all[act.Echo](is)) == 1) || there == (len(all[act.RestoreDraft](is)) == 1) {
			t.Errorf("there %v: %v", there, kinds(is))
		}
	}
}

// The status line names a server that has owed an answer and said
// nothing for UnresponsiveAfter, measured on the clock at each frame;
// F5 then restarts it, and on a server that answers says why not.
func TestSilentServerIsNamedAndF5RestartsIt(t *testing.T) {
	var restarts int
	r := ready(t, act.Role{}, Options{UnresponsiveAfter: 30 * time.Second, Restart: func(string) (RestartInfo, error) {
		restarts++
		return RestartInfo{}, nil
	}})
	r.tt.Enter(act.Submit{Raw: "fix it", Text: "fix it", Hist: "fix it"})
	r.take()
	r.c.since = r.now
	for _, step := range []struct {
		after time.Duration
		want  string
	}{{10 * time.Second, ""}, {29 * time.Second, ""}, {42 * time.Second, "codex has not answered for 42 s — F5 kills and restarts it"}} {
		r.now = r.c.since.Add(step.after)
		r.tt.CheckTimeout()
		if got := r.tt.SilenceNotice(); got != step.want {
			t.Errorf("after %v: %q; want %q", step.after, got, step.want)
		}
	}
	// It speaks: nothing is owed.
	r.c.since = time.Time{}
	r.tt.CheckTimeout()
	if got := r.tt.SilenceNotice(); got != "" {
		t.Errorf("once it answers: %q", got)
	}
	r.tt.F5()
	if is := r.take(); len(all[act.RefuseRequests](is)) != 0 || !strings.Contains(notice(is), "codex app-server is answering") {
		t.Fatalf("F5 on a server that answers: %v, notice %q", kinds(is), notice(is))
	}
	r.c.since = r.now.Add(-time.Minute)
	r.tt.F5()
	is := r.take()
	restartCmd(t, r, is)()
	if restarts != 1 || !strings.Contains(notice(is), "codex had not answered for 60 s — killing it and restarting") {
		t.Errorf("F5 on a silent server: %d restarts, notice %q", restarts, notice(is))
	}
	if r.tt.Running() {
		t.Error("the killed server's turn still runs")
	}
	if e := one[act.EndOpen](t, is); e.Status != thread.StatusInterrupted || !e.All {
		t.Errorf("open cells ended %+v", e)
	}
}

// The server's death ends every open cell as unknown; a turn that ends
// ends its own open cells, interrupted when it was.
func TestOpenCellsEnd(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	r.tt.OnEvent(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	r.take()
	r.tt.OnEvent(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnInterrupted}})
	if e := one[act.EndOpen](t, r.take()); e != (act.EndOpen{Turn: "turn-1", Status: thread.StatusInterrupted}) {
		t.Errorf("an interrupted turn ended its cells %+v", e)
	}
	r.tt.OnEvent(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-2"}})
	r.take()
	r.tt.OnEvent(backend.ServerExitedEvent{Status: "killed by signal 9"})
	if e := one[act.EndOpen](t, r.take()); e != (act.EndOpen{Status: thread.StatusUnknown, All: true}) {
		t.Errorf("a dead server ended its cells %+v", e)
	}
}

// The server dies before a fresh thread's first turn/start is answered;
// its restart finds no rollout of the thread and starts a new one. The
// restart says so, and the check of the turn/start (asked of the old
// thread, which the new server refuses) ends: the prompt comes back.
func TestRestartWithANewThreadEndsTheCheck(t *testing.T) {
	r := ready(t, act.Role{}, Options{Restart: func(string) (RestartInfo, error) {
		return RestartInfo{ThreadID: "t-new", NewThread: true}, nil
	}})
	r.tt.Enter(act.Submit{Raw: "fix it", Text: "fix it", Hist: "fix it"})
	r.take()
	r.tt.OnEvent(backend.ServerExitedEvent{Status: "killed by signal 9"})
	r.tt.Result(act.TurnStarted{Text: "fix it", Err: fmt.Errorf("turn/start: %w", backend.ErrClosed)})
	r.take()
	if !r.tt.Checking() {
		t.Fatal("a dead server's turn/start is not checked")
	}
	r.tt.F5()
	msg := restartCmd(t, r, r.take())()
	r.c.thread = "t-new"
	r.tt.OnReady(SessionReady{Client: r.c, ThreadID: "t-new"})
	call[act.ReadTurns](t, r.take())
	r.tt.Update(msg.(Msg))
	is := r.take()
	if b := strings.Join(banners(is), "|"); !strings.Contains(b, "the thread had no turn yet — a new thread was started") || strings.Contains(b, "resumed thread") {
		t.Errorf("the restart's banner: %q", b)
	}
	refused := &backend.RPCError{Code: backend.CodeInvalidRequest, Message: "no rollout found for thread id t-first"}
	for i := 0; i < checkRefusals && r.tt.Checking(); i++ {
		r.tt.Result(act.TurnsRead{Thread: "t-first", Err: fmt.Errorf("thread/read: %w", refused)})
		is = r.take()
		if r.tt.Checking() {
			r.fire()
			call[act.ReadTurns](t, r.take())
		}
	}
	if back := all[act.SetDraft](is); len(back) != 1 || back[0].Text != "fix it" || r.tt.Checking() || r.tt.Busy() {
		t.Errorf("after the restart: %v, checking %v, busy %v", kinds(is), r.tt.Checking(), r.tt.Busy())
	}
}
