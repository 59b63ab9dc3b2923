package model

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"tandem/ui"
)

func (m *Model) contentWidth() int { return max(20, m.width) }

// drawBottom draws everything below the transcript (bottom caches it).
func (m *Model) drawBottom() []string {
	var out, form []string
	if m.form != nil {
		fv := strings.TrimRight(m.form.View(), "\n")
		form = append(form, m.styles.Dim.Render(strings.Repeat("─", m.contentWidth())))
		form = append(form, strings.Split(fv, "\n")...)
		if q := m.queueLine(); q != "" {
			form = append(form, q)
		}
	} else if w := m.waitingLine(); w != "" {
		out = append(out, w)
	}
	out = append(out, m.extAbove()...)
	out = append(out, m.styles.Dim.Render(strings.Repeat("─", m.contentWidth())))
	out = append(out, strings.Split(m.composer.View(), "\n")...)
	m.status.Running = m.running
	m.status.Spinner = m.spin.View()
	if m.running {
		m.status.Elapsed = m.now().Sub(m.turnStarted)
	}
	out = append(out, ui.StatusLine(m.styles, m.status, m.contentWidth()))
	if over := len(form) + len(out) - m.height; over > 0 && m.height > 0 && len(form) > 0 {
		// A form taller than the screen (a very short terminal) loses its
		// last rows, never its first: the question or command and the
		// highlighted choice are at the top (forms/fit.go).
		form = form[:max(2, len(form)-over)]
	}
	return append(form, out...)
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
	if m.tv.pager != nil {
		return m.finishView(m.pagerView())
	}
	// A streaming delta that changes nothing drawn yet (its cell re-renders
	// on the next frame tick) reuses the last frame: a delta then costs
	// O(1), not a frame.
	if m.tv.deltaOnly && m.tv.frameOK && m.tv.frameW == m.width && m.tv.frameH == m.height && !m.transcript.Pending() {
		return m.finishView(m.tv.frame)
	}
	bottom := m.bottom()
	if m.form != nil {
		m.grace.drawn = true // grace.go: the form is on screen
	}
	h := max(1, m.height-len(bottom))
	// Only the visible cells' lines are touched: Sync re-renders changed
	// cells (live ones once a frame), Window slices by line counts.
	// Following the bottom, only the last h lines are on screen: what lies
	// above may be laid out cheaply until the user scrolls up (ui.Lazy).
	m.rctx.Tail = h
	if !m.follow {
		m.rctx.Tail = m.visibleTail(m.top, h)
	}
	total := m.transcript.Sync(m.rctx, m.RenderWidth())
	maxTop := max(0, total-h)
	top := m.top
	if m.follow || top > maxTop {
		top = maxTop
	}
	visible := m.transcript.Window(top, h, w)
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
	m.tv.frame = strings.Join(screen, "\n")
	m.tv.frameOK, m.tv.frameW, m.tv.frameH = true, m.width, m.height
	return m.finishView(m.tv.frame)
}

// finishView wraps the screen text in a view: alt screen, title, and the
// mouse captured unless the user released it (keyMouse).
func (m *Model) finishView(s string) tea.View {
	v := tea.NewView(s)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	if m.tv.mouseOff {
		v.MouseMode = tea.MouseModeNone
	}
	v.WindowTitle = "tandem"
	return v
}
