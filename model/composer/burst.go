package composer

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/lib/textedit"
	"tandem/model/act"
)

// A terminal that doesn't bracket pastes — or `tmux paste-buffer` without
// -p — types the pasted text as keys, its newlines as Enter. Codex's TUI
// tells such a paste from typing by its pace (codex-rs/tui paste_burst.rs)
// and so does tandem: keys that come faster than a person types are a
// burst; in a burst Enter is a new line and Tab is text, the slash and
// file popups wait, and the screen is redrawn at most every
// burstFrameEvery. The burst ends when the keys stop (PasteBurstIdle after
// the last, PasteBurstLinesIdle once it has a newline): a large one then
// becomes a placeholder token, as the same text pasted with bracketed
// paste would. Nothing is sent until an Enter after that.
const (
	// burstGap: a key this soon after the one before was not typed by a
	// person (a fast typist leaves 60–100 ms between keys; a paste comes
	// in far under a millisecond a key).
	burstGap = 8 * time.Millisecond
	// burstRun: this many keys in a row, each within burstGap of the one
	// before, are a burst; an Enter, a new line or a Tab within burstGap
	// of a key starts one at once (that Enter must not send).
	burstRun = 3
	// BurstFrameEvery: during a burst the screen is redrawn this often,
	// not after every key (BurstFrame).
	BurstFrameEvery = 100 * time.Millisecond
)

// PasteBurstIdle is how long after its last key a paste burst without a
// newline ends; PasteBurstLinesIdle how long one with a newline does (the
// longer wait rides over a pause in a long paste's delivery). Until then
// an Enter is a new line of the paste. A test that types keys and then
// presses Enter waits this long between the two.
const (
	PasteBurstIdle      = 25 * time.Millisecond
	PasteBurstLinesIdle = 120 * time.Millisecond
)

// largePasteNotice says a paste went in as a placeholder.
const largePasteNotice = "large paste shown as a placeholder — it is sent in full"

// keyKind is what a key is to the burst detector.
type keyKind int

const (
	keyOther   keyKind = iota // anything that is not text: it ends a burst
	keyText                   // a printable key (Text set, no Ctrl/Alt)
	keyEnter                  // Enter (CR)
	keyNewline                // Ctrl+J (LF), Shift+Enter, Alt+Enter
	keyTab
)

func keyKindOf(k tea.KeyPressMsg) keyKind {
	// What the terminal sent, not what a binding means: a paste's
	// newlines come as the Enter (CR) or Ctrl+J (LF) key, its tabs as Tab.
	switch {
	case k.Code == tea.KeyEnter && k.Mod == 0:
		return keyEnter
	case isLF(k), k.Code == tea.KeyEnter && (k.Mod == tea.ModShift || k.Mod == tea.ModAlt):
		return keyNewline
	case k.Code == tea.KeyTab && k.Mod == 0:
		return keyTab
	}
	if k.Text != "" && k.Mod&(tea.ModCtrl|tea.ModAlt|tea.ModMeta|tea.ModSuper|tea.ModHyper) == 0 {
		return keyText
	}
	return keyOther
}

// isLF reports whether k is a line feed: the Ctrl+J key.
func isLF(k tea.KeyPressMsg) bool { return k.Code == 'j' && k.Mod == tea.ModCtrl }

// burst is the detector's state.
type burst struct {
	last     time.Time    // the previous key of a run (zero: none)
	run      int          // keys in a row, each within burstGap of the one before
	runStart textedit.Pos // where the run's first key went in the draft
	gen      int          // the draft's generation at runStart
	active   bool
	lines    bool // the burst holds a newline
	cr       bool // its last key was Enter: a Ctrl+J (LF) right after is CRLF's
	seq      int  // the tick that may end it (older ticks are ignored)
}

// burstTickMsg wakes the composer to end a burst whose keys stopped.
type burstTickMsg struct{ seq int }

func (burstTickMsg) composerMsg() {}

// idle is how long after its last key the burst ends.
func (b *burst) idle() time.Duration {
	if b.lines {
		return PasteBurstLinesIdle
	}
	return PasteBurstIdle
}

// burstTick asks for a burstTickMsg after d.
func (c *Composer) burstTick(d time.Duration) tea.Cmd {
	seq := c.burst.seq
	return c.env.Clock.After(d, func(time.Time) tea.Msg { return burstTickMsg{seq: seq} })
}

