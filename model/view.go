package model

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
	"tandem/model/composer"
	"tandem/model/status"
	"tandem/ui"
)

// drawState is what the last View drew and how the messages handled
// since may reuse it: a streaming delta changes nothing below the
// transcript (bottom), and a frame tick only the elapsed second.
// deltaOnly: every message since the last View was a delta; tickOnly:
// each was a delta or a frame tick (a model drawn after every message,
// as Bubble Tea draws it, has just the one; a lane of the command center
// drawn again after a while, many).
type drawState struct {
	deltaOnly, tickOnly bool
	bottom              []string
	bottomW             int
	bottomSec           int64 // the elapsed second bottom was drawn at
	// off: the model is not on screen (ShownMsg, from the command
	// center): its frame ticks slow down (model/status) and its cursor
	// blinks stop (blinkOff) until it is shown again (wakeTimers).
	off, blinkOff bool
}

// took notes a message handled since the last View: a delta, a frame
// tick, or another.
func (d *drawState) took(delta, tick bool) {
	d.deltaOnly = d.deltaOnly && delta
	d.tickOnly = d.tickOnly && (delta || tick)
}

// kept notes a frame drawn whole and kept, its bottom too: nothing
// was handled since.
func (d *drawState) kept() { d.deltaOnly, d.tickOnly = true, true }

// wakeTimers gives a model on screen again (ShownMsg) its quiet timers'
// pace back: the running turn's frame ticks and spinner
// (model/status), the cursor's blink (model/composer). The command
// starts them; nil when none was quiet.
func wakeTimers(d *drawState, st *status.Status, c *composer.Composer, running bool) tea.Cmd {
	if d.off {
		return nil
	}
	var cmd tea.Cmd
	if st.Undrawn() {
		cmd = st.Wake(running)
	}
	if d.blinkOff {
		d.blinkOff = false
		cmd = tea.Batch(cmd, c.Blink())
	}
	return cmd
}

// blinkGoesOn reports whether a cursor blink is to be taken: not while
// the model is off screen (its blinks stop there, until wakeTimers).
func blinkGoesOn(d *drawState) bool {
	if d.off {
		d.blinkOff = true
		return false
	}
	return true
}

// View implements tea.Model: the transcript, bottom-aligned and scrolled,
// then the inline form (if any), the composer and the status line. It
// changes nothing the model decides by; it only fills render caches (the
// panes' cells and frames, the bottom's drawing), which depend on the
// model alone.
func (m *Model) View() tea.View {
	if m.width == 0 || m.height == 0 {
		return tea.NewView("")
	}
	if !m.panes.AltScreen() { // --no-alt-screen: the live area only
		return m.inlineView()
	}
	if m.panes.PagerOpen() {
		return m.finishView(tea.NewView(m.panes.PagerView(m.keys)), true)
	}
	if f, ok := m.overlay.FullView(); ok { // model/overlay: the form full screen
		return m.finishView(tea.NewView(f), true)
	}
	// A streaming delta that changes nothing drawn yet (its cell re-renders
	// on the next frame tick) reuses the last frame: a delta then costs
	// O(1), not a frame. So does a key of a paste burst, but for a redraw
	// every BurstFrameEvery (model/composer).
	if f, at, ok := m.panes.Frame(m.width, m.height); ok && (m.drawn.deltaOnly || m.composer.BurstFrame(at)) {
		return m.finishView(tea.NewView(f), true)
	}
	bottom := m.bottom()
	h := max(1, m.height-len(bottom))
	visible := m.panes.Window(h) // model/transcript
	screen := make([]string, 0, m.height)
	for i := len(visible); i < h; i++ {
		screen = append(screen, "")
	}
	screen = append(screen, visible...)
	screen = append(screen, bottom...)
	if len(screen) > m.height {
		screen = screen[len(screen)-m.height:]
	}
	frame := strings.Join(screen, "\n")
	m.panes.KeepFrame(frame, m.width, m.height)
	m.drawn.kept() // what the next messages may reuse
	return m.finishView(tea.NewView(frame), true)
}

// finishView finishes v: with alt, the alternate screen and the mouse
// captured unless the user released it (the keymap's Mouse); always the
// window title (model/status) and focus reports (tea.FocusMsg and
// tea.BlurMsg, for notifications).
func (m *Model) finishView(v tea.View, alt bool) tea.View {
	if alt {
		v.AltScreen = true
		v.MouseMode = tea.MouseModeCellMotion
		if m.panes.MouseReleased() {
			v.MouseMode = tea.MouseModeNone
		}
	}
	v.WindowTitle = m.stat.Title(status.TitleFacts{Label: m.stat.Label(m.panes.Name(), m.panes.Thread()),
		Waiting: m.overlay.Waiting(), Running: m.turn.Running()})
	v.ReportFocus = true
	return v
}

