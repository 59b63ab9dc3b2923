package turn

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"tandem/backend"
	"tandem/model/act"
	"tandem/sessions"
)

// A thread opened replaces the pane (the old thread's last cells first),
// draws its history after any notice, keeps the /model and /approvals
// choices on the status line, says how it opened, remembers it, and asks
// for its goal and skills; a resumed one reads its earlier sub-agents
// and turns too.
func TestThreadSwitched(t *testing.T) {
	dir := t.TempDir()
	state := sessions.Open(dir)
	r := ready(t, act.Role{}, Options{State: state, Workspace: "/w"})
	r.tt.Apply(act.SetPolicy{Approval: "never", Sandbox: "read-only"})
	r.tt.OnEvent(backend.TurnStartedEvent{})
	r.take()
	name := "Big job"
	resp := backend.ThreadResponse{Thread: backend.Thread{ID: "019a0000-1111-2222-3333-444455556666", Name: &name, Turns: []backend.Turn{{ID: "t1"}}},
		Model: "gpt-x", Cwd: "/srv/w", Older: "cursor-1"}
	r.tt.Result(act.ThreadSwitched{Response: resp, How: act.HowResumed, Notice: "why"})
	is := r.take()
	want := []string{"ClearNotice", "DropRewind", "SwitchPane", "BeginOlder", "Settings", "Banner", "LoadHistory", "Opened", "Banner",
		"Settings", "FetchSkills", "call ReadGoal", "ReadEarlier"}
	if got := kinds(is); !reflect.DeepEqual(got, want) {
		t.Fatalf("intents %v\nwant %v", got, want)
	}
	if sp := one[act.SwitchPane](t, is); !sp.Running || sp.Cwd != "/srv/w" || sp.Thread.ID != resp.Thread.ID {
		t.Errorf("switch %+v", sp)
	}
	set := all[act.Settings](is)[0]
	if *set.Model != "gpt-x" || *set.Approval != "never" || *set.Sandbox != "read-only" || *set.Cwd != "/srv/w" {
		t.Errorf("settings %+v", set)
	}
	if b := banners(is); !slices.Equal(b, []string{"why", "Resumed thread 019a0000…6666 “Big job”"}) {
		t.Errorf("banners %q", b)
	}
	if r.tt.Running() || r.tt.Switching() || state.LastThread("/w") != resp.Thread.ID {
		t.Errorf("running %v switching %v remembered %q", r.tt.Running(), r.tt.Switching(), state.LastThread("/w"))
	}
	// A thread that did not open forgets the peek and says why.
	r.tt.Result(act.ThreadSwitched{Err: errors.New("thread/fork: boom"), How: act.HowForked})
	is = r.take()
	one[act.ForgetPeek](t, is)
	if b := banners(is); !slices.Equal(b, []string{"could not open a thread: thread/fork: boom"}) || len(all[act.SwitchPane](is)) != 0 {
		t.Errorf("a failed switch: %v %q", kinds(is), b)
	}
	// A rewind's fork keeps the rewind and says the rewind's note.
	r.tt.Apply(act.Switching{On: true})
	if !r.tt.Switching() || r.tt.CanStart() {
		t.Fatal("a rewind under way lets turns start")
	}
	r.tt.Apply(act.OpenThread{Response: resp, How: act.HowRewound, Note: "Rewound to “x”"})
	is = r.take()
	if len(all[act.DropRewind](is)) != 0 || !slices.Contains(banners(is), "Rewound to “x”") || r.tt.Switching() {
		t.Errorf("a rewind: %v %q", kinds(is), banners(is))
	}
}

// /new, /fork and /archive open threads; turns wait meanwhile.
func TestThreadCommands(t *testing.T) {
	for _, c := range []struct {
		in   act.Intent
		want act.Action
	}{
		{act.NewThread{}, act.StartThread{}},
		{act.Fork{}, act.ForkThread{ID: "t-first"}},
		{act.Archive{}, act.ArchiveThread{ID: "t-first"}},
	} {
		r := ready(t, act.Role{}, Options{})
		r.tt.Apply(c.in)
		if got := calls(r.take()); !reflect.DeepEqual(got, []act.Action{c.want}) || !r.tt.Switching() {
			t.Errorf("%T: calls %v, switching %v", c.in, got, r.tt.Switching())
		}
	}
	// The resume picker closed: without a thread open it starts one.
	r := ready(t, act.Role{}, Options{})
	r.tt.Apply(act.ResumeCancelled{Fresh: true})
	if got := calls(r.take()); !reflect.DeepEqual(got, []act.Action{act.StartThread{}}) {
		t.Errorf("fresh cancel: %v", got)
	}
	r.tt.Apply(act.ResumeCancelled{})
	if is := r.take(); r.tt.Switching() || len(calls(is)) != 0 {
		t.Errorf("cancel: switching %v %v", r.tt.Switching(), kinds(is))
	}
}

