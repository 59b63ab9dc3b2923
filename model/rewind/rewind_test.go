package rewind

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"tandem/backend"
	"tandem/model/act"
	"tandem/thread"
	"tandem/ui"

	revert "tandem/internal/rewind"
)

// Esc once says what a second does; the second within a second opens
// the picker: the messages newest first, each with what came after it,
// its whole text and what rewinding to it leaves behind.
func TestEscEscOpensThePicker(t *testing.T) {
	g := newRig(t, act.Role{}, threeTurns())
	g.r.Esc()
	in := g.take()
	if got := notice(in); got != "esc again to edit an earlier message" || len(of[act.Pick](in)) != 0 {
		t.Fatalf("first Esc: notice %q, %#v", got, in)
	}
	g.now = g.now.Add(escTwice)
	g.r.Esc()
	in = g.take()
	if c := of[act.ClearNotice](in); len(c) != 1 || !c[0].Matches(act.NoticeInfo) {
		t.Errorf("the hint is not cleared: %#v", in)
	}
	p := pick(t, in)
	if p.Title != "Edit an earlier message" {
		t.Errorf("title %q", p.Title)
	}
	var rows []string
	for _, it := range p.Items {
		rows = append(rows, it.Label+" | "+it.Detail)
	}
	want := []string{"third | 1 turn · 1 file changed", "second | 2 turns · 1 command · 2 files changed", "first | 3 turns · 1 command · 2 files changed"}
	if !slices.Equal(rows, want) {
		t.Errorf("rows %q; want %q", rows, want)
	}
	if got, want := p.Items[1].Preview, []string{"second", "", "rewinding leaves behind: 2 turns · 1 command · 2 files changed"}; !slices.Equal(got, want) {
		t.Errorf("preview %q; want %q", got, want)
	}
	if got := p.Items[0].Choose; got != (act.RewindPicked{Turn: 2}) {
		t.Errorf("the newest row chooses %#v", got)
	}
}

// A second Esc more than a second after the first is a first Esc again.
func TestSlowEscOnlyHints(t *testing.T) {
	g := newRig(t, act.Role{}, threeTurns())
	g.r.Esc()
	g.take()
	g.now = g.now.Add(escTwice + time.Millisecond)
	g.r.Esc()
	if in := g.take(); len(of[act.Pick](in)) != 0 || notice(in) != "esc again to edit an earlier message" {
		t.Fatalf("a slow second Esc: %#v", in)
	}
	g.now = g.now.Add(time.Millisecond)
	g.r.Esc()
	pick(t, g.take())
}

// Two Escs in one read open the picker at once.
func TestEscEscInOneRead(t *testing.T) {
	g := newRig(t, act.Role{}, threeTurns())
	g.r.EscEsc()
	pick(t, g.take())
}

// A message with more than six lines is cut in the preview; one longer
// than the row in its label.
func TestPreviewOfALongMessage(t *testing.T) {
	long := "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\n"
	g := newRig(t, act.Role{}, []backend.Turn{{ID: "turn-1", Status: "completed", Items: []backend.Item{user("u1", long)}}})
	g.r.EscEsc()
	p := pick(t, g.take())
	want := []string{"line 1", "line 2", "line 3", "line 4", "line 5", "line 6", "…", "", "rewinding leaves behind: 1 turn"}
	if got := p.Items[0].Preview; !slices.Equal(got, want) {
		t.Errorf("preview %q; want %q", got, want)
	}
}

// Why a rewind can't start: no hint, no picker, the reason instead; /undo
// is refused with it.
func TestRewindBlocked(t *testing.T) {
	tests := []struct {
		name  string
		facts Facts
		role  act.Role
		why   string
	}{
		{"sub-agent shown", Facts{Ready: true, AgentShown: true}, act.Role{}, "a sub-agent is shown — esc back to the thread to rewind it"},
		{"shared", Facts{Ready: true}, act.NewRole(false, true, true), "rewind switches the thread, which a shared session can't do"},
		{"watcher", Facts{Ready: true}, act.NewRole(true, false, false), "rewind switches the thread, which a shared session can't do"},
		{"no app-server", Facts{}, act.Role{}, "rewind needs a running app-server"},
		{"turn running", Facts{Ready: true, Busy: true}, act.Role{}, "rewind can't start while a turn is running"},
		{"request waiting", Facts{Ready: true, Asking: true}, act.Role{}, "answer the waiting request first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newRig(t, tt.role, threeTurns())
			g.w.facts = tt.facts
			g.r.Esc()
			if in := g.take(); len(in) != 0 {
				t.Errorf("first Esc asked %#v", in)
			}
			g.r.Esc()
			in := g.take()
			if len(of[act.Pick](in)) != 0 || notice(in) != tt.why {
				t.Errorf("Esc Esc: notice %q, %#v", notice(in), in)
			}
			if got := g.r.Undo(); got != tt.why {
				t.Errorf("/undo refused with %q; want %q", got, tt.why)
			}
			if in := g.take(); len(in) != 0 {
				t.Errorf("a refused /undo asked %#v", in)
			}
		})
	}
}

