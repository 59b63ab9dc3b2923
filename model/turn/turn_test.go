package turn

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"tandem/backend"
	"tandem/model/act"
)

// Enter on a draft starts a turn: the history and the draft first, then
// the prompt echoed and followed, the notice cleared, turn/start with
// the /model choice, and the frames; the answer says it started.
func TestEnterStartsATurn(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	r.tt.Apply(act.SetModel{Model: "gpt-big", Effort: "high"})
	r.take()
	r.tt.Enter(act.Submit{Raw: "fix it", Text: "fix it", Hist: "fix it"})
	is := r.take()
	want := []string{"AddHistory", "SetDraft", "Echo", "Follow", "ClearNotice", "call StartTurn", "StartFrames"}
	if got := kinds(is); !reflect.DeepEqual(got, want) {
		t.Fatalf("intents %v, want %v", got, want)
	}
	st := call[act.StartTurn](t, is)
	if st.Input.Text != "fix it" || st.Input.TurnOptions.Model != "gpt-big" || st.Input.TurnOptions.Effort != "high" {
		t.Errorf("turn/start %+v", st.Input)
	}
	if !r.tt.Running() || !r.tt.Busy() || r.tt.CanStart() {
		t.Fatalf("running %v busy %v can start %v while starting", r.tt.Running(), r.tt.Busy(), r.tt.CanStart())
	}
	r.tt.Result(act.TurnStarted{Text: "fix it"})
	if !r.tt.Running() || !r.tt.Own() {
		t.Fatal("the turn is not running as this viewer's own")
	}
	// A shared session draws the prompt from the thread's items.
	s := ready(t, act.SharedDriver(), Options{})
	s.tt.Enter(act.Submit{Raw: "hi", Text: "hi", Hist: "hi"})
	if is := s.take(); len(all[act.Echo](is)) != 0 || s.tt.Own() {
		t.Errorf("a shared session echoed its prompt: %v", kinds(is))
	}
}

// A turn that fails to start says why and gives its prompt back, unless
// something new was typed meanwhile.
func TestFailedStartGivesThePromptBack(t *testing.T) {
	for _, typed := range []string{"", "new text"} {
		r := ready(t, act.Role{}, Options{})
		r.tt.Enter(act.Submit{Raw: "fix it", Text: "fix it", Hist: "fix it"})
		r.take()
		r.w.draft = typed
		r.tt.Result(act.TurnStarted{Text: "fix it", Err: errors.New("boom")})
		is := r.take()
		if r.tt.Running() || !slices.Contains(banners(is), "could not start the turn: boom") {
			t.Fatalf("typed %q: running %v, banners %q", typed, r.tt.Running(), banners(is))
		}
		back := all[act.SetDraft](is)
		if (typed == "") != (len(back) == 1 && back[0].Text == "fix it") {
			t.Errorf("typed %q: the draft given back: %+v", typed, back)
		}
	}
}

// Enter when nothing can be sent keeps the draft and says why, in the
// words of the session's state.
func TestEnterSaysWhyNothingIsSent(t *testing.T) {
	restart := func(string) (RestartInfo, error) { return RestartInfo{}, nil }
	cases := []struct {
		name  string
		role  act.Role
		opts  Options
		setup func(r *rig)
		want  string
	}{
		{"dead, restartable", act.Role{}, Options{Restart: restart}, func(r *rig) { r.tt.OnFailed(errors.New("x"), "") }, "F5 or /restart; your message"},
		{"dead", act.Role{}, Options{}, func(r *rig) { r.tt.OnFailed(errors.New("x"), "") }, "not running — your message"},
		{"a replay", act.NewRole(false, true, false), Options{}, func(r *rig) { r.tt.OnReady(SessionReady{}) }, "nothing can be sent here"},
		{"opening a thread", act.Role{}, Options{}, func(r *rig) {
			r.tt.OnReady(SessionReady{Client: r.c, Resume: &ResumeRequest{ID: "t-old"}})
		}, "opening a thread"},
		{"a sub-agent shown", act.Role{}, Options{}, func(r *rig) {
			r.tt.OnReady(SessionReady{Client: r.c})
			r.w.agentShown = true
		}, "a sub-agent is shown"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, c.role, c.opts)
			c.setup(r)
			r.take()
			r.tt.Enter(act.Submit{Raw: "keep me", Text: "keep me", Hist: "keep me"})
			is := r.take()
			if len(calls(is)) != 0 || len(all[act.SetDraft](is)) != 0 {
				t.Fatalf("sent or cleared: %v", kinds(is))
			}
			if n := notice(is); !strings.Contains(n, c.want) || !strings.Contains(n, "stays here") {
				t.Errorf("notice %q, want %q … stays here", n, c.want)
			}
		})
	}
}

