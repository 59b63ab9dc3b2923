package turn

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
)

// world is a World the test sets: the draft, the panes' facts, the peer.
type world struct {
	draft                      string
	cwd, lastTurn, peer        string
	agentShown, inline, rewind bool
	notEmpty                   bool
	images                     map[string]Image // chip token → its image
	pinned                     []string         // the tokens Resolve pinned
}

func (w *world) Draft() string { return w.draft }
func (w *world) Submission() act.Submit {
	return act.Submit{Raw: w.draft, Text: w.draft, Hist: w.draft}
}
func (w *world) HasImage(s string) bool {
	for tok := range w.images {
		if strings.Contains(s, tok) {
			return true
		}
	}
	return false
}
func (w *world) strip(s string) (string, []Image) {
	var ims []Image
	for tok, im := range w.images {
		if strings.Contains(s, tok) {
			s = strings.TrimSpace(strings.ReplaceAll(s, tok, ""))
			ims = append(ims, im)
		}
	}
	return s, ims
}
func (w *world) Resolve(s string) (string, []Image) {
	text, ims := w.strip(s)
	for tok := range w.images {
		if strings.Contains(s, tok) {
			w.pinned = append(w.pinned, tok)
		}
	}
	return text, ims
}
func (w *world) StripImages(s string) (string, []Image) { return w.strip(s) }
func (w *world) SkillRefs(string) []backend.SkillRef    { return nil }
func (w *world) Expand(s string) string                 { return s }
func (w *world) HistEntry(_, text string) string        { return text }
func (w *world) LargeAsPaste(s string) string           { return s }
func (w *world) ThreadCwd() string                      { return w.cwd }
func (w *world) LastTurn() string                       { return w.lastTurn }
func (w *world) AgentShown() bool                       { return w.agentShown }
func (w *world) Inline() bool                           { return w.inline }
func (w *world) EmptyTranscript() bool                  { return !w.notEmpty }
func (w *world) Peer() string                           { return w.peer }
func (w *world) RewindPending() bool                    { return w.rewind }

// timer is a timer the turn machine set: after d, f's message.
type timer struct {
	d time.Duration
	f func(time.Time) tea.Msg
}

// clock is the rig's clock: Now is the rig's now, and After records the
// timer (the test fires it).
type clock struct{ r *rig }

func (c clock) Now() time.Time { return c.r.now }
func (c clock) After(d time.Duration, f func(time.Time) tea.Msg) tea.Cmd {
	c.r.timers = append(c.r.timers, timer{d: d, f: f})
	return func() tea.Msg { return f(c.r.now) }
}

// client is a backend.Client with an open thread and turn, whose calls
// the test never runs (it reads the calls asked for instead).
type client struct {
	backend.Unavailable
	thread, turn string
	// since is what Unanswered says: when the server last owed an
	// answer and said nothing (zero: nothing is owed).
	since time.Time
}

func (c *client) ThreadID() string      { return c.thread }
func (c *client) TurnID() string        { return c.turn }
func (c *client) UserAgent() string     { return "codex_cli_rs/0.169.0" }
func (c *client) Unanswered() time.Time { return c.since }

// rig drives Turns as the root does, keeping what it asks for.
type rig struct {
	t      *testing.T
	tt     *Turns
	w      *world
	out    act.Out
	now    time.Time
	timers []timer
	c      *client
}

// newRig is the turn machine of a viewer in role, with opts (World, Now
// and the env are the rig's).
func newRig(t *testing.T, role act.Role, opts Options) *rig {
	t.Helper()
	r := &rig{t: t, w: &world{}, now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC), c: &client{thread: "t-first"}}
	opts.World, opts.Now = r.w, func() time.Time { return r.now }
	r.tt = New(act.Env{Out: &r.out, Clock: clock{r: r}, Role: role}, opts)
	return r
}

// ready is newRig with the session ready on r.c (what that asked is
// dropped).
func ready(t *testing.T, role act.Role, opts Options) *rig {
	t.Helper()
	r := newRig(t, role, opts)
	r.tt.OnReady(SessionReady{Client: r.c, ThreadID: "t-first", Model: "mock-model"})
	r.take()
	return r
}

// take returns the intents asked for since the last take, and forgets
// them and the commands.
func (r *rig) take() []act.Intent {
	is := r.out.Intents
	r.out.Intents, r.out.Cmds = nil, nil
	return is
}

// cmds returns the commands asked for since the last take.
func (r *rig) cmds() []tea.Cmd { return r.out.Cmds }

// fire delivers the last timer set, as its time came.
func (r *rig) fire() {
	r.t.Helper()
	if len(r.timers) == 0 {
		r.t.Fatal("no timer was set")
	}
	tm := r.timers[len(r.timers)-1]
	r.timers = r.timers[:len(r.timers)-1]
	r.now = r.now.Add(tm.d)
	r.tt.Update(tm.f(r.now).(Msg))
}

// all returns the intents of type T in is.
func all[T any](is []act.Intent) []T {
	var out []T
	for _, i := range is {
		if v, ok := i.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// one returns the one intent of type T in is, failing the test when
// there is not exactly one.
func one[T any](t *testing.T, is []act.Intent) T {
	t.Helper()
	got := all[T](is)
	if len(got) != 1 {
		var zero T
		t.Fatalf("%d intents %T in %s; want 1", len(got), zero, describe(is))
	}
	return got[0]
}

// calls returns the calls asked for in is, in order.
func calls(is []act.Intent) []act.Action {
	var out []act.Action
	for _, r := range all[act.Request](is) {
		out = append(out, r.Do)
	}
	return out
}

// call returns the one call of type T asked for in is.
func call[T act.Action](t *testing.T, is []act.Intent) T {
	t.Helper()
	var got []T
	for _, a := range calls(is) {
		if v, ok := a.(T); ok {
			got = append(got, v)
		}
	}
	if len(got) != 1 {
		var zero T
		t.Fatalf("%d calls %T in %s; want 1", len(got), zero, describe(is))
	}
	return got[0]
}

// banners are the banners' texts in is.
func banners(is []act.Intent) []string {
	var out []string
	for _, b := range all[act.Banner](is) {
		out = append(out, b.Text)
	}
	return out
}

// notice is the last notice set in is ("" for none).
func notice(is []act.Intent) string {
	n := all[act.SetNotice](is)
	if len(n) == 0 {
		return ""
	}
	return n[len(n)-1].Text
}

// kinds names the intents' types, in order: what the root carries out.
func kinds(is []act.Intent) []string {
	var out []string
	for _, i := range is {
		s := fmt.Sprintf("%T", i)
		if r, ok := i.(act.Request); ok {
			s = fmt.Sprintf("call %T", r.Do)
		}
		out = append(out, strings.TrimPrefix(strings.ReplaceAll(s, "act.", ""), "call act."))
	}
	return out
}

func describe(is []act.Intent) string { return "[" + strings.Join(kinds(is), " ") + "]" }
