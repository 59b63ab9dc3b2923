package overlay

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
	"tandem/forms"
	"tandem/internal/testkit/reqtest"
	"tandem/internal/testkit/teadrive"
	"tandem/model/act"
	"tandem/thread"
	"tandem/ui"
)

// world is a World the test sets: the room, the draft, the thread.
type world struct {
	room    Room
	draft   string
	thread  thread.State
	cwd     string
	asker   string
	drivers string
}

func (w *world) Room() Room                    { return w.room }
func (w *world) Draft() string                 { return w.draft }
func (w *world) ThreadOf(string) *thread.State { return &w.thread }
func (w *world) ThreadCwd() string             { return w.cwd }
func (w *world) AskerOf(string) string         { return w.asker }
func (w *world) Drivers() string               { return w.drivers }
func (w *world) size(width, height int) {
	w.room = Room{Width: max(20, width), Height: height, Below: 3}
}

// clock is the test's clock: Now is *now, and no timer runs (check
// sends what a focus check's timer would).
type clock struct{ now *time.Time }

func (c clock) Now() time.Time                                     { return *c.now }
func (clock) After(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }

// rig drives an overlay as the root does: input noted before it is
// routed, keys asked of the overlay first, the form refitted and the
// overlay's commands run after every message (its own messages fed back,
// timers recorded), its intents kept.
type rig struct {
	t       *testing.T
	o       *Overlay
	w       *world
	out     act.Out
	now     time.Time
	intents []act.Intent
	rep     reqtest.Replies
}

// newRig is an overlay in a width×height window whose forms' grace and
// quiet periods are grace (an hour when 0: the test grants focus).
func newRig(t *testing.T, width, height int, grace time.Duration, role act.Role) *rig {
	t.Helper()
	if grace == 0 {
		grace = time.Hour
	}
	r := &rig{t: t, w: &world{drivers: "a driver"}, now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	r.w.size(width, height)
	env := act.Env{Out: &r.out, Clock: clock{now: &r.now}, Role: role}
	r.o = New(env, Options{Grace: grace, World: r.w, Now: func() time.Time { return r.now }, Workspace: "/w"})
	r.o.SetLook(Look{Styles: ui.NewStyles(true), Theme: forms.Theme(true, true)})
	return r
}

// reqRig is a driver's overlay in a 110×40 window.
func reqRig(t *testing.T) *rig { return newRig(t, 110, 40, 0, act.Role{}) }

// flush does what the root does after each message: refit the form,
// keep the intents, and return the commands to run.
func (r *rig) flush() tea.Cmd {
	r.o.Refit(false)
	r.intents = append(r.intents, r.out.Intents...)
	cmds := r.out.Cmds
	r.out.Cmds, r.out.Intents = nil, nil
	return tea.Batch(cmds...)
}

// do runs f as the handling of one message, then what it asked for.
func (r *rig) do(f func()) {
	r.t.Helper()
	f()
	update := func(msg tea.Msg) tea.Cmd { r.o.Update(msg); return r.flush() }
	if err := teadrive.Drive(update, 60*time.Millisecond, nil, r.flush()); err != nil {
		r.t.Fatal("drive:", err)
	}
}

// send hands the overlay one of its messages (or any other: a form's).
func (r *rig) send(msg tea.Msg) { r.do(func() { r.o.Update(msg) }) }

// request delivers req and ends the form's grace period.
func (r *rig) request(req backend.ServerRequest) {
	r.t.Helper()
	r.do(func() { r.o.Request(req) })
	r.send(FocusMsg{})
}

// decode is a request of method whose replies r records.
func (r *rig) decode(method, id, params string) backend.ServerRequest {
	return reqtest.Decode(r.t, method, id, params, &r.rep)
}

// check fires the shown form's focus check, as its timer would.
func (r *rig) check() { r.send(formCheckMsg{seq: r.o.q.seq}) }

// key presses k as the root routes it: noted, the overlay's when it
// takes it, else on to the form through the global keys (the composer's
// keys are not the overlay's). It reports whether the overlay used it.
func (r *rig) key(k tea.KeyPressMsg) (used bool) {
	r.t.Helper()
	r.do(func() {
		r.o.NoteInput(k)
		if r.o.Takes(k) && r.o.Key(k) {
			used = true
			return
		}
		if !r.o.FullScreen() {
			used = r.o.FormKey(k)
		}
	})
	return used
}

// hit presses a key: a rune, or a tea.Key* code, with mod.
func (r *rig) hit(code rune, mod tea.KeyMod) bool {
	r.t.Helper()
	k := tea.KeyPressMsg{Code: code, Mod: mod}
	if code >= ' ' && code < tea.KeyExtended && mod == 0 {
		k.Text = string(code)
	}
	return r.key(k)
}

// typeText presses s's runes.
func (r *rig) typeText(s string) {
	r.t.Helper()
	for _, c := range s {
		r.hit(c, 0)
	}
}

// paste pastes text as the root routes it; it reports whether the
// overlay took it.
func (r *rig) paste(text string) (used bool) {
	r.do(func() {
		r.o.NoteInput(tea.PasteMsg{Content: text})
		used = r.o.Paste(text)
	})
	return used
}

// raw is what the overlay draws: full screen, or the form, the waiting
// line and the picker or login form.
func (r *rig) raw() string {
	if v, ok := r.o.FullView(); ok {
		return v
	}
	var lines []string
	lines = append(lines, r.o.FormView()...)
	if l := r.o.WaitingLine(); l != "" {
		lines = append(lines, l)
	}
	lines = append(lines, r.o.PanelView()...)
	return strings.Join(lines, "\n")
}

// view is raw without styles.
func (r *rig) view() string { return ansi.Strip(r.raw()) }

// notice is the text of the last status notice asked for ("" if none).
func (r *rig) notice() string {
	for i := len(r.intents) - 1; i >= 0; i-- {
		if n, ok := r.intents[i].(act.SetNotice); ok {
			return n.Text
		}
	}
	return ""
}

// wanted returns the intents of type T asked for so far.
func wanted[T any](r *rig) []T {
	var out []T
	for _, i := range r.intents {
		if v, ok := i.(T); ok {
			out = append(out, v)
		}
	}
	return out
}