// Enter during a turn steers it; a steer that lost the race with the
// turn's end is sent as the next turn, any other failure gives the text
// back; a steer delivered is drawn.
func TestSteer(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	r.tt.OnEvent(backend.TurnStartedEvent{})
	r.take()
	r.tt.Enter(act.Submit{Raw: "early", Text: "early", Hist: "early"})
	if is := r.take(); len(calls(is)) != 0 || !strings.Contains(notice(is), "the turn is starting") {
		t.Fatalf("a steer before the turn's id: %v, notice %q", kinds(is), notice(is))
	}
	r.c.turn = "turn-1"
	r.tt.OnEvent(backend.TurnStartedEvent{}) // what was queued while it started steers it now
	if st := call[act.Steer](t, r.take()); st.Text != "early" {
		t.Errorf("turn/steer %+v", st)
	}
	r.tt.Result(act.Steered{Text: "early"})
	r.take()
	r.tt.Enter(act.Submit{Raw: "also this", Text: "also this", Hist: "also this"})
	is := r.take()
	if st := call[act.Steer](t, is); st.Input.Text != "also this" || st.Text != "also this" {
		t.Errorf("turn/steer %+v", st)
	}
	r.tt.Result(act.Steered{Text: "also this"})
	if e := one[act.Echo](t, r.take()); !strings.Contains(fmt.Sprint(e.Cell), "also this") {
		t.Errorf("echo %+v", e.Cell)
	}
	r.tt.Result(act.Steered{Text: "lost", Err: errors.New("turn/steer: boom")})
	if is := r.take(); one[act.RestoreDraft](t, is).Text != "lost" || !slices.Contains(banners(is), "could not steer the turn: turn/steer: boom") {
		t.Errorf("a failed steer: %v %q", kinds(is), banners(is))
	}
	// The race: the turn ended first; the message is the next turn.
	r.tt.OnEvent(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
	r.take()
	r.tt.Result(act.Steered{Text: "late", Err: &backend.RPCError{Code: backend.CodeInvalidRequest, Message: "no active turn"}})
	if st := call[act.StartTurn](t, r.take()); st.Input.Text != "late" {
		t.Errorf("the late steer went as %+v", st.Input)
	}
}

// Tab during a turn queues the draft; the queue is sent one prompt per
// turn as each ends, and the turn's end says so (the title and a
// notification) for this viewer's own turn.
func TestQueueFlushesTurnByTurn(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	r.tt.Enter(act.Submit{Raw: "first", Text: "first", Hist: "first"})
	r.tt.Result(act.TurnStarted{})
	r.take()
	for _, q := range []string{"second", "third", "  "} {
		r.tt.Apply(act.Queue{Raw: q})
	}
	if is := r.take(); !reflect.DeepEqual(r.tt.Queued(), []string{"second", "third"}) || len(all[act.SetDraft](is)) != 2 {
		t.Fatalf("queued %q (%v)", r.tt.Queued(), kinds(is))
	}
	r.now = r.now.Add(90 * time.Second)
	r.tt.OnEvent(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "t1", Status: backend.TurnCompleted}})
	is := r.take()
	if e := one[act.TurnEnded](t, is); e.Took != 90*time.Second {
		t.Errorf("the turn took %v", e.Took)
	}
	if st := call[act.StartTurn](t, is); st.Input.Text != "second" || !reflect.DeepEqual(r.tt.Queued(), []string{"third"}) {
		t.Fatalf("sent %q, left %q", st.Input.Text, r.tt.Queued())
	}
	// Enter while idle with prompts queued queues behind them.
	r.tt.Result(act.TurnStarted{})
	r.tt.OnEvent(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "t2", Status: backend.TurnCompleted}})
	r.tt.Result(act.TurnStarted{})
	r.tt.OnEvent(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "t3", Status: backend.TurnCompleted}})
	r.take()
	if len(r.tt.Queued()) != 0 || r.tt.Running() {
		t.Fatalf("queued %q running %v", r.tt.Queued(), r.tt.Running())
	}
	// Another client's turn ending notifies nothing.
	r.tt.OnEvent(backend.TurnStartedEvent{})
	r.tt.OnEvent(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "t4", Status: backend.TurnCompleted}})
	if is := r.take(); len(all[act.TurnEnded](is)) != 1 {
		t.Errorf("the followed turn's end: %v", kinds(is))
	}
}

