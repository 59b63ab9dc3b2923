package composer

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tandem/internal/lib/textedit"
	"tandem/model/act"
)

// Route says who goes on with a key the composer's side had (Key).
type Route int

const (
	// Handled: the composer did what the key does.
	Handled Route = iota
	// Global: a key of the whole screen (Ctrl+C, scrolling): the root's.
	Global
	// Typed: not one of the composer's own keys: the root's keys see it
	// first, then the draft's editing (Edit); the popup then follows the
	// draft (Follow).
	Typed
)

// Key takes a key while the composer's side has the keyboard (no form,
// pager, login form or picker has it): a paste burst under way takes it
// (burst.go); the open popup takes its keys; Enter submits (act.Submit),
// Tab while a turn runs queues (act.Queue), Up and Down walk the history,
// Ctrl+R searches it (act.Pick), Ctrl+G opens $EDITOR, Ctrl+V
// reads the clipboard. Any other key goes back to the root (Route).
func (c *Composer) Key(k tea.KeyPressMsg) Route {
	if r, done := c.burstKey(k); done { // burst.go: a paste typed as keys
		return r
	}
	km := c.keys
	if key.Matches(k, km.Quit, km.ScrollUp, km.ScrollDown) {
		return Global
	}
	if pp := c.popup; pp.active() && (len(pp.items) > 0 || key.Matches(k, km.ListClose)) &&
		key.Matches(k, km.ListUp, km.ListDown, km.ListComplete, km.ListChoose, km.ListClose) {
		c.popupKey(k)
		return Handled
	}
	switch {
	case key.Matches(k, km.Submit):
		c.out().Want(c.Submission())
		return Handled
	case key.Matches(k, km.Queue):
		if c.facts().Busy {
			c.out().Want(act.Queue{Raw: c.Value()})
			return Handled
		}
	case key.Matches(k, km.HistoryPrev):
		if c.historyUp() {
			return Handled
		}
	case key.Matches(k, km.HistoryNext):
		if c.historyDown() {
			return Handled
		}
	case key.Matches(k, km.HistorySearch):
		c.out().Want(c.promptSearch()) // prompts.go
		return Handled
	case key.Matches(k, km.Editor):
		c.openEditor()
		return Handled
	case key.Matches(k, km.Clipboard):
		c.ReadClipboard() // clipboard.go
		return Handled
	}
	return Typed
}

// Follow lets the popup follow the draft after a key the root handled
// (Route Typed).
func (c *Composer) Follow() { c.refreshPopup() }

// Edit applies an editing key to the draft (a key no one else took):
// text goes in at the cursor; Backspace after a placeholder removes the
// whole token, and the paste behind a token gone is dropped.
func (c *Composer) Edit(k tea.KeyPressMsg) {
	c.out().Cmd(c.edit(k))
	if c.dropped { // only when the key deleted text: typing costs nothing more with a token in the draft
		c.Prune()
	}
}

// edit applies k; the command it returns restarts the cursor's blink.
func (c *Composer) edit(k tea.KeyPressMsg) tea.Cmd {
	km := c.keys
	if c.backspacePlaceholder(k) {
		c.dropped = true
		c.refit()
		return nil
	}
	b := c.buf
	switch {
	case key.Matches(k, km.Newline):
		b.Insert("\n")
	case key.Matches(k, km.DeleteBack):
		c.dropped = b.Backspace() || c.dropped
	case key.Matches(k, km.DeleteForward):
		c.dropped = b.Delete() || c.dropped
	case key.Matches(k, km.DeleteWordBack):
		c.dropped = b.DeleteWordLeft() || c.dropped
	case key.Matches(k, km.DeleteWordForward):
		c.dropped = b.DeleteWordRight() || c.dropped
	case key.Matches(k, km.KillToEnd):
		c.dropped = b.KillToEnd() || c.dropped
	case key.Matches(k, km.KillToStart):
		c.dropped = b.KillToStart() || c.dropped
	case key.Matches(k, km.Left):
		b.Left()
	case key.Matches(k, km.Right):
		b.Right()
	case key.Matches(k, km.WordLeft):
		b.WordLeft()
	case key.Matches(k, km.WordRight):
		b.WordRight()
	case key.Matches(k, km.Up):
		b.Up()
	case key.Matches(k, km.Down):
		b.Down()
	case key.Matches(k, km.LineStart):
		b.Home()
	case key.Matches(k, km.LineEnd):
		b.End()
	case key.Matches(k, km.DraftStart):
		b.Top()
	case key.Matches(k, km.DraftEnd):
		b.Bottom()
	case key.Matches(k, km.Upcase):
		b.Case(textedit.Upper)
	case key.Matches(k, km.Downcase):
		b.Case(textedit.Lower)
	case key.Matches(k, km.Capitalize):
		b.Case(textedit.Capital)
	default:
		if k.Text == "" {
			return nil
		}
		b.Insert(k.Text)
	}
	c.refit()
	c.cur.IsBlinked = false // a key shows the cursor at once
	return c.cur.Blink()
}

// popupScanBytes: a draft longer than this is read by the popup only at
// its end (popupDraft).
const popupScanBytes = 4096

// popupDraft is the draft as the popup reads it after every key: the
// whole draft when short; else a space and the last word of its last
// line — a long draft is no slash command, and a mention is its last
// word — so a key costs the same however long the draft is.
func (c *Composer) popupDraft() string {
	if c.buf.Len() <= popupScanBytes {
		return c.buf.Text()
	}
	last := c.buf.Line(c.buf.Lines() - 1)
	return " " + last[strings.LastIndexAny(last, " \t")+1:]
}
