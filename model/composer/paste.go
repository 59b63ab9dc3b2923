package composer

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
	"tandem/ui"
)

// A large paste goes into the composer as one placeholder token, as
// Codex's own TUI does: the draft stays small and readable, and the text
// is put back on submit (turn/start, turn/steer, the queue).
const (
	// PasteMaxLines and pasteMaxBytes: a paste of as many lines (newlines)
	// or more bytes becomes a placeholder.
	PasteMaxLines = 500
	pasteMaxBytes = 64 << 10
	// histMaxBytes: a submitted prompt longer than this is kept in the
	// history with its placeholders, not expanded.
	histMaxBytes = 16 << 10
)

// PasteNotSaved notes, in the state file, a history entry kept with its
// placeholder tokens: the pasted text itself is not saved.
const PasteNotSaved = "[pasted text not saved in history]"

// pasted is the content behind one placeholder token: a large paste's
// text, or an attached image (images.go).
type pasted struct {
	label string // "[Pasted text #1 · 11000 lines, 1.4 MB]", "[image 1 · shot.png · 240 KB]"
	text  string
	image *Image
}

// isLargePaste reports whether s goes in as a placeholder.
func isLargePaste(s string) bool {
	return len(s) > pasteMaxBytes || strings.Count(s, "\n") >= PasteMaxLines
}

// Paste takes a paste the root routed to the composer: dropped image
// files become chips (images.go), a large text a placeholder token, a
// small one goes in as typed, at the cursor.
func (c *Composer) Paste(text string) {
	if c.pasteImages(text) {
		return
	}
	if c.pasteText(text) {
		c.out().Notice(act.NoticeInfo, largePasteNotice)
	}
}

// pasteText inserts a paste at the cursor: as typed text when small, as a
// placeholder token when large (reported by large).
func (c *Composer) pasteText(text string) (large bool) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	if isLargePaste(text) {
		c.insert(c.addPaste(text))
		return true
	}
	c.insert(text)
	return false
}

// addPaste keeps s and returns its placeholder token.
func (c *Composer) addPaste(s string) string {
	c.pasteSeq++
	lines := strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1 // a final newline ends the last line
	label := fmt.Sprintf("[Pasted text #%d · %d lines, %s]", c.pasteSeq, lines, ui.ByteSize(int64(len(s))))
	c.pastes = append(c.pastes, pasted{label: label, text: s})
	return label
}

// Expand replaces the placeholder tokens in s by their text, in one
// pass (a paste that contains another token's text is left alone); image
// chips stay (Resolve).
func (c *Composer) Expand(s string) string {
	if len(c.pastes) == 0 {
		return s
	}
	args := make([]string, 0, 2*len(c.pastes))
	for _, p := range c.pastes {
		if p.image == nil && strings.Contains(s, p.label) {
			args = append(args, p.label, p.text)
		}
	}
	if len(args) == 0 {
		return s
	}
	return strings.NewReplacer(args...).Replace(s)
}

// Prune drops the pastes whose token is no longer in the draft, a queued
// prompt (Facts.Queued) or the history: deleting the token drops the
// paste.
func (c *Composer) Prune() {
	c.dropped = false
	if len(c.pastes) == 0 {
		return
	}
	draft := c.buf.Text()
	queued := c.facts().Queued
	used := func(label string) bool {
		if strings.Contains(draft, label) {
			return true
		}
		for _, q := range queued {
			if strings.Contains(q, label) {
				return true
			}
		}
		for _, h := range c.hist.list {
			if strings.Contains(h, label) {
				return true
			}
		}
		return false
	}
	kept := c.pastes[:0]
	for _, p := range c.pastes {
		if used(p.label) || (p.image != nil && p.image.sent) {
			kept = append(kept, p)
		}
	}
	clear(c.pastes[len(kept):])
	c.pastes = kept
}

// HistEntry is what the history keeps of a submitted draft: the expanded
// text when it is small, else the draft with its placeholder tokens
// (which still expand while this session keeps the paste).
func (c *Composer) HistEntry(raw, text string) string {
	// text keeps its image chips (Expand leaves them), so Up brings the
	// images back too.
	if raw == text || (len(text) <= histMaxBytes && !isLargePaste(text)) {
		return text
	}
	return raw
}

// LargeAsPaste turns a large text that comes back to the composer (a
// failed turn or steer, the editor) into a placeholder token.
func (c *Composer) LargeAsPaste(s string) string {
	if isLargePaste(s) {
		return c.addPaste(s)
	}
	return s
}

// rememberDraft puts a draft about to be discarded (Ctrl+C) into the
// history, so Up brings it back, in this run and the next.
func (c *Composer) rememberDraft() {
	raw := c.buf.Text()
	if strings.TrimSpace(raw) == "" {
		return
	}
	// Kept like a sent prompt, in the workspace's saved history too, so
	// it survives quitting (AddHistory).
	c.AddHistory(c.HistEntry(raw, c.Expand(raw)))
}

// hasPaste reports whether s holds a live large paste's token.
func (c *Composer) hasPaste(s string) bool {
	for _, p := range c.pastes {
		if p.image == nil && strings.Contains(s, p.label) {
			return true
		}
	}
	return false
}

// backspacePlaceholder deletes a whole placeholder token when Backspace
// is pressed just after it (the paste is then dropped by Prune).
func (c *Composer) backspacePlaceholder(k tea.KeyPressMsg) bool {
	if len(c.pastes) == 0 || !key.Matches(k, c.keys.DeleteBack) {
		return false
	}
	before := c.buf.Before()
	for _, p := range c.pastes {
		if strings.HasSuffix(before, p.label) {
			c.buf.DeleteBefore(len(p.label))
			return true
		}
	}
	return false
}