// burstKey feeds a key of the composer's to the detector. It reports done
// when the key was handled as part of a burst (or after ending one, with
// the key's route); otherwise the key goes its usual way.
func (c *Composer) burstKey(k tea.KeyPressMsg) (Route, bool) {
	b := &c.burst
	now := c.keyTime()
	kind := keyKindOf(k)
	if b.active && (kind == keyOther || now.Sub(b.last) > b.idle()) {
		// The burst is over: settle it, then take the key afresh.
		c.endBurst()
		return c.Key(k), true
	}
	if kind == keyOther {
		c.burst = burst{seq: b.seq}
		return 0, false
	}
	if !b.active {
		if b.last.IsZero() || now.Sub(b.last) > burstGap {
			// At a person's pace. An Enter or Tab does what it does
			// (send, queue, complete) and no run goes on past it.
			*b = burst{seq: b.seq}
			if kind == keyText || kind == keyNewline {
				b.last, b.run = now, 1
				b.runStart, b.gen = c.buf.Cursor(), c.gen
			}
			return 0, false
		}
		b.run++
		b.last = now
		if kind == keyText && b.run < burstRun {
			return 0, false // perhaps two keys pressed at once
		}
		// A burst: the keys of the run so far were its start.
		b.active = true
		if b.gen != c.gen {
			b.runStart, b.gen = c.buf.Cursor(), c.gen
		}
		b.seq++
		c.out().Cmd(c.burstTick(PasteBurstIdle))
	}
	b.last = now
	switch kind {
	case keyText:
		c.insert(k.Text)
	case keyEnter:
		c.insert("\n")
	case keyNewline:
		if !(b.cr && isLF(k)) { // CRLF is one new line
			c.insert("\n")
		}
	case keyTab:
		c.insert("\t")
	}
	b.lines = b.lines || kind == keyEnter || kind == keyNewline || strings.ContainsAny(k.Text, "\r\n")
	b.cr = kind == keyEnter
	return Handled, true
}

// onBurstTick ends the burst once its keys have stopped for its idle
// time, else waits for the rest of it.
func (c *Composer) onBurstTick(msg burstTickMsg) {
	b := &c.burst
	if !b.active || msg.seq != b.seq {
		return
	}
	if left := b.idle() - c.env.Clock.Now().Sub(b.last); left > 0 {
		c.out().Cmd(c.burstTick(left))
		return
	}
	c.endBurst()
}

// EndBurst settles a paste burst under way, if any (a bracketed paste
// that follows it comes after what came as keys).
func (c *Composer) EndBurst() {
	if c.burst.active {
		c.endBurst()
	}
}

// endBurst settles a burst: the text it typed, when large, becomes one
// placeholder token, and when it is only image paths, chips, as a
// bracketed paste of it would; the popups look at the draft again.
func (c *Composer) endBurst() {
	b := c.burst
	c.burst = burst{seq: b.seq + 1}
	if b.active && b.gen == c.gen {
		text := c.buf.Slice(b.runStart)
		switch _, paths := pastedPaths(text); {
		case isLargePaste(text):
			c.buf.DeleteSlice(b.runStart)
			c.insert(c.addPaste(text))
			c.out().Notice(act.NoticeInfo, largePasteNotice)
		case paths:
			// Dropped image files, typed as keys: chips, as a
			// bracketed paste of them gives (images.go).
			c.buf.DeleteSlice(b.runStart)
			c.pasteImages(text)
		}
	}
	c.refit()
	c.refreshPopup()
}

// BurstGoesOn reports whether msg is a key that continues the paste burst
// under way: it changes the draft only, so the transcript need not be
// flushed for it.
func (c *Composer) BurstGoesOn(msg tea.Msg) bool {
	k, ok := msg.(tea.KeyPressMsg)
	return ok && c.burst.active && keyKindOf(k) != keyOther && c.env.Clock.Now().Sub(c.burst.last) <= c.burst.idle()
}

// BurstFrame reports whether the screen drawn at drawn may be shown
// again: during a burst, until BurstFrameEvery has passed since.
func (c *Composer) BurstFrame(drawn time.Time) bool {
	return c.burst.active && c.env.Clock.Now().Sub(drawn) < BurstFrameEvery
}
