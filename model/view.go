package model

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"tandem/ui"
)

func (m *Model) contentWidth() int { return max(20, m.width) }

// chromeHeight is the height of everything below the transcript.
func (m *Model) bottom() []string {
	var out []string
	if m.form != nil {
		fv := strings.TrimRight(m.form.View(), "\n")
		out = append(out, m.styles.Dim.Render(strings.Repeat("─", m.contentWidth())))
		out = append(out, strings.Split(fv, "\n")...)
	}
	out = append(out, m.styles.Dim.Render(strings.Repeat("─", m.contentWidth())))
	out = append(out, strings.Split(m.composer.View(), "\n")...)
	m.status.Running = m.running
	m.status.Spinner = m.spin.View()
	if m.running {
		m.status.Elapsed = m.now().Sub(m.turnStarted)
	}
	out = append(out, ui.StatusLine(m.styles, m.status, m.contentWidth()))
	return out
}

func (m *Model) transcriptHeight() int {
	return max(1, m.height-len(m.bottom()))
}

// View implements tea.Model: the transcript, bottom-aligned and scrolled,
// then the inline form (if any), the composer and the status line.
func (m *Model) View() tea.View {
	if m.width == 0 || m.height == 0 {
		return tea.NewView("")
	}
	w := m.contentWidth()
	bottom := m.bottom()
	h := max(1, m.height-len(bottom))
	lines := m.transcript.Lines(m.rctx, w)
	maxTop := max(0, len(lines)-h)
	top := m.top
	if m.follow || top > maxTop {
		top = maxTop
	}
	visible := lines[top:min(len(lines), top+h)]
	screen := make([]string, 0, m.height)
	for i := len(visible); i < h; i++ {
		screen = append(screen, "")
	}
	if !m.follow && top < maxTop && len(visible) > 0 {
		visible = append([]string(nil), visible...)
		visible[len(visible)-1] = m.styles.Dim.Render(ui.Truncate("↓ more below (PgDn)", w))
	}
	screen = append(screen, visible...)
	screen = append(screen, bottom...)
	if len(screen) > m.height {
		screen = screen[len(screen)-m.height:]
	}
	v := tea.NewView(strings.Join(screen, "\n"))
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "tandem"
	return v
}
