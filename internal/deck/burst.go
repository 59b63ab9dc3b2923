package deck

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/model"
)

// A paste into the list's prompt line (Alt+N, Alt+W, Alt+R) from a
// terminal that does not bracket pastes comes as keys: its text as
// runes, its newlines as Enter. The list tells it from typing by its
// pace, as the composer does (model/composer burst.go): keys faster than
// a person types are a burst, and in a burst an Enter is a space of the
// one-line input, not the Enter that starts the thread — so a pasted
// prompt of several lines is one prompt, and nothing of it becomes a
// filter or opens a thread. The burst ends when the keys stop; the next
// Enter starts the thread.
const (
	// promptBurstGap: a key this soon after the one before was not typed
	// by a person (the composer's gap).
	promptBurstGap = 8 * time.Millisecond
	// promptBurstRun: this many text keys in a row, each within
	// promptBurstGap of the one before, are a burst; an Enter or a Tab
	// that soon after a text key starts one at once.
	promptBurstRun = 3
)

// promptBurst is the prompt line's burst detector.
type promptBurst struct {
	last   time.Time // the previous key of a run (zero: none)
	run    int       // text keys in a row, each within promptBurstGap
	active bool
	lines  bool // an Enter came in the burst: it ends after the longer idle
}

// burstKind is what a key is to the detector: text, a pasted line break
// or tab, or neither (it ends a burst).
type burstKind int

const (
	burstOther burstKind = iota
	burstText
	burstBreak // Enter (CR), Ctrl+J (LF), Tab
)

func burstKindOf(k tea.KeyPressMsg) burstKind {
	switch {
	case (k.Code == tea.KeyEnter || k.Code == tea.KeyTab) && k.Mod == 0, k.Code == 'j' && k.Mod == tea.ModCtrl:
		return burstBreak
	case printable(k):
		return burstText
	}
	return burstOther
}

// idle is how long after its last key the burst ends (the composer's).
func (b *promptBurst) idle() time.Duration {
	if b.lines {
		return model.PasteBurstLinesIdle
	}
	return model.PasteBurstIdle
}

// take feeds a key of the prompt line, taken at now, to the detector: it
// reports whether the key is part of a paste burst (the caller adds it to
// the input as text; a break as a space). Otherwise the key does what it
// does.
func (b *promptBurst) take(k tea.KeyPressMsg, now time.Time) bool {
	kind := burstKindOf(k)
	if b.active && (kind == burstOther || now.Sub(b.last) > b.idle()) {
		*b = promptBurst{} // over: the key is taken afresh
	}
	if kind == burstOther {
		*b = promptBurst{}
		return false
	}
	if !b.active {
		if b.last.IsZero() || now.Sub(b.last) > promptBurstGap {
			*b = promptBurst{} // at a person's pace: an Enter starts the thread
			if kind == burstText {
				b.last, b.run = now, 1
			}
			return false
		}
		b.run++
		if kind == burstText && b.run < promptBurstRun {
			b.last = now
			return false // perhaps two keys pressed at once
		}
		b.active = true
	}
	b.last = now
	b.lines = b.lines || kind == burstBreak
	return true
}

// pasted is the input with a burst's key k added: its text, a break as
// one space (the line is one line, as a bracketed paste makes it).
func pasted(input string, k tea.KeyPressMsg) string {
	if burstKindOf(k) == burstText {
		return input + k.Text
	}
	if input == "" || input[len(input)-1] == ' ' {
		return input
	}
	return input + " "
}

// keyTime is the time a key is taken at, for the burst detector.
func (d *Model) keyTime() time.Time {
	if d.opts.KeyTime != nil {
		return d.opts.KeyTime()
	}
	return d.opts.Now()
}