// A turn ends as turn/completed says: interrupted or failed with a
// banner, a failure's error once (an `error` notification before says
// it already).
func TestTurnEndBanners(t *testing.T) {
	msg := "stream disconnected"
	cases := []struct {
		name    string
		errNote bool
		turn    backend.Turn
		want    []string
	}{
		{"completed", false, backend.Turn{Status: backend.TurnCompleted}, nil},
		{"interrupted", false, backend.Turn{Status: backend.TurnInterrupted}, []string{"Turn interrupted"}},
		{"failed", false, backend.Turn{Status: backend.TurnFailed, Error: &backend.TurnError{Message: msg}}, []string{"Turn failed: " + msg}},
		{"failed, said before", true, backend.Turn{Status: backend.TurnFailed, Error: &backend.TurnError{Message: msg}}, []string{msg}},
		{"failed, said before, no message", true, backend.Turn{Status: backend.TurnFailed}, []string{msg}},
	}
	for _, c := range cases {
		r := ready(t, act.Role{}, Options{})
		r.tt.OnEvent(backend.TurnStartedEvent{})
		r.take()
		if c.errNote {
			r.tt.OnEvent(backend.ErrorEvent{Error: backend.TurnError{Message: msg}})
		}
		r.tt.OnEvent(backend.TurnCompletedEvent{Turn: c.turn})
		is := r.take()
		if got := banners(is); !slices.Equal(got, c.want) {
			t.Errorf("%s: banners %q, want %q", c.name, got, c.want)
		}
		if len(all[act.ClearHeader](is)) != 1 || r.tt.Running() {
			t.Errorf("%s: %v, running %v", c.name, kinds(is), r.tt.Running())
		}
	}
}

// The thread going idle without turn/completed ends the turn after the
// grace period; a turn/completed that does arrive first makes the check
// stale.
func TestIdleWithoutTurnCompletedEndsTurn(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	idle := backend.ThreadStatusEvent{ThreadID: "t-first"}
	idle.Status.Type = "idle"
	r.tt.Enter(act.Submit{Raw: "q", Text: "q", Hist: "q"})
	r.tt.OnEvent(idle) // still starting: turn/start not answered
	if len(r.timers) != 0 {
		t.Fatal("a check was set for a turn still starting")
	}
	r.tt.Result(act.TurnStarted{})
	r.take()
	r.tt.OnEvent(idle)
	if len(r.timers) != 1 || r.timers[0].d != idleGrace || !r.tt.Running() {
		t.Fatalf("timers %v running %v", r.timers, r.tt.Running())
	}
	r.fire()
	if is := r.take(); r.tt.Running() || !slices.Contains(banners(is), "the server went idle without completing the turn; ended it") {
		t.Fatalf("running %v, banners %q", r.tt.Running(), banners(is))
	}

	r.tt.Enter(act.Submit{Raw: "again", Text: "again", Hist: "again"})
	r.tt.Result(act.TurnStarted{})
	r.tt.OnEvent(idle)
	r.tt.OnEvent(backend.TurnCompletedEvent{Turn: backend.Turn{Status: backend.TurnCompleted}})
	r.take()
	r.fire() // stale
	if is := r.take(); len(is) != 0 {
		t.Errorf("a stale idle check asked %v", kinds(is))
	}
}

// Esc interrupts; Ctrl+C with a form up refuses the requests first and
// sends the interrupt once they are written.
func TestInterrupt(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	r.tt.OnEvent(backend.TurnStartedEvent{})
	r.take()
	r.tt.Interrupt(false)
	is := r.take()
	if call[act.Interrupt](t, is).Stop || !r.tt.Interrupting() || notice(is) != "interrupting…" {
		t.Fatalf("interrupt: %v, notice %q", kinds(is), notice(is))
	}
	r.tt.Result(act.Interrupted{Err: errors.New("timeout")})
	if b := banners(r.take()); !slices.Contains(b, "interrupt failed: timeout") {
		t.Errorf("banners %q", b)
	}
	r.tt.Interrupt(true)
	is = r.take()
	if rr := one[act.RefuseRequests](t, is); rr.Then == nil || len(calls(is)) != 0 {
		t.Fatalf("refuse first: %v", kinds(is))
	}
	// Without a client there is nothing to interrupt through; the
	// requests are still refused.
	n := newRig(t, act.Role{}, Options{})
	n.tt.Interrupt(true)
	if rr := one[act.RefuseRequests](t, n.take()); rr.Then != nil {
		t.Error("an interrupt without a client")
	}
}

