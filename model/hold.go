package model

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// A paste that arrives as keys is told from typing by its pace (burst.go),
// but only from its second key on: its first key, alone, looks typed. So a
// decisive first key — an Enter that would send the draft, or any key
// but text for a text field while an approval or question form has the
// keyboard — waits holdWindow
// before it acts. A key that follows within burstGap makes both part of a
// paste: it goes into the composer, never to the form, and the Enter is a
// new line (a paste of "\nx", or "↓ Enter x", can't answer an approval;
// "hello" typed, then "\rworld" pasted, sends nothing). A key that stands
// alone acts when the window ends, a delay no one notices.

// holdWindow is how long a decisive key waits for a next one.
const holdWindow = 15 * time.Millisecond

// heldKey is the decisive key waiting (on), and when it came.
type heldKey struct {
	k   tea.KeyPressMsg
	at  time.Time
	on  bool
	seq int
}

// keyTime is when the key being handled came: a held key's own time
// while it acts (the detector judges it by its arrival), else now.
func (m *Model) keyTime() time.Time {
	if !m.heldAt.IsZero() {
		return m.heldAt
	}
	return m.opts.KeyNow()
}

// release lets the held key h act, as of its arrival.
func (m *Model) release(h heldKey) tea.Cmd {
	m.heldAt = h.at
	defer func() { m.heldAt = time.Time{} }()
	return m.onKey(h.k)
}

// holdTickMsg ends the wait of the key held as seq.
type holdTickMsg struct{ seq int }

// holds reports whether k waits before acting: every key while a form has
// the keyboard, and an Enter in the composer outside a burst (in one, it
// is a new line already).
func (m *Model) holds(k tea.KeyPressMsg) bool {
	if m.opts.ReadOnly || m.panes.PagerOpen() || m.overlay.Open() {
		return false
	}
	if m.overlay.HasKeys() {
		if keyKindOf(k) == keyText && m.overlay.Wants(k) {
			return false // text into a form's text field decides nothing
		}
		return !key.Matches(k, m.keys.Quit) // quitting never waits
	}
	return key.Matches(k, m.keys.Submit) && !m.burst.active
}

// keyIn takes a key press: it waits if it is decisive, joins the key held
// before it into a paste when it came within burstGap, else acts.
func (m *Model) keyIn(k tea.KeyPressMsg) tea.Cmd {
	now := m.opts.KeyNow()
	if h := m.held; h.on {
		m.held = heldKey{seq: h.seq + 1}
		if now.Sub(h.at) <= burstGap {
			return m.pastedFrom(h, k)
		}
		first := m.release(h)
		return tea.Batch(first, m.keyIn(k))
	}
	if m.holds(k) {
		m.held = heldKey{k: k, at: now, on: true, seq: m.held.seq + 1}
		seq := m.held.seq
		return tea.Tick(holdWindow, func(time.Time) tea.Msg { return holdTickMsg{seq: seq} })
	}
	return m.onKey(k)
}

// onHoldTick lets the held key act: no key followed it.
func (m *Model) onHoldTick(msg holdTickMsg) tea.Cmd {
	h := m.held
	if !h.on || h.seq != msg.seq {
		return nil
	}
	m.held = heldKey{seq: h.seq}
	return m.release(h)
}

// pastedFrom starts a paste burst with the held key h, which k followed
// too soon to be typed: h goes into the composer as text (an Enter as a
// new line, a key that is no text is dropped), the form gives the
// keyboard up, and k goes on as the burst's next key.
func (m *Model) pastedFrom(h heldKey, k tea.KeyPressMsg) tea.Cmd {
	if m.overlay.HasKeys() {
		m.overlay.Yield() // model/overlay: the form waits for the paste to be sent or cleared
	}
	c := &m.composer
	b := &m.burst
	*b = burst{seq: b.seq + 1, last: h.at, run: 1, runStart: c.buf.Cursor(), gen: c.gen, active: true}
	switch keyKindOf(h.k) {
	case keyText:
		c.InsertString(h.k.Text)
	case keyEnter, keyNewline:
		c.InsertNewline()
		b.lines, b.cr = true, keyKindOf(h.k) == keyEnter
	case keyTab:
		c.InsertString("\t")
	}
	c.refit()
	tick := b.tick(PasteBurstLinesIdle)
	return tea.Batch(tick, m.onKey(k))
}
