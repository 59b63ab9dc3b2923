package model

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tandem/model/keys"
	"tandem/ui"
)

// A large paste goes into the composer as one placeholder token, as
// Codex's own TUI does: the draft stays small and readable, and the text
// is put back on submit (turn/start, turn/steer, the queue).
const (
	// pasteMaxLines and pasteMaxBytes: a paste over either becomes a
	// placeholder.
	pasteMaxLines = 500
	pasteMaxBytes = 64 << 10
	// histMaxBytes: a submitted prompt longer than this is kept in the
	// history with its placeholders, not expanded.
	histMaxBytes = 16 << 10
)

// pasteNotSaved notes, in the state file, a history entry kept with its
// placeholder tokens: the pasted text itself is not saved.
const pasteNotSaved = "[pasted text not saved in history]"

// pastedText is the content behind one placeholder token: a large
// paste's text, or an attached image (images.go).
type pastedText struct {
	label string // "[Pasted text #1 · 11000 lines, 1.4 MB]", "[image 1 · shot.png · 240 KB]"
	text  string
	image *imageChip
}

// isLargePaste reports whether s goes in as a placeholder.
func isLargePaste(s string) bool {
	return len(s) > pasteMaxBytes || strings.Count(s, "\n") >= pasteMaxLines
}

// onPaste takes a bracketed paste, after settling a paste burst under way
// (burst.go: what came as keys goes first).
func (m *Model) onPaste(text string) tea.Cmd {
	var ended tea.Cmd
	if m.burst.active {
		ended = m.endBurst()
	}
	return tea.Batch(ended, m.paste(text))
}

// paste routes a paste: to the shown form once it has the keys, to the
// login form's key field, else into the composer at the cursor.
func (m *Model) paste(text string) tea.Cmd {
	if m.overlay.Paste(text) { // model/overlay: the login form's key, the form's field
		return nil
	}
	yield := m.apply()                      // a form that yielded the keys says so before the paste's notice
	if cmd, ok := m.pasteImages(text); ok { // imagepaste.go: dropped image files
		return tea.Batch(yield, cmd)
	}
	if m.composer.Paste(text) {
		m.setNotice(noticeInfo, "large paste shown as a placeholder — it is sent in full")
	}
	return yield
}

// Paste inserts a paste at the cursor: as typed text when small, as a
// placeholder token when large (reported by large).
func (c *composer) Paste(text string) (large bool) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	if isLargePaste(text) {
		c.InsertString(c.addPaste(text))
		return true
	}
	c.InsertString(text)
	return false
}

// addPaste keeps s and returns its placeholder token.
func (c *composer) addPaste(s string) string {
	c.pasteSeq++
	lines := strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1 // a final newline ends the last line
	label := fmt.Sprintf("[Pasted text #%d · %d lines, %s]", c.pasteSeq, lines, ui.ByteSize(int64(len(s))))
	c.pastes = append(c.pastes, pastedText{label: label, text: s})
	return label
}

// Expand replaces the placeholder tokens in s by their text, in one
// pass (a paste that contains another token's text is left alone).
func (c *composer) Expand(s string) string {
	if len(c.pastes) == 0 {
		return s
	}
	args := make([]string, 0, 2*len(c.pastes))
	for _, p := range c.pastes {
		if p.image == nil && strings.Contains(s, p.label) { // image chips stay (Resolve)
			args = append(args, p.label, p.text)
		}
	}
	if len(args) == 0 {
		return s
	}
	return strings.NewReplacer(args...).Replace(s)
}

// PruneAfterKey is Prune after a key: only when the key deleted text, so
// typing costs nothing more with a placeholder in the draft.
func (c *composer) PruneAfterKey(queued []string) {
	if c.dropped {
		c.Prune(queued)
	}
}

// Prune drops the pastes whose token is no longer in the draft, queued
// (the prompts waiting for the next turns) or the history: deleting the
// token drops the paste.
func (c *composer) Prune(queued []string) {
	c.dropped = false
	if len(c.pastes) == 0 {
		return
	}
	draft := c.buf.Text()
	used := func(label string) bool {
		if strings.Contains(draft, label) {
			return true
		}
		for _, q := range queued {
			if strings.Contains(q, label) {
				return true
			}
		}
		for _, h := range c.hist {
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
func (c *composer) HistEntry(raw, text string) string {
	// text keeps its image chips (Expand leaves them), so Up brings the
	// images back too.
	if raw == text || (len(text) <= histMaxBytes && !isLargePaste(text)) {
		return text
	}
	return raw
}

// LargeAsPaste turns a large text that comes back to the composer (a
// failed turn or steer, the editor) into a placeholder token.
func (c *composer) LargeAsPaste(s string) string {
	if isLargePaste(s) {
		return c.addPaste(s)
	}
	return s
}

// RememberDraft puts a draft about to be discarded (Ctrl+C) into the
// history, so Up brings it back, in this run and the next.
func (c *composer) RememberDraft() {
	raw := c.buf.Text()
	if strings.TrimSpace(raw) == "" {
		return
	}
	// Kept like a sent prompt, in the workspace's saved history too, so
	// it survives quitting (AddHistory).
	c.AddHistory(c.HistEntry(raw, c.Expand(raw)))
}

// hasPaste reports whether s holds a live large paste's token.
func (c *composer) hasPaste(s string) bool {
	for _, p := range c.pastes {
		if p.image == nil && strings.Contains(s, p.label) {
			return true
		}
	}
	return false
}

// backspacePlaceholder deletes a whole placeholder token when Backspace
// is pressed just after it (the paste is then dropped by Prune).
func (c *composer) backspacePlaceholder(k tea.KeyPressMsg, km *keys.Map) bool {
	if len(c.pastes) == 0 || !key.Matches(k, km.DeleteBack) {
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
