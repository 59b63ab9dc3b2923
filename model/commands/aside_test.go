package commands

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
	"tandem/model/keys"
)

// asked returns the one AskAside asked for in is (failing without one).
func asked(t *testing.T, is []act.Intent) act.AskAside {
	t.Helper()
	var out []act.AskAside
	for _, i := range is {
		if rq, ok := i.(act.Request); ok {
			if a, ok := rq.Do.(act.AskAside); ok && rq.For == act.ToCommands {
				out = append(out, a)
			}
		}
	}
	if len(out) != 1 {
		t.Fatalf("asked for %d asides (%v), want 1", len(out), kinds(is))
	}
	return out[0]
}

// /side asks the question as is on a fork, says so on the status line,
// and shows the answer as a page; the transcript gets nothing.
func TestSideAsksAndShowsThePage(t *testing.T) {
	r := newRig(t)
	ok, is := r.enter("/side what is X?")
	if !ok || !ran(is) {
		t.Fatalf("/side: %v", kinds(is))
	}
	a := asked(t, is)
	if a.Prompt != "what is X?" || a.Cut == nil {
		t.Fatalf("asked %+v", a)
	}
	if n := notice(is); !strings.Contains(n, "asking on a side fork") || !strings.Contains(n, "(Esc cancels)") {
		t.Errorf("notice %q", n)
	}
	r.c.Result(act.AsideAnswered{Seq: a.Seq, Answer: "X is **a letter**."})
	is = r.take()
	pages := only[act.ShowPage](is)
	if len(pages) != 1 || !strings.Contains(pages[0].Markdown, "X is **a letter**.") ||
		!strings.Contains(pages[0].Markdown, "what is X?") || !strings.Contains(pages[0].Title, "/side") ||
		!strings.Contains(pages[0].Markdown, "q, Esc, Ctrl+T, Ctrl+C close it.") {
		t.Fatalf("after the answer: %v %#v", kinds(is), is)
	}
	if len(only[act.Banner](is)) != 0 || len(only[act.Echo](is)) != 0 {
		t.Errorf("the answer touched the transcript: %v", kinds(is))
	}
	if _, is := r.enter("/side again?"); len(only[act.Request](is)) != 1 {
		t.Errorf("a second /side after the first answered: %v", kinds(is))
	}
}

// Esc (the composer having the keys) cuts a side question: its Cut is
// closed, the notice says so, and its late answer shows nothing. Under a
// form or the pager Esc is theirs.
func TestEscCutsASideQuestion(t *testing.T) {
	esc := tea.KeyPressMsg{Code: tea.KeyEscape}
	r := newRig(t)
	_, is := r.enter("/side long?")
	a := asked(t, is)
	r.w.covered = true
	if r.c.Key(esc) {
		t.Fatal("Esc under a form or the pager was taken")
	}
	r.w.covered = false
	if !r.c.Key(esc) {
		t.Fatal("Esc was not taken while the side question ran")
	}
	select {
	case <-a.Cut:
	default:
		t.Fatal("Esc did not cut the side question")
	}
	if n := notice(r.take()); !strings.Contains(n, "cancelled") {
		t.Errorf("notice %q", n)
	}
	if r.c.Key(esc) {
		t.Error("a second Esc was taken: it is the turn's")
	}
	r.c.Result(act.AsideAnswered{Seq: a.Seq, Err: errors.New("context canceled")})
	if is := r.take(); len(is) != 0 {
		t.Errorf("the cut side question's answer showed: %v", kinds(is))
	}
}

// /side and /recap are refused, saying why, where nothing can be forked
// or asked; the line stays.
func TestSideRefusals(t *testing.T) {
	tests := []struct {
		name, line string
		role       act.Role
		setup      func(w *world)
		why        string
	}{
		{name: "watcher", line: "/side q", role: act.NewRole(true, true, false), why: "a watcher can't ask"},
		{name: "replay", line: "/recap", role: act.NewRole(false, true, false), why: "a replay can't ask"},
		{name: "no thread", line: "/side q", setup: func(w *world) { w.server.ThreadID = "" }, why: "no thread is open"},
		{name: "no turn", line: "/recap", setup: func(w *world) { w.recap = Recap{} }, why: "no turn yet"},
		{name: "no server", line: "/side q", setup: func(w *world) { w.server.Ready = false }, why: "needs a running app-server"},
		{name: "no question", line: "/side", why: "/side QUESTION"},
		{name: "sub-agent shown", line: "/side q", setup: func(w *world) { w.agentShown = true }, why: "a sub-agent is shown"},
	}
	for _, tt := range tests {
		r := newRoleRig(t, tt.role)
		if tt.setup != nil {
			tt.setup(r.w)
		}
		_, is := r.enter(tt.line)
		if len(only[act.Request](is)) != 0 || !strings.Contains(notice(is), tt.why) {
			t.Errorf("%s: %v, notice %q; want no call and %q", tt.name, kinds(is), notice(is), tt.why)
		}
		if d := only[act.SetDraft](is); len(d) == 0 || d[len(d)-1].Text != tt.line {
			t.Errorf("%s: the line was not kept: %#v", tt.name, d)
		}
	}
	r := newRig(t)
	r.enter("/side first?")
	if _, is := r.enter("/recap"); len(only[act.Request](is)) != 0 || !strings.Contains(notice(is), "a side question is running") {
		t.Errorf("a second aside while one runs: %v, %q", kinds(is), notice(is))
	}
}