// A thread without a message of the user's has nothing to go back to.
func TestNothingToGoBackTo(t *testing.T) {
	g := newRig(t, act.Role{}, []backend.Turn{{ID: "turn-1", Status: "completed", Items: []backend.Item{{Type: "agentMessage", ID: "a1", Text: "review"}}}})
	g.r.Esc()
	if in := g.take(); len(in) != 0 {
		t.Errorf("a hint with nothing to edit: %#v", in)
	}
	g.r.Esc()
	if in := g.take(); notice(in) != "no message of yours in this thread to go back to" || len(of[act.Pick](in)) != 0 {
		t.Errorf("Esc Esc: %#v", in)
	}
}

// Picking a message whose turns changed files asks how; with the code,
// the message goes to the draft, and Enter runs the rewind: the fork cut
// before its turn, the changes of it and every later turn, checked
// against the snapshots of those turns only.
func TestRewindConversationAndCode(t *testing.T) {
	g := newRig(t, act.Role{}, threeTurns())
	older := revert.SnapshotOf([]byte("old"), true)
	greet := revert.SnapshotOf([]byte("ahoy"), true)
	g.r.Result(act.FilesSnapped{Turn: "turn-1", Snaps: map[string]revert.Snapshot{"/w/a.go": older}})
	g.r.Result(act.FilesSnapped{Turn: "turn-2", Snaps: map[string]revert.Snapshot{"/w/greet.sh": greet}})
	g.r.Result(act.FilesSnapped{Turn: "turn-3", Snaps: map[string]revert.Snapshot{"/w/notes.md": {}}})

	g.r.EscEsc()
	p := pick(t, g.take())
	how := pick(t, g.choose(p.Items[1])) // "second"
	if how.Title != "Rewind to “second”" {
		t.Errorf("title %q", how.Title)
	}
	var labels []string
	for _, it := range how.Items {
		labels = append(labels, it.Label)
	}
	if want := []string{"Rewind conversation only", "Rewind conversation and code", "Cancel"}; !slices.Equal(labels, want) {
		t.Errorf("choices %q; want %q", labels, want)
	}
	summary := []string{"2 files changed in 2 turns:", "  greet.sh  +1 −1", "  notes.md  created → removed", "", "1 command ran: their effects are not rewound"}
	for _, it := range how.Items {
		if !slices.Equal(it.Preview, summary) {
			t.Errorf("%s: preview %q; want %q", it.Label, it.Preview, summary)
		}
	}
	in := g.choose(how.Items[1])
	if d := of[act.SetDraft](in); len(d) != 1 || d[0].Text != "second" {
		t.Errorf("draft %#v; want the message to edit", d)
	}
	if got := notice(in); got != "edit and press enter to rewind the conversation and the code to here · esc on an empty input cancels" {
		t.Errorf("notice %q", got)
	}
	if len(of[act.Request](in)) != 0 {
		t.Fatal("rewound before the message was sent")
	}

	if !g.r.Send("second again", "second again!") {
		t.Fatal("Send with a rewind chosen reported none")
	}
	in = g.take()
	if r := of[act.Switching](in); len(r) != 1 || !r[0].On || notice(in) != "rewinding…" {
		t.Errorf("no rewinding state: %#v", in)
	}
	call := rewindCall(t, in)
	if call.Thread != "t-first" || call.Turn != "turn-2" || !call.Code {
		t.Errorf("call %+v; want the code back, cut before turn-2 of t-first", call)
	}
	var paths []string
	for _, c := range call.Changes {
		paths = append(paths, c.Path)
	}
	if want := []string{"/w/greet.sh", "/w/notes.md"}; !slices.Equal(paths, want) {
		t.Errorf("changes %q; want %q", paths, want)
	}
	if want := map[string]revert.Snapshot{"/w/greet.sh": greet, "/w/notes.md": {}}; !maps.EqualFunc(call.Expect, want, snapEqual) {
		t.Errorf("expect %v; want the dropped turns' snapshots only", call.Expect)
	}
	if g.r.Send("again", "again") {
		t.Error("a second Send while the rewind runs")
	}

	resp := backend.ThreadResponse{Thread: backend.Thread{ID: "t-fork"}}
	g.r.Result(act.ThreadRewound{Response: resp, Forked: true, Files: 2})
	in = g.take()
	var kinds []string
	for _, i := range in {
		kinds = append(kinds, fmt.Sprintf("%T", i))
	}
	wantKinds := []string{"act.Switching", "act.ClearNotice", "act.OpenThread", "act.Banner", "act.AddHistory", "act.Send"}
	if !slices.Equal(kinds, wantKinds) {
		t.Fatalf("asked %q; want %q", kinds, wantKinds)
	}
	if r := of[act.Switching](in)[0]; r.On {
		t.Error("still rewinding")
	}
	if c := of[act.ClearNotice](in)[0]; !c.Matches(act.NoticeInfo) || !c.Matches(act.NoticeHeld) || c.Matches(act.NoticeQuit) {
		t.Errorf("clears %v", c.Kinds)
	}
	if o := of[act.OpenThread](in)[0]; o.How != act.HowRewound || !strings.HasPrefix(o.Note, "Rewound to “second”") || o.Response.Thread.ID != "t-fork" {
		t.Errorf("opens %+v", o)
	}
	b := of[act.Banner](in)[0]
	if b.Kind != ui.BannerInfo || b.Text != "Code rewound" || !slices.Equal(b.Detail, []string{"2 files put back as before", "commands ran in those turns: their effects are not rewound"}) {
		t.Errorf("banner %+v", b)
	}
	if h := of[act.AddHistory](in)[0]; h.Entry != "second again!" {
		t.Errorf("history %q", h.Entry)
	}
	if s := of[act.Send](in)[0]; s.Text != "second again" {
		t.Errorf("sent %q", s.Text)
	}

	// The files taken back are no longer as those turns left them: a
	// later rewind expects nothing of them.
	g.r.EscEsc()
	p = pick(t, g.take())
	g.choose(pick(t, g.choose(p.Items[1])).Items[1])
	g.r.Send("x", "x")
	if call := rewindCall(t, g.take()); len(call.Expect) != 0 {
		t.Errorf("expect %v after the files went back", call.Expect)
	}
}

