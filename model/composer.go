package model

import (
	"strings"

	"charm.land/bubbles/v2/cursor"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/internal/lib/textedit"
	"tandem/model/keys"
	"tandem/sessions"
)

// composer is the message being written: the text (internal/lib/textedit,
// which moves and deletes by grapheme cluster and re-wraps only the rows
// an edit touches), the large pastes behind its placeholder tokens
// (paste.go) and the workspace's prompt history (history.go). It is a
// plain struct the model drives; it sends nothing itself.
type composer struct {
	buf *textedit.Buffer
	// ta draws the empty draft: its placeholder, exactly as the bubbles
	// textarea the composer was built on drew it. It never holds text.
	ta    textarea.Model
	cur   cursor.Model // the virtual cursor over the draft
	st    composerStyles
	width int // the window's width, as WindowSizeMsg set it
	top   int // the first visual row shown
	// dropped: an edit deleted text since the last PruneAfterKey, so a
	// placeholder token may have gone.
	dropped bool
	// gen counts the draft's wholesale replacements (SetDraft, Reset, a
	// history entry): a paste burst's start is void after one.
	gen int
	// placeholder is the empty draft's drawing (the textarea's
	// placeholder) until the textarea changes: every frame of an idle
	// composer, for every guest of a shared session, drew it anew.
	placeholder string

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

const (
	// promptWidth is the width of the composer's prompt column.
	promptWidth = 2
	// composerMaxRows is the composer's height at most; a longer draft
	// scrolls (content itself is unlimited: a long paste is never cut).
	composerMaxRows = 8
	// composerMaxWidth caps the draft's width, as the textarea did.
	composerMaxWidth = 500
)

func newComposer(state *sessions.Store, workspace string) composer {
	ta := textarea.New()
	ta.SetPromptFunc(promptWidth, composerPrompt) // › on the first row only
	ta.Placeholder = "Ask Codex to do anything"
	ta.ShowLineNumbers = false
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.MaxHeight = composerMaxRows
	ta.SetHeight(1)
	ta.CharLimit = 0
	ta.Focus()
	cur := cursor.New()
	cur.Focus()
	return composer{buf: textedit.New(1), ta: ta, cur: cur, st: newComposerStyles(ta.Styles().Focused),
		state: state, workspace: workspace}
}

// composerPrompt is "› " on the draft's first row only; wrapped and
// further lines are indented by as much, as in Codex's composer.
func composerPrompt(p textarea.PromptInfo) string {
	if p.LineNumber == 0 {
		return "› "
	}
	return "  "
}

// SetPlaceholder sets what the empty composer says.
func (c *composer) SetPlaceholder(s string) {
	c.ta.Placeholder = s
	c.placeholder = ""
}

// Value returns the draft as typed, placeholders included (O(length):
// not for every key).
func (c *composer) Value() string { return c.buf.Text() }

// Empty reports whether the draft is empty.
func (c *composer) Empty() bool { return c.buf.Len() == 0 }

// Text returns the draft with pastes expanded: what Enter would send.
func (c *composer) Text() string { return c.Expand(c.buf.Text()) }

// Height returns the rows the composer takes: the draft's rows, 1 to 8.
func (c *composer) Height() int {
	if c.Empty() {
		return c.ta.Height()
	}
	return min(max(c.buf.Rows(), 1), composerMaxRows)
}

// SetWidth fits the composer to the window's width (re-wrapping the
// draft: O(length), once per resize).
func (c *composer) SetWidth(w int) {
	c.width = w
	c.ta.SetWidth(w)
	c.placeholder = ""
	c.buf.SetWidth(max(min(w, composerMaxWidth), promptWidth+1) - promptWidth)
	c.refit()
}

// SetWidthMethod measures the draft as the renderer measures it for the
// terminal (textedit.Buffer.SetMethod).
func (c *composer) SetWidthMethod(m ansi.Method) {
	c.buf.SetMethod(m)
	c.refit()
}

// refit scrolls the draft so the cursor's row is shown, after any change.
func (c *composer) refit() {
	h := c.Height()
	row := c.buf.CursorRow()
	if row < c.top {
		c.top = row
	} else if row >= c.top+h {
		c.top = row - h + 1
	}
	c.top = max(0, min(c.top, c.buf.Rows()-h))
}

// SetDraft replaces the draft (a large text becomes a placeholder) and
// puts the history walk back at the draft.
func (c *composer) SetDraft(s string) {
	c.buf.SetText(c.LargeAsPaste(s))
	c.dropped = true
	c.gen++
	c.refit()
	c.histPos = len(c.hist)
}

// Reset empties the draft.
func (c *composer) Reset() {
	c.buf.SetText("")
	c.dropped = true
	c.gen++
	c.refit()
}

// InsertString inserts s at the cursor.
func (c *composer) InsertString(s string) {
	c.buf.Insert(s)
	c.refit()
}

// InsertNewline starts a new line at the cursor.
func (c *composer) InsertNewline() {
	c.buf.Insert("\n")
	c.refit()
}

// Key applies an editing key to the draft; Backspace after a placeholder
// removes the whole token. The caller prunes the pastes afterwards
// (PruneAfterKey). The command it returns restarts the cursor's blink, or
// reads the clipboard for Ctrl+V.
func (c *composer) Key(k tea.KeyPressMsg, km *keys.Map) tea.Cmd {
	if c.backspacePlaceholder(k, km) {
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

// update passes other messages (the cursors' blink) to the cursor and
// the placeholder's textarea.
func (c *composer) update(msg tea.Msg) tea.Cmd {
	var a, b tea.Cmd
	c.cur, a = c.cur.Update(msg)
	c.ta, b = c.ta.Update(msg)
	c.placeholder = "" // the blink may have changed it
	return tea.Batch(a, b)
}

// popupScanBytes: a draft longer than this is read by the popup only at
// its end (popupDraft).
const popupScanBytes = 4096

// popupDraft is the draft as the popup reads it after every key: the
// whole draft when short; else a space and the last word of its last
// line — a long draft is no slash command, and a mention is its last
// word — so a key costs the same however long the draft is.
func (c *composer) popupDraft() string {
	if c.buf.Len() <= popupScanBytes {
		return c.buf.Text()
	}
	last := c.buf.Line(c.buf.Lines() - 1)
	return " " + last[strings.LastIndexAny(last, " \t")+1:]
}