// /recap covers the turns since the thread opened here, then since the
// last /recap; with nothing new it asks nothing. The prompt names where
// it starts by the user's message, never a turn id only.
func TestRecapSinceYouLastLooked(t *testing.T) {
	r := newRig(t)
	r.w.recap = Recap{OpenedAt: "t1", Turns: []TurnRef{{"t1", "old work"}, {"t2", "fix the parser\nplease"}, {"t3", "and the tests"}}}
	_, is := r.enter("/recap")
	a := asked(t, is)
	if !strings.Contains(a.Prompt, "last 2 turn(s)") || !strings.Contains(a.Prompt, "“fix the parser”") || strings.Contains(a.Prompt, "old work") {
		t.Errorf("the first recap's prompt: %q", a.Prompt)
	}
	r.c.Result(act.AsideAnswered{Seq: a.Seq, Answer: "- fixed the parser"})
	if p := only[act.ShowPage](r.take()); len(p) != 1 || !strings.Contains(p[0].Markdown, "- fixed the parser") || !strings.Contains(p[0].Title, "/recap") {
		t.Fatalf("the recap's page: %#v", p)
	}
	if _, is := r.enter("/recap"); len(only[act.Request](is)) != 0 || !strings.Contains(notice(is), "nothing new") {
		t.Errorf("a recap with nothing new: %v %q", kinds(is), notice(is))
	}
	r.w.recap.Turns = append(r.w.recap.Turns, TurnRef{"t4", "now the docs"})
	_, is = r.enter("/recap")
	if a := asked(t, is); !strings.Contains(a.Prompt, "last 1 turn(s)") || !strings.Contains(a.Prompt, "“now the docs”") {
		t.Errorf("the second recap's prompt: %q", a.Prompt)
	}
	// A thread started here: from its beginning.
	r = newRig(t)
	r.w.recap = Recap{Turns: []TurnRef{{"t1", "first"}}}
	_, is = r.enter("/recap")
	if a := asked(t, is); !strings.Contains(a.Prompt, "this whole conversation") {
		t.Errorf("a new thread's recap prompt: %q", a.Prompt)
	}
}

// A side question that failed says why in a banner and gives the line
// back; it shows no page.
func TestSideFailed(t *testing.T) {
	r := newRig(t)
	_, is := r.enter("/side what?")
	a := asked(t, is)
	r.w.draft = ""
	r.c.Result(act.AsideAnswered{Seq: a.Seq, Err: errors.New("thread/fork: no rollout")})
	is = r.take()
	_, text := banner(t, is)
	if !strings.Contains(text, "/side: thread/fork: no rollout") || len(only[act.ShowPage](is)) != 0 {
		t.Errorf("a failed aside: %v %q", kinds(is), text)
	}
	if d := only[act.SetDraft](is); len(d) != 1 || d[0].Text != "/side what?" {
		t.Errorf("the line back: %#v", d)
	}
}

// The side question's notices and its page name the keys as the keymap
// binds them: Interrupt cancels it, the pager's close key closes the page.
func TestSideNamesTheReboundKeys(t *testing.T) {
	r := newRig(t)
	km := keys.Default()
	if err := km.Rebind(map[string][]string{"interrupt": {"f9"}, "pager_close": {"f10"}}); err != nil {
		t.Fatal(err)
	}
	r.c = New(r.c.env, Options{Grace: grace, Quiet: quiet, Workspace: "/local", World: r.w, Keys: km})
	_, is := r.enter("/side what is X?")
	a := asked(t, is)
	if n := notice(is); !strings.Contains(n, "(F9 cancels)") {
		t.Errorf("notice %q, want the rebound interrupt key", n)
	}
	if _, is := r.enter("/side again?"); !strings.Contains(notice(is), "F9 cancels it") {
		t.Errorf("a second /side while one runs: %q", notice(is))
	}
	r.c.Result(act.AsideAnswered{Seq: a.Seq, Answer: "X."})
	pages := only[act.ShowPage](r.take())
	if len(pages) != 1 || !strings.Contains(pages[0].Markdown, "F10 close it.") {
		t.Fatalf("the page: %#v", pages)
	}
}
