package composer

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
)

// stepClock is a clock that moves on step at every reading (0: it stays):
// with 100 ms every key is typed at a person's pace. Its timers are not
// run: a test delivers them (Composer.Due).
type stepClock struct {
	now  time.Time
	step time.Duration
}

func (c *stepClock) Now() time.Time { c.now = c.now.Add(c.step); return c.now }

func (c *stepClock) After(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }

// rig is a composer with what the root would give it: an Out, a clock,
// the facts, and the root's routing of keys (press).
type rig struct {
	t     *testing.T
	c     *Composer
	out   *act.Out
	clock *stepClock
	facts Facts
	gate  Gate
}

// newRig returns a composer 80 columns wide at a person's pace.
func newRig(t *testing.T, opts Options) *rig {
	t.Helper()
	r := &rig{t: t, out: &act.Out{}, clock: &stepClock{now: time.Unix(1_000_000, 0), step: 100 * time.Millisecond}}
	opts.Facts = func() Facts { return r.facts }
	r.c = New(act.Env{Out: r.out, Clock: r.clock}, opts)
	r.c.SetWidth(80)
	return r
}

// press routes k as the root does: the gate, then the composer's keys,
// then the draft's editing. A held key waits (release lets it act).
func (r *rig) press(k tea.KeyPressMsg) {
	switch v := r.c.KeyIn(k, r.gate); v.Do {
	case Hold:
	case Release:
		r.c.Act(v, r.route)
		r.press(k)
	default:
		r.route(k)
	}
}

// route is the root's routing of a key that acts (no form, pager or
// picker is open): the composer's, else its editing.
func (r *rig) route(k tea.KeyPressMsg) tea.Cmd {
	if r.c.Key(k) == Typed {
		n := len(r.out.Cmds)
		r.c.Edit(k)
		r.out.Cmds = r.out.Cmds[:n] // not the cursor's blink
		r.c.Follow()
	}
	return nil
}

// typeText types s a rune a key.
func (r *rig) typeText(s string) {
	for _, c := range s {
		r.press(tea.KeyPressMsg{Code: c, Text: string(c)})
	}
}

// due delivers the composer's next timer, if one runs, and routes a key
// it releases.
func (r *rig) due() {
	if msg := r.c.Due(); msg != nil {
		if v := r.c.Update(msg); v.Do == Release {
			r.c.Act(v, r.route)
		}
	}
}

// run runs the commands asked for so far (the cursor's blink is never
// kept: press drops it) and hands the composer its own messages back.
func (r *rig) run() {
	r.t.Helper()
	cmds := r.out.Cmds
	r.out.Cmds = nil
	for _, cmd := range cmds {
		if msg, ok := cmd().(Msg); ok {
			r.c.Update(msg)
		}
	}
}

// take returns the intents asked for so far, and forgets them and the
// commands (the cursor's blink).
func (r *rig) take() []act.Intent {
	i := r.out.Intents
	r.out.Intents, r.out.Cmds = nil, nil
	return i
}

// notice is the last status-line notice asked for, "" for none.
func notice(intents []act.Intent) string {
	n := ""
	for _, i := range intents {
		if s, ok := i.(act.SetNotice); ok {
			n = s.Text
		}
	}
	return n
}