func snapEqual(a, b revert.Snapshot) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

// Conversation only: the call takes no code back, and no banner says so.
func TestRewindConversationOnly(t *testing.T) {
	g := newRig(t, act.Role{}, threeTurns())
	g.r.EscEsc()
	p := pick(t, g.take())
	in := g.choose(pick(t, g.choose(p.Items[0])).Items[0]) // "third", conversation only
	if got := notice(in); got != "edit and press enter to rewind the conversation to here · esc on an empty input cancels" {
		t.Errorf("notice %q", got)
	}
	g.r.Send("third!", "third!")
	if call := rewindCall(t, g.take()); call.Code || call.Turn != "turn-3" {
		t.Errorf("call %+v", call)
	}
	g.r.Result(act.ThreadRewound{Forked: true})
	in = g.take()
	if b := of[act.Banner](in); len(b) != 0 {
		t.Errorf("banners %+v", b)
	}
	if s := of[act.Send](in); len(s) != 1 || s[0].Text != "third!" {
		t.Errorf("sent %+v", s)
	}
}

// A message whose turns changed no files goes to the draft at once.
func TestRewindWithoutFiles(t *testing.T) {
	turns := append(threeTurns(), backend.Turn{ID: "turn-4", Status: "completed", Items: []backend.Item{user("u4", "fourth")}})
	g := newRig(t, act.Role{}, turns)
	g.r.EscEsc()
	in := g.choose(pick(t, g.take()).Items[0])
	if len(of[act.Pick](in)) != 0 {
		t.Error("asked how to rewind a turn without file changes")
	}
	if d := of[act.SetDraft](in); len(d) != 1 || d[0].Text != "fourth" {
		t.Errorf("draft %+v", d)
	}
}

