package model

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"tandem/ui"
)

// The drawing of --no-alt-screen (scrollback.go): the live area and the
// lines it prints of its own.

// separator is a dim rule naming what follows: "── text ───…" at width.
func separator(st ui.Styles, text string, width int) string {
	line := "── " + text + " "
	if n := width - len([]rune(line)); n > 0 {
		line += strings.Repeat("─", n)
	}
	return st.Dim.Render(ui.Truncate(line, width))
}

// inlineView is View with --no-alt-screen: the live area — the cells not
// printed yet, at most the rows the bottom leaves (their last lines when
// taller) — then the form, composer and status line. Quitting, it is
// empty: what was live has been printed.
func (m *Model) inlineView() tea.View {
	if m.quitting {
		return m.inlineFinish("")
	}
	s, v := &m.sb, &m.view
	if v.deltaOnly && s.frameOK && s.frameW == m.width && s.frameH == m.height && !v.transcript.Pending() {
		return m.inlineFinish(s.frame) // the delta waits for the next frame tick
	}
	bottom := m.bottom()
	live := m.liveLines(m.liveRoom(len(bottom)))
	s.frame = strings.Join(append(live, bottom...), "\n")
	s.frameOK, s.frameW, s.frameH = true, m.width, m.height
	return m.inlineFinish(s.frame)
}

// liveLines returns the live area's lines, at most room of them: when the
// cells are taller, their last lines under a line saying how many are
// above.
func (m *Model) liveLines(room int) []string {
	t := &m.view.transcript
	from := m.sb.liveFrom(t.Cells)
	if m.sb.bulk { // what is finished shows once printed (scrollback.bulk)
		for from < len(t.Cells) && (m.sb.state[t.Cells[from]] != cellLive || m.finished(t.Cells[from], from == len(t.Cells)-1)) {
			from++
		}
	}
	if room <= 0 || from >= len(t.Cells) {
		return nil
	}
	w := m.contentWidth()
	total := t.Sync(m.renderContext(room), m.RenderWidth())
	start := t.Start(from)
	if total-start <= room {
		return t.Window(start, total-start, w)
	}
	lines := t.Window(total-room, room, w)
	if len(lines) > 0 {
		hidden := total - room + 1 - start
		lines[0] = m.styles.Dim.Render(ui.Truncate("  ↑ "+itoa(hidden)+" more lines: printed when done (ctrl+t shows all)", w))
	}
	return lines
}

// inlineFinish wraps the live area in a view: no alternate screen, no
// mouse capture (the wheel scrolls the terminal, selection is the
// terminal's); the title and focus reporting as in the alternate screen
// (notify.go).
func (m *Model) inlineFinish(s string) tea.View {
	v := tea.NewView(s)
	v.WindowTitle = m.windowTitle()
	v.ReportFocus = true // tea.FocusMsg / tea.BlurMsg, for notifications
	return v
}

// rule is the line above the form, a picker or the login form, and the
// composer: a dim rule across the window, or with --no-alt-screen a blank
// line — a line as wide as the window in the live area is left behind
// in the scrollback when a narrowing terminal (tmux, most others) reflows
// it into two rows above the cursor.
func (m *Model) rule(w int) string {
	if m.sb.on {
		return ""
	}
	return m.styles.Dim.Render(strings.Repeat("─", w))
}