// The command line's prompt waits for the login check, then goes; one
// with images waits for model/list too; a model that takes no images
// gives it back to the composer.
func TestHeldPrompt(t *testing.T) {
	r := newRig(t, act.Role{}, Options{Prompt: "fix the build"})
	r.tt.OnReady(SessionReady{Client: r.c, Model: "mock-model"})
	is := r.take()
	if len(all[act.Request](is)) != 1 || !strings.Contains(notice(is), "checking the login") { // the goal, nothing else
		t.Fatalf("before the check: %v, notice %q", kinds(is), notice(is))
	}
	r.tt.Apply(act.LoginAsked{})
	if n := notice(r.take()); !strings.Contains(n, "once you log in") {
		t.Errorf("login asked: notice %q", n)
	}
	r.tt.Apply(act.LoginChecked{})
	if st := call[act.StartTurn](t, r.take()); st.Input.Text != "fix the build" {
		t.Errorf("sent %+v", st.Input)
	}

	im := newRig(t, act.Role{}, Options{Prompt: "[img] what is it"})
	im.w.images = map[string]Image{"[img]": {Local: "/tmp/a.png", Shown: "a.png"}}
	im.tt.OnReady(SessionReady{Client: im.c, Model: "mock-model"})
	call[act.ListModels](t, im.take())
	im.tt.Apply(act.LoginChecked{})
	if is := im.take(); len(all[act.Request](is)) != 0 {
		t.Fatalf("sent before model/list: %v", kinds(is))
	}
	im.tt.Result(act.ModelsListed{Models: []backend.ModelInfo{{Model: "mock-model", InputModalities: []string{"text"}}}})
	is = im.take()
	if len(all[act.Request](is)) != 0 || one[act.RestoreDraft](t, is).Text != "[img] what is it" || !strings.Contains(notice(is), "does not take images") {
		t.Fatalf("a model without images: %v, notice %q", kinds(is), notice(is))
	}
	// Quitting at the login form keeps the prompt for the history.
	q := newRig(t, act.Role{}, Options{Prompt: "later"})
	q.tt.OnReady(SessionReady{Client: q.c})
	if h := q.tt.TakeHeld(); h != "later" || q.tt.TakeHeld() != "" {
		t.Errorf("held %q", h)
	}
}

// A draft with images waits for model/list, then goes when the draft is
// still the same; its images go as the server reads them: a local path
// of a local session, a copy on a remote one.
func TestImagesWaitForTheModelList(t *testing.T) {
	for _, peer := range []string{"local", "ssh devbox"} {
		r := ready(t, act.Role{}, Options{})
		r.w.peer, r.w.cwd = peer, "/srv/w"
		r.w.images = map[string]Image{"[image 1]": {Local: "/home/me/shot.png", Shown: "shot.png"}}
		r.w.draft = "[image 1] what is it"
		r.tt.Enter(r.w.Submission())
		is := r.take()
		call[act.ListModels](t, is)
		if !strings.Contains(notice(is), "checking that mock-model takes images") || len(all[act.SetDraft](is)) != 0 {
			t.Fatalf("%s: %v, notice %q", peer, kinds(is), notice(is))
		}
		r.tt.Result(act.ModelsListed{Models: []backend.ModelInfo{{Model: "mock-model", InputModalities: []string{"text", "image"}}}})
		st := call[act.StartTurn](t, r.take())
		want := []act.Upload(nil)
		if peer != "local" { // copied under the thread's workspace there first
			want = []act.Upload{{Local: "/home/me/shot.png", Server: st.Input.Images[0]}}
			if !strings.HasPrefix(st.Input.Images[0], "/srv/w/"+backend.RemoteImageDir+"/") {
				t.Errorf("%s: sent as %q", peer, st.Input.Images[0])
			}
		} else if !reflect.DeepEqual(st.Input.Images, []string{"/home/me/shot.png"}) {
			t.Errorf("%s: sent as %q", peer, st.Input.Images)
		}
		if st.Input.Text != "what is it" || len(st.Input.Images) != 1 || !reflect.DeepEqual(st.Uploads, want) {
			t.Errorf("%s: turn/start %+v, uploads %+v", peer, st.Input, st.Uploads)
		}
		if !reflect.DeepEqual(r.w.pinned, []string{"[image 1]"}) {
			t.Errorf("%s: pinned %q", peer, r.w.pinned)
		}
	}
}