// The command line's resume: a thread by id is drawn from its newest
// page while it resumes (nothing on screen yet), its rollout is scanned
// for tool calls without output (a fork or a new thread is offered
// then), and it is resumed; --last finds the workspace's last thread;
// neither opens the picker.
func TestResumeRequest(t *testing.T) {
	dir := t.TempDir()
	rollout := filepath.Join(dir, "rollout.jsonl")
	if err := os.WriteFile(rollout, []byte(`{"type":"response_item","payload":{"type":"function_call","name":"shell","call_id":"c1","arguments":"{}"}}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := newRig(t, act.Role{}, Options{})
	r.tt.OnReady(SessionReady{Client: r.c, Resume: &ResumeRequest{ID: "t-old"}})
	r.c.thread = "" // `tandem resume` opens no thread first: a failed resume starts one
	is := r.take()
	if !r.tt.Switching() || !strings.Contains(notice(is), "loading thread t-old") {
		t.Fatalf("switching %v notice %q", r.tt.Switching(), notice(is))
	}
	if got := calls(is); !reflect.DeepEqual(got, []act.Action{act.PeekTurns{ID: "t-old"}, act.ReadThreadInfo{Thread: backend.Thread{ID: "t-old"}}, act.ReadGoal{Thread: "t-first"}}) {
		t.Fatalf("calls %v", got)
	}
	idle := backend.ThreadStatus{Type: "notLoaded"}
	r.tt.Result(act.ThreadInfo{Thread: backend.Thread{ID: "t-old", Path: &rollout, Status: &idle}})
	if len(r.cmds()) != 1 {
		t.Fatalf("no scan: %d commands", len(r.cmds()))
	}
	r.tt.Update(r.cmds()[0]().(Msg))
	is = r.take()
	p := one[act.Pick](t, is)
	if !strings.Contains(banners(is)[0], "1 tool call(s) that never got an output") || len(p.Items) != 3 || p.Cancel != (act.Unfinished{Thread: "t-old", Do: "new"}) {
		t.Fatalf("the check: %q %+v", banners(is), p)
	}
	r.tt.Apply(p.Items[0].Choose) // fork it
	if got := calls(r.take()); !reflect.DeepEqual(got, []act.Action{act.ForkThread{ID: "t-old"}}) {
		t.Errorf("fork: %v", got)
	}
	r.tt.Apply(p.Items[2].Choose) // resume anyway
	if got := calls(r.take()); !reflect.DeepEqual(got, []act.Action{act.Resume{ID: "t-old"}}) {
		t.Errorf("resume anyway: %v", got)
	}

	// A thread running on the server is resumed at once; --no-alt-screen
	// reads its history first and draws nothing before.
	in := newRig(t, act.Role{}, Options{})
	in.w.inline = true
	active := backend.ThreadStatus{Type: "active"}
	in.tt.OnReady(SessionReady{Client: in.c})
	in.take()
	in.tt.Apply(act.ResumeThread{Thread: backend.Thread{ID: "t-run", Path: &rollout, Status: &active}})
	if got := calls(in.take()); !reflect.DeepEqual(got, []act.Action{act.Resume{ID: "t-run", Fill: InlineHistory, Stay: true}}) { // a thread open stays when it fails
		t.Errorf("an active thread inline: %v", got)
	}

	// --last: the state file's thread, found by the server.
	state := sessions.Open(dir)
	if err := state.SetLastThread("/w", "t-last"); err != nil {
		t.Fatal(err)
	}
	l := newRig(t, act.Role{}, Options{State: state, Workspace: "/w"})
	l.w.notEmpty = true
	l.tt.OnReady(SessionReady{Client: l.c, Resume: &ResumeRequest{Last: true}})
	l.c.thread = ""
	read := l.cmds()
	l.take()
	if len(read) != 1 {
		t.Fatalf("--last: %d commands", len(read))
	}
	l.tt.Update(read[0]().(Msg)) // the state file, read in a command
	if got := calls(l.take()); !reflect.DeepEqual(got, []act.Action{act.FindLastThread{ID: "t-last", Cwd: "/w"}}) {
		t.Fatalf("--last: %v", got)
	}
	clean := filepath.Join(dir, "clean.jsonl")
	if err := os.WriteFile(clean, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	l.tt.Result(act.LastThread{Thread: backend.Thread{ID: "t-last", Path: &clean, Status: &idle}})
	scan := l.cmds()
	if is := l.take(); len(calls(is)) != 0 || len(scan) != 1 { // something on screen: no peek
		t.Fatalf("--last found: %v, %d commands", kinds(is), len(scan))
	}
	l.tt.Update(scan[0]().(Msg))
	if got := calls(l.take()); !reflect.DeepEqual(got, []act.Action{act.Resume{ID: "t-last"}}) {
		t.Errorf("--last scanned: %v", got)
	}

	// Neither: the picker, Esc in it starting a new thread.
	pk := newRig(t, act.Role{}, Options{})
	pk.tt.OnReady(SessionReady{Client: pk.c, Durable: true, Resume: &ResumeRequest{}})
	if p := one[act.PickThread](t, pk.take()); !p.Fresh || !p.Durable {
		t.Errorf("picker %+v", p)
	}
}

// /goal: its call, the banner it leaves, and the status line's goal;
// the goal's events keep it current, a goal that stops being active
// says so once.
func TestGoal(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	r.tt.Apply(act.Goal{Action: act.GoalSet, Objective: "ship it"})
	if got := calls(r.take()); !reflect.DeepEqual(got, []act.Action{act.ChangeGoal{Action: act.GoalSet, Objective: "ship it"}}) {
		t.Fatalf("calls %v", got)
	}
	g := backend.ThreadGoal{Objective: "ship it", Status: backend.GoalActive}
	r.tt.Result(act.GoalChanged{Action: act.GoalSet, Goal: &g})
	is := r.take()
	if s := one[act.Settings](t, is); *s.Goal != "ship it" || *s.GoalStatus != backend.GoalActive || !slices.Contains(banners(is), "Goal set: ship it") {
		t.Errorf("set: %+v %q", s, banners(is))
	}
	r.tt.Result(act.GoalChanged{Action: act.GoalShow})
	if b := all[act.Banner](r.take()); len(b) != 1 || b[0].Text != "No goal for this thread" || b[0].Detail[0] != goalUsage {
		t.Errorf("show none: %+v", b)
	}
	r.tt.Result(act.GoalChanged{Action: act.GoalClear})
	if b := banners(r.take()); !slices.Equal(b, []string{"No goal to clear"}) {
		t.Errorf("clear none: %q", b)
	}
	r.tt.Result(act.GoalChanged{Err: &backend.RPCError{Code: -32601, Message: "Method not found"}})
	if b := banners(r.take()); len(b) != 1 || !strings.HasPrefix(b[0], "/goal: goals are not available on this server") {
		t.Errorf("unsupported: %q", b)
	}
	done := backend.ThreadGoal{Objective: "ship it", Status: backend.GoalComplete}
	for range 2 {
		r.tt.OnEvent(backend.GoalUpdatedEvent{Goal: done})
	}
	if b := banners(r.take()); !slices.Equal(b, []string{"Goal complete: ship it"}) {
		t.Errorf("complete: %q", b)
	}
	// The status line's goal read at open is of the thread still open.
	r.tt.Result(act.GoalRead{Thread: "t-other", Goal: &g})
	if is := r.take(); len(is) != 0 {
		t.Errorf("a goal of a thread left: %v", kinds(is))
	}
}

// Shift+Tab and /plan load the presets once, then switch; the mode goes
// with the next turn/start, the preset's effort winning.
func TestCollabModes(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	r.tt.SwitchMode(true)
	r.tt.SwitchMode(false) // while loading: the last asked wins
	if got := calls(r.take()); !reflect.DeepEqual(got, []act.Action{act.ListCollabModes{}}) {
		t.Fatalf("calls %v", got)
	}
	medium := "medium"
	r.tt.Result(act.CollabModes{Modes: []backend.CollaborationModeMask{
		{Name: "Plan", Mode: act.Str(backend.ModePlan), ReasoningEffort: &medium},
		{Name: "Default", Mode: act.Str(backend.ModeDefault)},
	}})
	is := r.take()
	if s := one[act.Settings](t, is); *s.Mode != "plan" || !strings.HasPrefix(notice(is), "Plan mode for the next turns") {
		t.Fatalf("cycle: %+v notice %q", s, notice(is))
	}
	r.tt.Enter(act.Submit{Raw: "go", Text: "go", Hist: "go"})
	st := call[act.StartTurn](t, r.take())
	if c := st.Input.Collaboration; c == nil || c.Mode != "plan" || c.Settings.Model != "mock-model" || *c.Settings.ReasoningEffort != "medium" {
		t.Errorf("turn/start mode %+v", st.Input.Collaboration)
	}
	r.tt.SwitchMode(true) // plan off
	if s := one[act.Settings](t, r.take()); *s.Mode != "" {
		t.Errorf("plan off: %+v", s)
	}
	n := newRig(t, act.Role{}, Options{})
	n.tt.SwitchMode(false)
	if is := n.take(); len(calls(is)) != 0 || notice(is) != "collaboration modes need a running app-server" {
		t.Errorf("without a server: %v %q", kinds(is), notice(is))
	}
}

// A running turn started elsewhere is followed; its messages are not
// this viewer's own.
func TestFollowedTurn(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	r.tt.OnEvent(backend.TurnStartedEvent{})
	if is := r.take(); !r.tt.Running() || r.tt.Own() || len(all[act.StartFrames](is)) != 1 {
		t.Fatalf("running %v own %v: %v", r.tt.Running(), r.tt.Own(), kinds(is))
	}
	r.tt.OnEvent(backend.ModelReroutedEvent{FromModel: "a", ToModel: "b", Reason: "highRiskCyberActivity"})
	is := r.take()
	if s := one[act.Settings](t, is); *s.Model != "b" || !slices.Contains(banners(is), "a is not answering this turn: b answers instead (flagged as high-risk cyber activity)") {
		t.Errorf("reroute: %q", banners(is))
	}
	if handled := r.tt.OnEvent(backend.ThreadNameEvent{}); handled {
		t.Error("the turn machine took a thread's name")
	}
}