// A refusal (a file edited since) forks nothing: the banner names the
// file, the message comes back, and Enter tries again.
func TestRefusedRewindKeepsTheMessage(t *testing.T) {
	g := chosen(t, true)
	g.r.Send("second!", "second!")
	g.take()
	g.r.Result(act.ThreadRewound{Err: &revert.ConflictError{Conflicts: []revert.Conflict{{Path: "/w/greet.sh", Why: "edited since"}, {Path: "/elsewhere/x", Why: "gone"}}}})
	in := g.take()
	b := of[act.Banner](in)
	if len(b) != 1 || b[0].Kind != ui.BannerError || b[0].Text != "nothing was rewound: files changed since the agent edited them" ||
		!slices.Equal(b[0].Detail, []string{"greet.sh: edited since", "/elsewhere/x: gone"}) {
		t.Errorf("banner %+v", b)
	}
	if d := of[act.RestoreDraft](in); len(d) != 1 || d[0].Text != "second!" {
		t.Errorf("draft %+v; the message is never lost", d)
	}
	if got := notice(in); got != "enter tries the rewind again · esc on an empty input cancels it" {
		t.Errorf("notice %q", got)
	}
	if len(of[act.OpenThread](in))+len(of[act.Send](in)) != 0 {
		t.Errorf("went on after a refusal: %#v", in)
	}
	if !g.r.Send("second!!", "second!!") {
		t.Fatal("Enter does not try again")
	}
	if call := rewindCall(t, g.take()); call.Turn != "turn-2" || !call.Code {
		t.Errorf("again %+v", call)
	}
}

// A failed fork says why.
func TestFailedFork(t *testing.T) {
	g := chosen(t, false)
	g.r.Send("m", "m")
	g.take()
	g.r.Result(act.ThreadRewound{Err: errors.New("thread/fork: no rollout\nmore")})
	in := g.take()
	if b := of[act.Banner](in); len(b) != 1 || b[0].Text != "could not rewind: thread/fork: no rollout" {
		t.Errorf("banner %+v", b)
	}
	if d := of[act.RestoreDraft](in); len(d) != 1 || d[0].Text != "m" {
		t.Errorf("draft %+v", d)
	}
}

// A write failing after the fork: the fork is opened, the message is
// not sent but comes back, and the banner says what is where.
func TestWriteFailureAfterTheFork(t *testing.T) {
	var many []string
	for i := range 10 {
		many = append(many, fmt.Sprintf("/w/f%d", i))
	}
	tests := []struct {
		name  string
		err   error
		head  string
		lines []string
	}{
		{"put back", &revert.ApplyError{Path: "/w/greet.sh", Err: errors.New("disk full")},
			"the conversation was rewound, but the files were not: nothing was changed", []string{"writing greet.sh failed: disk full"}},
		{"one left", &revert.ApplyError{Path: "/w/greet.sh", Err: errors.New("disk full"), NotPutBack: []string{"/w/notes.md"}},
			"the conversation was rewound, and 1 file of the code too before writing failed — the rest is as the agent left it",
			[]string{"writing greet.sh failed: disk full", "rewound: notes.md"}},
		{"many left", &revert.ApplyError{Path: "/w/greet.sh", Err: errors.New("gone"), NotPutBack: many},
			"the conversation was rewound, and 10 files of the code too before writing failed — the rest is as the agent left it",
			[]string{"writing greet.sh failed: gone", "rewound: f0", "rewound: f1", "rewound: f2", "rewound: f3", "rewound: f4", "rewound: f5", "rewound: f6", "rewound: f7", "… and 2 more"}},
		{"other", errors.New("boom"), "the conversation was rewound, but the files were not: nothing was changed", []string{"boom"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := chosen(t, true)
			g.r.Send("second!", "second!")
			g.take()
			g.r.Result(act.ThreadRewound{Forked: true, Files: 2, Err: tt.err})
			in := g.take()
			if len(of[act.OpenThread](in)) != 1 {
				t.Error("the fork is not opened")
			}
			b := of[act.Banner](in)
			if len(b) != 1 || b[0].Kind != ui.BannerError || b[0].Text != tt.head || !slices.Equal(b[0].Detail, tt.lines) {
				t.Errorf("banner %+v\nwant %q %q", b, tt.head, tt.lines)
			}
			if len(of[act.Send](in))+len(of[act.AddHistory](in)) != 0 {
				t.Error("sent although the files were not rewound")
			}
			if d := of[act.RestoreDraft](in); len(d) != 1 || d[0].Text != "second!" {
				t.Errorf("draft %+v", d)
			}
			if got := notice(in); got != "your message was not sent: the files were not rewound — send it to go on anyway" {
				t.Errorf("notice %q", got)
			}
			if g.r.Send("again", "again") {
				t.Error("a rewind is still chosen after the fork")
			}
		})
	}
}

