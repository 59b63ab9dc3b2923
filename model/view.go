package model

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/ui"
)

// View implements tea.Model: the transcript, bottom-aligned and scrolled,
// then the inline form (if any), the composer and the status line. It
// changes nothing the model decides by; it only fills render caches (the
// transcript's cells, the last frame), which depend on the model alone.
func (m *Model) View() tea.View {
	if m.width == 0 || m.height == 0 {
		return tea.NewView("")
	}
	if !m.altScreen() { // --no-alt-screen: the live area only (scrollback.go)
		return m.inlineView()
	}
	if m.pager != nil {
		return m.finishView(m.pager.view(m.styles, m.contentWidth(), m.height))
	}
	if m.requests.full && m.requests.form != nil {
		return m.finishView(m.fullFormView()) // formwhole.go
	}
	v := &m.view
	// A streaming delta that changes nothing drawn yet (its cell re-renders
	// on the next frame tick) reuses the last frame: a delta then costs
	// O(1), not a frame.
	// So does a key of a paste burst, but for a redraw every
	// BurstFrameEvery (model/composer).
	if (v.deltaOnly || m.composer.BurstFrame(v.frameAt)) && v.frameOK && v.frameW == m.width && v.frameH == m.height && !v.transcript.Pending() {
		return m.finishView(v.frame)
	}
	w := m.contentWidth()
	bottom := m.bottom()
	h := max(1, m.height-len(bottom))
	// Only the visible cells' lines are touched: Sync re-renders changed
	// cells (live ones once a frame), Window slices by line counts.
	// Following the bottom, only the last h lines are on screen: what lies
	// above may be laid out cheaply until the user scrolls up (ui.Lazy).
	tail := h
	if !v.follow {
		tail = m.visibleTail(v.top, h)
	}
	total := v.transcript.Sync(m.renderContext(tail), m.RenderWidth())
	maxTop := max(0, total-h)
	top := v.top
	if v.follow || top > maxTop {
		top = maxTop
	}
	visible := v.transcript.Window(top, h, w)
	screen := make([]string, 0, m.height)
	for i := len(visible); i < h; i++ {
		screen = append(screen, "")
	}
	if !v.follow && top < maxTop && len(visible) > 0 {
		visible = append([]string(nil), visible...)
		visible[len(visible)-1] = m.styles.Dim.Render(ui.Truncate("↓ more below (PgDn)", w))
	}
	screen = append(screen, visible...)
	screen = append(screen, bottom...)
	if len(screen) > m.height {
		screen = screen[len(screen)-m.height:]
	}
	v.frame = strings.Join(screen, "\n")
	v.frameOK, v.frameW, v.frameH, v.frameAt = true, m.width, m.height, m.env.Clock.Now()
	return m.finishView(v.frame)
}

// finishView wraps the screen text in a view: alt screen, title, and the
// mouse captured unless the user released it (keyMouse).
func (m *Model) finishView(s string) tea.View {
	v := tea.NewView(s)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	if m.mouseOff {
		v.MouseMode = tea.MouseModeNone
	}
	v.WindowTitle = m.windowTitle() // notify.go
	v.ReportFocus = true            // tea.FocusMsg / tea.BlurMsg, for notifications
	return v
}

// bottom returns everything below the transcript: the form, the composer
// and the status line. A streaming delta changes none of it, so the last
// drawing is reused then (the composer alone costs ~50 µs to draw).
func (m *Model) bottom() []string {
	v := &m.view
	// A frame tick changes nothing below the transcript but the turn's
	// elapsed seconds: a shared session's every guest ticks, so the
	// bottom drawn a moment ago serves until the second turns.
	sec := m.elapsedSecond()
	if (v.deltaOnly || v.tickOnly && sec == v.bottomSec) && v.bottomLines != nil && v.bottomW == m.width {
		return v.bottomLines
	}
	v.bottomLines, v.bottomW, v.bottomSec = m.drawBottom(), m.width, sec
	return v.bottomLines
}

// elapsedSecond is the running turn's elapsed whole seconds, as the
// status line shows them (-1 when none runs).
func (m *Model) elapsedSecond() int64 {
	if !m.turn.running {
		return -1
	}
	return int64(m.now().Sub(m.turn.started) / time.Second)
}

// drawBottom draws everything below the transcript (bottom caches it).
func (m *Model) drawBottom() []string {
	w := m.contentWidth()
	var out, form []string
	if f := m.requests.form; f != nil && !m.requests.whole {
		form = append(form, m.formTooSmall(w)) // formwhole.go: never drawn cut
	} else if f != nil {
		fv := strings.TrimRight(f.View(), "\n")
		form = append(form, m.rule(w))
		form = append(form, strings.Split(fv, "\n")...)
		if q := m.queueLine(); q != "" {
			form = append(form, q)
		}
	} else if l := m.waitingLine(); l != "" {
		out = append(out, l)
	}
	if h := m.agentHeader(w); h != "" { // agents.go
		out = append(out, h)
	}
	out = append(out, m.aboveComposer(w)...)
	out = append(out, m.rule(w))
	out = append(out, strings.Split(m.composer.View(), "\n")...)
	out = append(out, m.stat.Line(m.styles, m.statusInfo(), w))
	if over := len(form) + len(out) - m.height; over > 0 && m.height > 0 && len(form) > 0 {
		// A form taller than the screen (a very short terminal) loses its
		// last rows, never its first: the question or command and the
		// highlighted choice are at the top (forms/fit.go).
		form = form[:max(2, len(form)-over)]
	}
	return append(form, out...)
}

// statusInfo is the status line now: the settled values, the running
// turn, the notice, and the thread's usage and rate limits.
func (m *Model) statusInfo() ui.StatusInfo {
	s := m.stat.Info()
	kind, text := m.stat.Notice()
	s.Notice = text
	if d := m.detachNotice(); d != "" && kind != noticeQuit {
		s.Notice = d // reattach.go: while the link to the daemon is down
		s.NoInterrupt = true
	}
	s.Running = m.turn.running
	s.Spinner = m.stat.Spinner()
	if m.turn.running {
		s.Elapsed = m.now().Sub(m.turn.started)
		s.Header = m.view.header
	}
	u := m.thread.Usage
	s.TotalTokens, s.LastInputTokens, s.ContextWindow = u.Total, u.LastInput, u.ContextWindow
	return s
}

// aboveComposer returns the lines drawn between the transcript and the
// composer: queued prompts, a command's question, then the picker, login
// form or popup.
func (m *Model) aboveComposer(w int) []string {
	st := m.styles
	var out []string
	for i, q := range m.turn.queued {
		first, _, _ := strings.Cut(q, "\n")
		out = append(out, st.Dim.Render(ui.Truncate("  ⏳ queued "+itoa(i+1)+": "+first, w)))
	}
	out = append(out, m.askView(w)...) // slash.go: a command's question
	switch {
	case m.login != nil:
		out = append(out, m.rule(w))
		out = append(out, m.login.view(st, w)...)
	case m.picker != nil:
		out = append(out, m.rule(w))
		out = append(out, m.picker.view(st, w)...)
	default:
		out = append(out, m.composer.PopupView(st, w)...)
	}
	return out
}

func (m *Model) transcriptHeight() int {
	return max(1, m.height-len(m.bottom()))
}
