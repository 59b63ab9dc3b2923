package model

import (
	"math"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"tandem/sessions"
)

// composer is the message being written: the textarea, the large pastes
// behind its placeholder tokens (paste.go) and the workspace's prompt
// history (history.go). It is a plain struct the model drives; it sends
// nothing itself.
type composer struct {
	ta    textarea.Model
	width int // the window's width, as WindowSizeMsg set it

	pastes   []pastedText
	pasteSeq int
	imageSeq int // numbers the image chips (images.go)

	// history: hist is the workspace's prompts (oldest first), histPos the
	// entry shown (len(hist) = the draft), draft what was typed before
	// walking it.
	state     *sessions.Store
	workspace string
	hist      []string
	histPos   int
	draft     string
	histOK    bool
}

// promptWidth is the width of the composer's prompt column.
const promptWidth = 2

func newComposer(state *sessions.Store, workspace string) composer {
	ta := textarea.New()
	ta.SetPromptFunc(promptWidth, composerPrompt) // › on the first row only
	ta.Placeholder = "Ask Codex to do anything"
	ta.ShowLineNumbers = false
	// The composer grows with its content up to 8 rows and scrolls after
	// that; content itself is unlimited (a long paste is never cut).
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.MaxHeight = 8
	ta.MaxContentHeight = math.MaxInt32
	ta.SetHeight(1)
	ta.CharLimit = 0
	ta.KeyMap.InsertNewline.SetKeys("shift+enter", "ctrl+j", "alt+enter")
	// Ctrl+V is the model's (clipboard.go), never the textarea's own
	// clipboard read.
	ta.KeyMap.Paste.SetEnabled(false)
	ta.Focus()
	return composer{ta: ta, state: state, workspace: workspace}
}

// composerPrompt is "› " on the draft's first row only; wrapped and
// further lines are indented by as much, as in Codex's composer.
func composerPrompt(p textarea.PromptInfo) string {
	if p.LineNumber == 0 {
		return "› "
	}
	return "  "
}

// Value returns the draft as typed, placeholders included.
func (c *composer) Value() string { return c.ta.Value() }

// Text returns the draft with pastes expanded: what Enter would send.
func (c *composer) Text() string { return c.Expand(c.ta.Value()) }

// View draws the composer.
func (c *composer) View() string { return c.ta.View() }

// Height returns the rows the composer takes.
func (c *composer) Height() int { return c.ta.Height() }

// SetWidth fits the composer to the window's width.
func (c *composer) SetWidth(w int) {
	c.width = w
	c.ta.SetWidth(w)
}

// refit fits the composer's height to its content after the model changed
// its value directly (the textarea's DynamicHeight covers typing).
func (c *composer) refit() {
	// SetWidth with the window's width recomputes the dynamic height from
	// the wrapped rows — a long single line takes several — and keeps the
	// wrap memo, keyed by width.
	if c.width > 0 {
		c.ta.SetWidth(c.width)
	}
}

// SetDraft replaces the draft (a large text becomes a placeholder) and
// puts the history walk back at the draft.
func (c *composer) SetDraft(s string) {
	c.ta.SetValue(c.LargeAsPaste(s))
	c.ta.MoveToEnd()
	c.refit()
	c.histPos = len(c.hist)
}

// Reset empties the draft.
func (c *composer) Reset() {
	c.ta.Reset()
	c.refit()
}

// Key types a key into the draft; Backspace after a placeholder removes
// the whole token. The caller prunes the pastes afterwards (Prune).
func (c *composer) Key(k tea.KeyPressMsg) tea.Cmd {
	if c.backspacePlaceholder(k) {
		c.refit()
		return nil
	}
	var cmd tea.Cmd
	c.ta, cmd = c.ta.Update(k) // DynamicHeight fits the height
	return cmd
}

// update passes other messages (the cursor's blink) to the textarea.
func (c *composer) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	c.ta, cmd = c.ta.Update(msg)
	return cmd
}

// InsertString inserts s at the cursor.
func (c *composer) InsertString(s string) {
	c.ta.InsertString(s)
	c.refit()
}
