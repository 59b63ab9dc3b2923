package composer

import (
	"strings"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// styles are the textarea's focused styles the draft is drawn with,
// computed once: the cursor's line, the other lines, the prompt.
type styles struct {
	line, cursorLine, prompt lipgloss.Style
}

func newStyles(s textarea.StyleState) styles {
	return styles{
		line:       s.Text.Inherit(s.Base).Inline(true),
		cursorLine: s.CursorLine.Inherit(s.Base).Inline(true),
		prompt:     s.Prompt.Inherit(s.Base).Inline(true),
	}
}

// prompt is "› " on the draft's first row only; wrapped and further
// lines are indented by as much, as in Codex's composer.
func prompt(p textarea.PromptInfo) string {
	if p.LineNumber == 0 {
		return "› "
	}
	return "  "
}

// View draws the composer: the rows of the draft that are scrolled into
// view (Height of them), the prompt before each, the cursor on its cell.
// It costs the rows shown, not the draft.
func (c *Composer) View() string {
	if c.Empty() {
		if c.placeholder == "" {
			c.placeholder = c.ta.View()
		}
		return c.placeholder
	}
	h := c.Height()
	w := c.buf.Width()
	cursorLine := c.buf.Cursor().Row
	rows := c.buf.Window(c.top, h)
	var sb strings.Builder
	for i, r := range rows {
		if i > 0 {
			sb.WriteByte('\n')
		}
		style := c.st.line
		if r.Line == cursorLine {
			style = c.st.cursorLine
		}
		sb.WriteString(style.Render(c.st.prompt.Render(prompt(textarea.PromptInfo{LineNumber: c.top + i}))))
		text, tw := c.fitRow(r.Text, w)
		if r.Cursor < 0 {
			sb.WriteString(style.Render(text))
		} else {
			pre, under, rest := "", " ", ""
			if r.Cursor >= w { // in spaces hanging past the edge: the last cell
				text, tw = c.fitRow(r.Text, w-1)
				pre = text
			} else {
				pre, rest = text[:r.CursorAt], text[r.CursorAt:]
				if r.Under != "" {
					under, rest = r.Under, rest[len(r.Under):]
				}
			}
			cur := c.cur
			cur.TextStyle = style
			cur.SetChar(under)
			sb.WriteString(style.Render(pre))
			sb.WriteString(style.Render(cur.View()))
			sb.WriteString(style.Render(rest))
			if r.Under == "" || r.Cursor >= w {
				tw++ // the cursor's cell after the text
			}
		}
		sb.WriteString(style.Render(strings.Repeat(" ", max(0, w-tw))))
	}
	return sb.String()
}

// fitRow cuts a row's hanging spaces at width w; it returns the row and
// its width as the buffer measures it.
func (c *Composer) fitRow(s string, w int) (string, int) {
	tw := c.buf.TextWidth(s)
	for tw > w && strings.HasSuffix(s, " ") {
		s = s[:len(s)-1]
		tw--
	}
	return s, tw
}

// Blink starts the cursor's blinking again, the cursor shown (a model
// drawn again after its blinks stopped while it was not).
func (c *Composer) Blink() tea.Cmd {
	c.cur.IsBlinked = false
	return c.cur.Blink()
}