// /undo asks, then takes the last turn back at once: its message comes
// back to the draft, nothing is sent.
func TestUndo(t *testing.T) {
	g := newRig(t, act.Role{}, threeTurns())
	if why := g.r.Undo(); why != "" {
		t.Fatalf("refused: %s", why)
	}
	p := pick(t, g.take())
	if p.Title != "Rewind to “third”" || len(p.Items) != 2 || p.Items[0].Label != "Undo the last turn and its file changes" || p.Items[1].Label != "Cancel" {
		t.Fatalf("picker %+v", p)
	}
	if want := []string{"1 file changed in 1 turn:", "  notes.md  created → removed"}; !slices.Equal(p.Items[0].Preview, want) {
		t.Errorf("preview %q; want %q", p.Items[0].Preview, want)
	}
	if in := g.choose(p.Items[1]); len(in) != 0 {
		t.Errorf("Cancel asked %#v", in)
	}
	g.r.Undo()
	in := g.choose(pick(t, g.take()).Items[0])
	if call := rewindCall(t, in); call.Turn != "turn-3" || !call.Code {
		t.Errorf("call %+v", call)
	}
	g.r.Result(act.ThreadRewound{Forked: true, Files: 1})
	in = g.take()
	if d := of[act.SetDraft](in); len(d) != 1 || d[0].Text != "third" {
		t.Errorf("draft %+v; the undone message comes back", d)
	}
	if len(of[act.Send](in)) != 0 {
		t.Error("undo sent the message")
	}
}

// /undo's choice made after the app-server went away runs nothing.
func TestUndoChosenWithoutAServer(t *testing.T) {
	g := newRig(t, act.Role{}, threeTurns())
	g.r.Undo()
	p := pick(t, g.take())
	g.w.facts.Ready = false
	in := g.choose(p.Items[0])
	if len(of[act.Request](in))+len(of[act.Switching](in)) != 0 || notice(in) != "rewind needs a running app-server" {
		t.Errorf("asked %#v", in)
	}
}

// /undo of a turn without file changes, or of no turn.
func TestUndoWithNothing(t *testing.T) {
	g := newRig(t, act.Role{}, threeTurns()[:1])
	if why := g.r.Undo(); why != "" {
		t.Fatalf("refused: %s", why)
	}
	if in := g.take(); notice(in) != "the last turn changed no files: nothing to take back" || len(of[act.Pick](in)) != 0 {
		t.Errorf("asked %#v", in)
	}
	g = newRig(t, act.Role{}, nil)
	if why := g.r.Undo(); why != "no turn to undo" {
		t.Errorf("refused with %q", why)
	}
}

// A rewind chosen goes with Esc on the empty draft, Ctrl+C's discard, a
// thread switch (silently) or a restart (which drops the snapshots too).
func TestChosenRewindGoes(t *testing.T) {
	tests := []struct {
		name   string
		drop   func(*Rewind)
		notice string
	}{
		{"esc", (*Rewind).Esc, "rewind cancelled"},
		{"ctrl+c", (*Rewind).Cancel, "rewind cancelled"},
		{"thread switch", (*Rewind).Drop, ""},
		{"restart", (*Rewind).Restarted, "the app-server restarted: the rewind you chose was dropped — esc esc to choose again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := chosen(t, true)
			tt.drop(g.r)
			if in := g.take(); notice(in) != tt.notice || len(in) > 1 {
				t.Errorf("asked %#v; want the notice %q", in, tt.notice)
			}
			if g.r.Send("x", "x") {
				t.Error("the rewind is still chosen")
			}
			// With none chosen, only Esc does anything (a first Esc).
			tt.drop(g.r)
			if in := g.take(); len(in) != 0 && tt.name != "esc" {
				t.Errorf("with no rewind chosen: %#v", in)
			}
		})
	}
}

// A restart drops the snapshots with a chosen rewind, and keeps them
// without one.
func TestRestartDropsSnapshots(t *testing.T) {
	for _, pending := range []bool{false, true} {
		g := newRig(t, act.Role{}, threeTurns())
		g.r.Result(act.FilesSnapped{Turn: "turn-3", Snaps: map[string]revert.Snapshot{"/w/notes.md": {}}})
		if pending {
			g.r.EscEsc()
			g.choose(pick(t, g.choose(pick(t, g.take()).Items[0])).Items[0])
		}
		g.r.Restarted()
		g.take()
		g.r.Undo()
		in := g.choose(pick(t, g.take()).Items[0])
		if got := len(rewindCall(t, in).Expect); got == 0 != pending {
			t.Errorf("pending %v: %d snapshots after the restart", pending, got)
		}
	}
}

