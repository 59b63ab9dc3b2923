package composer

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
)

// A paste that arrives as keys is told from typing by its pace (burst.go),
// but only from its second key on: its first key, alone, looks typed. So a
// decisive first key — an Enter that would send the draft, or any key
// but text for a text field while an approval or question form has the
// keyboard — waits holdWindow before it acts. A key that follows within
// burstGap makes both part of a paste: it goes into the composer, never
// to the form, and the Enter is a new line (a paste of "\nx", or "↓ Enter
// x", can't answer an approval; "hello" typed, then "\rworld" pasted,
// sends nothing). A key that stands alone acts when the window ends, a
// delay no one notices.

// holdWindow is how long a decisive key waits for a next one.
const holdWindow = 15 * time.Millisecond

// heldKey is the decisive key waiting (on), and when it came.
type heldKey struct {
	k   tea.KeyPressMsg
	at  time.Time
	on  bool
	seq int
}

// holdTickMsg ends the wait of the key held as seq.
type holdTickMsg struct{ seq int }

func (holdTickMsg) composerMsg() {}

// Gate is what the gate reads of the rest of the model for one key.
type Gate struct {
	// Elsewhere: keys go elsewhere whatever they are — the viewer
	// watches, or the pager, the login form or a picker is open.
	Elsewhere bool
	// Form: a form has the keyboard; FormWants: it takes this key.
	Form, FormWants bool
}

// Do is what the gate decided for a key.
type Do int

const (
	// None: nothing to route.
	None Do = iota
	// Act: route the key now.
	Act
	// Hold: the key waits holdWindow for a next one (the composer's
	// timer brings it back through Update).
	Hold
	// Release: Verdict.Key, the key held before, stood alone: route it
	// (Act), then take the new key afresh (KeyIn again).
	Release
	// Pasted: the key held before began a paste and is in the draft now;
	// route the new key, its next, once the form gave the keys up
	// (act.YieldKeys, asked when a form had them).
	Pasted
)

// Verdict is the gate's decision, with the key to release and when it
// came.
type Verdict struct {
	Do  Do
	Key tea.KeyPressMsg
	at  time.Time
}

// keyTime is when the key being handled came: a held key's own time
// while it acts (the detector judges it by its arrival), else now.
func (c *Composer) keyTime() time.Time {
	if !c.heldAt.IsZero() {
		return c.heldAt
	}
	return c.env.Clock.Now()
}

// holds reports whether k waits before acting: while a form has the
// keyboard, every key a paste typed as keys could be (text the form does
// not take as text, Enter, a line feed, Tab); and an Enter in the composer
// outside a burst (in one, it is a new line already). A key no paste
// sends — an arrow, PgUp/PgDn, Esc, a control key — acts at once: held, a
// quick second one would make the first "pasted" and drop it.
func (c *Composer) holds(k tea.KeyPressMsg, g Gate) bool {
	if g.Elsewhere {
		return false
	}
	if g.Form {
		switch keyKindOf(k) {
		case keyText:
			return !g.FormWants // text into a form's text field decides nothing
		case keyEnter, keyNewline, keyTab:
			return !key.Matches(k, c.keys.Quit) // quitting never waits
		}
		return false
	}
	return key.Matches(k, c.keys.Submit) && !c.burst.active
}

// KeyIn takes a key press before it is routed: a decisive key waits
// (Hold); a key within burstGap of the one held makes both a paste
// (Pasted); a key after the wait joins nothing, and the held key acts
// first (Release); any other key acts now (Act). g describes the model
// for k.
func (c *Composer) KeyIn(k tea.KeyPressMsg, g Gate) Verdict {
	now := c.env.Clock.Now()
	if h := c.held; h.on {
		c.held = heldKey{seq: h.seq + 1}
		if now.Sub(h.at) <= burstGap {
			c.pastedFrom(h, g.Form)
			return Verdict{Do: Pasted}
		}
		return Verdict{Do: Release, Key: h.k, at: h.at}
	}
	if c.holds(k, g) {
		c.held = heldKey{k: k, at: now, on: true, seq: c.held.seq + 1}
		seq := c.held.seq
		c.out().Cmd(c.env.Clock.After(holdWindow, func(time.Time) tea.Msg { return holdTickMsg{seq: seq} }))
		return Verdict{Do: Hold}
	}
	return Verdict{Do: Act}
}

// Act routes the released key of v with route (the root's routing), as
// of the key's arrival: the burst detector judges it by when it came.
func (c *Composer) Act(v Verdict, route func(tea.KeyPressMsg) tea.Cmd) tea.Cmd {
	c.heldAt = v.at
	defer func() { c.heldAt = time.Time{} }()
	return route(v.Key)
}

// onHoldTick lets the held key act: no key followed it.
func (c *Composer) onHoldTick(msg holdTickMsg) Verdict {
	h := c.held
	if !h.on || h.seq != msg.seq {
		return Verdict{}
	}
	c.held = heldKey{seq: h.seq}
	return Verdict{Do: Release, Key: h.k, at: h.at}
}

// pastedFrom starts a paste burst with the held key h, which the next key
// followed too soon to be typed: h goes into the composer as text (an
// Enter as a new line, a key that is no text is dropped), and a form
// that had the keys gives them up.
func (c *Composer) pastedFrom(h heldKey, form bool) {
	if form {
		c.out().Want(act.YieldKeys{}) // the form waits for the paste to be sent or cleared
	}
	b := &c.burst
	*b = burst{seq: b.seq + 1, last: h.at, run: 1, runStart: c.buf.Cursor(), gen: c.gen, active: true}
	switch keyKindOf(h.k) {
	case keyText:
		c.insert(h.k.Text)
	case keyEnter, keyNewline:
		c.insert("\n")
		b.lines, b.cr = true, keyKindOf(h.k) == keyEnter
	case keyTab:
		c.insert("\t")
	}
	c.refit()
	c.out().Cmd(c.burstTick(PasteBurstLinesIdle))
}

// Holding reports whether a decisive key waits to see whether a paste
// follows it.
func (c *Composer) Holding() bool { return c.held.on }

// Pasting reports whether keys are not settled yet: a paste burst under
// way, or a decisive key waiting to see whether a paste follows it.
func (c *Composer) Pasting() bool { return c.burst.active || c.held.on }

// Due returns the message the composer's next timer delivers — the held
// key's wait, else the end of a paste burst — or nil when none runs: one
// that moves its clock on itself (a test) delivers it instead of waiting.
func (c *Composer) Due() tea.Msg {
	switch {
	case c.held.on:
		return holdTickMsg{seq: c.held.seq}
	case c.burst.active:
		return burstTickMsg{seq: c.burst.seq}
	}
	return nil
}