// bottom returns everything below the transcript: the form, the composer
// and the status line. A streaming delta changes none of it, so the last
// drawing is reused then (the composer alone costs ~50 µs to draw).
func (m *Model) bottom() []string {
	d := &m.drawn
	// A frame tick changes nothing below the transcript but the turn's
	// elapsed seconds: a shared session's every guest ticks, so the
	// bottom drawn a moment ago serves until the second turns.
	sec := int64(-1) // the running turn's elapsed whole seconds, as the status line shows them
	if m.turn.Running() {
		sec = int64(m.opts.Now().Sub(m.turn.Started()) / time.Second)
	}
	if (d.deltaOnly || d.tickOnly && sec == d.bottomSec) && d.bottom != nil && d.bottomW == m.width {
		return d.bottom
	}
	d.bottom, d.bottomW, d.bottomSec = m.drawBottom(), m.width, sec
	return d.bottom
}

// drawBottom draws everything below the transcript (bottom caches it).
func (m *Model) drawBottom() []string {
	w := max(20, m.width)
	var out []string
	form := m.overlay.FormView() // model/overlay: never drawn cut
	if l := m.overlay.WaitingLine(); l != "" {
		out = append(out, l) // a watcher's "waiting for …"
	}
	if h := m.panes.AgentHeader(w, m.overlay.HasForm(), m.keys.Agents.Help().Key); h != "" {
		out = append(out, h)
	}
	out = append(out, m.aboveComposer(w)...)
	// The rule above the form, a picker or the login form, and the
	// composer: a dim rule across the window, or with --no-alt-screen a
	// blank line — a line as wide as the window in the live area is left
	// behind in the scrollback when a narrowing terminal (tmux, most
	// others) reflows it into two rows above the cursor.
	rule := ""
	if !m.panes.Inline() {
		rule = m.styles.Dim.Render(strings.Repeat("─", w))
	}
	out = append(out, rule)
	out = append(out, strings.Split(m.composer.View(), "\n")...)
	out = append(out, m.stat.Line(m.styles, m.statusInfo(), w))
	if over := len(form) + len(out) - m.height; over > 0 && m.height > 0 && len(form) > 0 {
		// A form taller than the screen (a very short terminal) loses its
		// last rows, never its first: the question or command and the
		// highlighted choice are at the top (forms/fit.go).
		form = form[:min(len(form), max(2, len(form)-over))]
	}
	return append(form, out...)
}

// statusInfo is the status line now: the settled values, the running
// turn, the notice, and the thread's usage and rate limits.
func (m *Model) statusInfo() ui.StatusInfo {
	s := m.stat.Info()
	kind, text := m.stat.Notice()
	s.Notice = text
	if d := m.turn.DetachNotice(); d != "" && kind != act.NoticeQuit {
		s.Notice = d // model/turn: while the link to the daemon is down
		s.NoInterrupt = true
	}
	if d := m.turn.SilenceNotice(); d != "" && kind != act.NoticeQuit {
		s.Notice = d // model/turn: the server owes an answer and says nothing
	}
	s.Running = m.turn.Running()
	s.Spinner = m.stat.Spinner()
	if m.turn.Running() {
		s.Elapsed = m.opts.Now().Sub(m.turn.Started())
		s.Header = m.panes.Header()
	}
	u := m.panes.Thread().Usage
	s.TotalTokens, s.LastInputTokens, s.ContextWindow = u.Total, u.LastInput, u.ContextWindow
	return s
}

// aboveComposer returns the lines drawn between the transcript and the
// composer: queued prompts, a command's question, then the picker, login
// form or popup.
func (m *Model) aboveComposer(w int) []string {
	st := m.styles
	var out []string
	for i, q := range m.turn.Pending() { // model/turn: each with what it waits for
		first, _, _ := strings.Cut(q.Raw, "\n")
		label := "  ⏳ queued " + itoa(i+1)
		if q.Note != "" {
			label += " (" + q.Note + ")" // before the text, so a cut keeps it
		}
		out = append(out, st.Dim.Render(ui.Truncate(label+": "+first, w)))
	}
	out = append(out, m.commands.View(st, w)...) // model/commands: a command's question
	if p := m.overlay.PanelView(); p != nil {    // model/overlay: the login form or a picker
		return append(out, p...)
	}
	return append(out, m.composer.PopupView(st, w)...) // model/composer: its popups
}

func (m *Model) transcriptHeight() int {
	return max(1, m.height-len(m.bottom()))
}

// inlineView is View with --no-alt-screen: the live area — the cells not
// printed yet, at most the rows the bottom leaves (their last lines when
// taller) — then the form, composer and status line. Quitting, it is
// empty: what was live has been printed.
func (m *Model) inlineView() tea.View {
	v := tea.NewView("")
	if !m.quitting {
		frame, ok := m.panes.InlineFrame(m.width, m.height)
		if !m.drawn.deltaOnly || !ok { // a delta waits for the next frame tick
			bottom := m.bottom()
			live := m.panes.LiveLines(m.panes.LiveRoom(len(bottom)), m.turn.Running())
			frame = strings.Join(append(live, bottom...), "\n")
			m.panes.KeepInlineFrame(frame, m.width, m.height)
			m.drawn.kept()
		}
		v = tea.NewView(frame)
	}
	// No alternate screen, no mouse capture (the wheel scrolls the
	// terminal, selection is the terminal's).
	return m.finishView(v, false)
}
