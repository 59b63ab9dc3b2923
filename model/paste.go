package model

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// A large paste goes into the composer as one placeholder token, as
// Codex's own TUI does: the textarea stays small (it cuts content past
// 10,000 lines, and its per-key cost grows with the draft), and the text
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

// quitHint ends the status notice while Ctrl+C is armed to quit.
const quitHint = "press Ctrl+C again to quit"

// pastedText is the content behind one placeholder token.
type pastedText struct {
	label string // "[Pasted text #1 · 11000 lines, 1.4 MB]"
	text  string
}

// draftState is the composer's state beside the textarea: pasted text
// behind placeholders, the command line's prompt held for the login
// check, and the pending interrupt.
type draftState struct {
	pastes   []pastedText
	pasteSeq int
	// held is Options.Prompt, kept until `account/read` says no login is
	// needed, or the login form completes or is skipped.
	held string
	// interruptSent is when turn/interrupt was sent for the running
	// turn (zero: none); a further Ctrl+C arms quit instead of resending.
	interruptSent time.Time
}

// isLargePaste reports whether s goes in as a placeholder.
func isLargePaste(s string) bool {
	return len(s) > pasteMaxBytes || strings.Count(s, "\n") >= pasteMaxLines
}

// addPaste keeps s and returns its placeholder token.
func (m *Model) addPaste(s string) string {
	m.d.pasteSeq++
	lines := strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1 // a final newline ends the last line
	label := fmt.Sprintf("[Pasted text #%d · %d lines, %s]", m.d.pasteSeq, lines, humanBytes(len(s)))
	m.d.pastes = append(m.d.pastes, pastedText{label: label, text: s})
	return label
}

func humanBytes(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}

// onPaste inserts a paste at the cursor: as typed text when small, as a
// placeholder token when large.
func (m *Model) onPaste(text string) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	if isLargePaste(text) {
		m.composer.InsertString(m.addPaste(text))
		m.status.Notice = "large paste shown as a placeholder — it is sent in full"
	} else {
		m.composer.InsertString(text)
	}
	m.resizeComposer()
}

// expandPastes replaces the placeholder tokens in s by their text, in one
// pass (a paste that contains another token's text is left alone).
func (m *Model) expandPastes(s string) string {
	if len(m.d.pastes) == 0 {
		return s
	}
	args := make([]string, 0, 2*len(m.d.pastes))
	for _, p := range m.d.pastes {
		if strings.Contains(s, p.label) {
			args = append(args, p.label, p.text)
		}
	}
	if len(args) == 0 {
		return s
	}
	return strings.NewReplacer(args...).Replace(s)
}

// draftText is the composer's draft with pastes expanded: what Enter
// would send.
func (m *Model) draftText() string { return m.expandPastes(m.composer.Value()) }

// prunePastes drops the pastes whose token is no longer in the draft, the
// queue or the history (deleting the token drops the paste).
func (m *Model) prunePastes() {
	if len(m.d.pastes) == 0 {
		return
	}
	draft := m.composer.Value()
	used := func(label string) bool {
		if strings.Contains(draft, label) {
			return true
		}
		for _, q := range m.x.queued {
			if strings.Contains(q, label) {
				return true
			}
		}
		for _, h := range m.x.hist {
			if strings.Contains(h, label) {
				return true
			}
		}
		return false
	}
	kept := m.d.pastes[:0]
	for _, p := range m.d.pastes {
		if used(p.label) {
			kept = append(kept, p)
		}
	}
	clear(m.d.pastes[len(kept):])
	m.d.pastes = kept
}

// histEntry is what the history keeps of a submitted draft: the expanded
// text when it is small, else the draft with its placeholder tokens
// (which still expand while this session keeps the paste).
func (m *Model) histEntry(raw, text string) string {
	if raw == text || (len(text) <= histMaxBytes && !isLargePaste(text)) {
		return text
	}
	return raw
}

// largeAsPaste turns a large text that comes back to the composer (a
// failed turn or steer, the editor) into a placeholder token.
func (m *Model) largeAsPaste(s string) string {
	if isLargePaste(s) {
		return m.addPaste(s)
	}
	return s
}

// rememberDraft puts a draft about to be discarded (Ctrl+C) into the
// history, so Up brings it back, in this run and the next.
func (m *Model) rememberDraft() {
	raw := m.composer.Value()
	if strings.TrimSpace(raw) == "" {
		return
	}
	// Kept like a sent prompt, in the workspace's saved history too, so
	// it survives quitting (addHistory).
	m.addHistory(m.histEntry(raw, m.expandPastes(raw)))
}

// holdPrompt keeps the command line's prompt until the login check is
// done (releasePrompt); without a thread driver nothing is checked and
// it is sent at once.
func (m *Model) holdPrompt(p string) tea.Cmd {
	if _, ok := m.threadDriver(); !ok {
		return m.submit(p)
	}
	m.d.held = p
	m.status.Notice = "checking the login before sending your prompt…"
	return nil
}

// releasePrompt sends the held prompt once no login is needed, or the
// login form completed or was skipped. When a turn or a thread switch is
// under way it goes to the front of the queue instead; it is never lost.
func (m *Model) releasePrompt() tea.Cmd {
	p := m.d.held
	if p == "" {
		return nil
	}
	m.d.held = ""
	if strings.HasPrefix(m.status.Notice, "checking the login") {
		m.status.Notice = ""
	}
	if !m.ready || m.driver == nil || m.running || m.startingTurn || m.x.switching {
		m.x.queued = append([]string{p}, m.x.queued...)
		return m.flushQueue()
	}
	return m.submit(p)
}

// ctrlCInterrupting handles Ctrl+C during a turn: the first sends
// turn/interrupt; while that is unanswered (no turn/completed yet) a
// further one arms quit (done = false lets onKey arm or quit).
func (m *Model) ctrlCInterrupting() (tea.Cmd, bool) {
	if m.d.interruptSent.IsZero() {
		return m.interrupt(), true
	}
	return nil, false
}

// pasteNotSaved notes, in the state file, a history entry kept with its
// placeholder tokens: the pasted text itself is not saved.
const pasteNotSaved = "[pasted text not saved in history]"

// hasPaste reports whether s holds a live placeholder token.
func (m *Model) hasPaste(s string) bool {
	for _, p := range m.d.pastes {
		if strings.Contains(s, p.label) {
			return true
		}
	}
	return false
}

// backspacePlaceholder deletes a whole placeholder token when Backspace
// is pressed just after it (the paste is then dropped by prunePastes).
func (m *Model) backspacePlaceholder(k tea.KeyPressMsg) bool {
	if len(m.d.pastes) == 0 || (k.String() != "backspace" && k.String() != "ctrl+h") {
		return false
	}
	lines := strings.Split(m.composer.Value(), "\n")
	row, col := m.composer.Line(), m.composer.Column()
	if row >= len(lines) {
		return false
	}
	line := []rune(lines[row])
	if col > len(line) {
		return false
	}
	before := string(line[:col])
	for _, p := range m.d.pastes {
		if strings.HasSuffix(before, p.label) {
			for range utf8.RuneCountInString(p.label) {
				m.composer, _ = m.composer.Update(k)
			}
			return true
		}
	}
	return false
}