// A completed file change of a live thread is read back; nothing else
// is, and a shared session's viewer reads none.
func TestFoldedSnapshots(t *testing.T) {
	change := func(kind thread.Kind, done bool, status string) *thread.Item {
		return &thread.Item{Key: thread.Key{Turn: "turn-9", Item: "f9"}, Kind: kind, Done: done, Status: status,
			Files: []thread.FileDiff{{Path: "/w/a.go", Kind: thread.FileUpdate}, {Path: "/w/old.go", MovePath: "/w/new.go", Kind: thread.FileUpdate}}}
	}
	tests := []struct {
		name string
		it   *thread.Item
		role act.Role
		asks bool
	}{
		{"completed", change(thread.FileChange, true, "completed"), act.Role{}, true},
		{"none", nil, act.Role{}, false},
		{"in progress", change(thread.FileChange, false, "inProgress"), act.Role{}, false},
		{"failed", change(thread.FileChange, true, "failed"), act.Role{}, false},
		{"declined", change(thread.FileChange, true, "declined"), act.Role{}, false},
		{"a command", change(thread.Command, true, "completed"), act.Role{}, false},
		{"shared", change(thread.FileChange, true, "completed"), act.NewRole(false, true, true), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newRig(t, tt.role, nil)
			g.r.Folded(tt.it)
			reqs := of[act.Request](g.take())
			if !tt.asks {
				if len(reqs) != 0 {
					t.Errorf("asked %#v", reqs)
				}
				return
			}
			if len(reqs) != 1 || reqs[0].For != act.ToRewind {
				t.Fatalf("asked %#v", reqs)
			}
			s, ok := reqs[0].Do.(act.SnapFiles)
			if !ok || s.Turn != "turn-9" || len(s.Files) != 2 || s.Files[1].MovePath != "/w/new.go" {
				t.Errorf("call %#v", reqs[0].Do)
			}
			tt.it.Files[0].Path = "/w/changed"
			if s.Files[0].Path != "/w/a.go" {
				t.Error("the call shares the item's files")
			}
		})
	}
}

// The transcript's marker of a rewind, from the thread before the switch.
func TestNote(t *testing.T) {
	g := newRig(t, act.Role{}, threeTurns())
	g.w.thread.SetThread("0199aaaa-bbbb-cccc-dddd-eeeeffff0001")
	if got, want := g.r.Note("turn-2"), "Rewound to “second” — 2 turns left behind on thread 0199aaaa…0001 (/resume)"; got != want {
		t.Errorf("note %q; want %q", got, want)
	}
	if got, want := g.r.Note("turn-9"), "Rewound to an earlier message (a fork of the thread)"; got != want {
		t.Errorf("note %q; want %q", got, want)
	}
}

// The rewind takes only its own intents.
func TestApplyOwnIntentsOnly(t *testing.T) {
	g := newRig(t, act.Role{}, threeTurns())
	for _, i := range []act.Intent{act.SetDraft{Text: "x"}, act.Switching{On: true}, act.Send{Text: "x"}, nil} {
		if g.r.Apply(i) {
			t.Errorf("took %#v", i)
		}
	}
	// A stale choice (no picker of its open) does nothing.
	if !g.r.Apply(act.RewindPicked{Turn: 1}) || !g.r.Apply(act.RewindChosen{Code: true}) {
		t.Error("its own choices not taken")
	}
	if in := g.take(); len(in) != 0 {
		t.Errorf("a stale choice asked %#v", in)
	}
	if strings.Contains(g.r.rel("/w/sub/x"), "/w/") || g.r.rel("/other/x") != "/other/x" {
		t.Errorf("rel %q %q", g.r.rel("/w/sub/x"), g.r.rel("/other/x"))
	}
}

// chosen is a rig with "second" chosen (code: its file changes too),
// waiting for Enter.
func chosen(t *testing.T, code bool) *rig {
	t.Helper()
	g := newRig(t, act.Role{}, threeTurns())
	g.r.EscEsc()
	how := pick(t, g.choose(pick(t, g.take()).Items[1]))
	i := 0
	if code {
		i = 1
	}
	g.choose(how.Items[i])
	return g
}
