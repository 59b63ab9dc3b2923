package model

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/atotto/clipboard"

	"tandem/backend"
	"tandem/forms"
	"tandem/ui"
)

// Keys of the transcript view.
const (
	keyPager       = "ctrl+t" // full-screen transcript pager
	keyExpand      = "ctrl+o" // expand/collapse the last command's output
	keyMouse       = "f2"     // release/capture the mouse
	keyCopy        = "alt+y"  // copy the last answer
	keyOutput      = "alt+o"  // the last command's full output in $PAGER
	resizeDebounce = 80 * time.Millisecond
)

// viewState is what one viewer's transcript view holds besides the cells:
// render width (debounced), the pager, mouse capture, theme, and the
// last answer for /copy. (The last turn diff for /diff is kept by the
// command code, ext.go.)
type viewState struct {
	renderWidth int // width the transcript is rendered at
	resizeSeq   int
	pager       *pager
	mouseOff    bool
	themeSet    bool // the background colour was detected
	plans       map[string]*ui.PlanCell
	lastCommand *ui.CommandCell
	lastAnswer  *ui.AgentCell
	commands    []*ui.CommandCell
	pendingCmd  tea.Cmd
	// deltaOnly: the last message was a streaming delta, which leaves
	// everything below the transcript as it was (bottomLines).
	deltaOnly   bool
	bottomLines []string
	bottomW     int
	// the last frame drawn, reused while only deltas arrive
	frame          string
	frameOK        bool
	frameW, frameH int
}

// bottom returns everything below the transcript: the form, the composer
// and the status line. A streaming delta changes none of it, so the last
// drawing is reused then (the composer alone costs ~50 µs to draw).
func (m *Model) bottom() []string {
	if m.tv.deltaOnly && m.tv.bottomLines != nil && m.tv.bottomW == m.width {
		return m.tv.bottomLines
	}
	m.tv.bottomLines, m.tv.bottomW = m.drawBottom(), m.width
	return m.tv.bottomLines
}

// pager is the full-screen transcript (Ctrl+T): every cell expanded,
// rendered once when opened.
type pager struct {
	lines []string
	top   int
}

type resizeDoneMsg struct{ seq, width int }

// LastAnswer returns the text of the last agent message ("" if none).
func (m *Model) LastAnswer() string {
	if m.tv.lastAnswer == nil {
		return ""
	}
	return m.tv.lastAnswer.Text.String()
}

// CopyLastAnswer copies the last agent message to the clipboard: by OSC 52
// (works over SSH) and, where one exists, the native clipboard. It sets a
// status notice either way; /copy calls it.
func (m *Model) CopyLastAnswer() tea.Cmd {
	text := m.LastAnswer()
	if text == "" {
		m.status.Notice = "nothing to copy yet"
		return nil
	}
	m.status.Notice = "copied the last answer"
	if m.opts.Guest { // the host's clipboard is not the guest's
		return tea.SetClipboard(text)
	}
	native := func() tea.Msg {
		_ = clipboard.WriteAll(text) // no native clipboard: OSC 52 alone
		return nil
	}
	return tea.Batch(tea.SetClipboard(text), native)
}

// PagerOpen reports whether the transcript pager is shown.
func (m *Model) PagerOpen() bool { return m.tv.pager != nil }

// MouseReleased reports whether mouse capture is off (terminal selection
// works).
func (m *Model) MouseReleased() bool { return m.tv.mouseOff }

// RenderWidth returns the width the transcript is rendered at; it follows
// the window width after a short debounce.
func (m *Model) RenderWidth() int {
	if m.tv.renderWidth == 0 {
		return m.contentWidth()
	}
	return m.tv.renderWidth
}

// onResize re-wraps the transcript at the new width after the resizes
// settle (resizeDebounce); until then lines are cut to the window.
func (m *Model) onResize() tea.Cmd {
	if m.tv.renderWidth == 0 {
		m.tv.renderWidth = m.contentWidth()
		return nil
	}
	if m.tv.pager != nil {
		m.openPager()
	}
	m.tv.resizeSeq++
	seq, w := m.tv.resizeSeq, m.contentWidth()
	return tea.Tick(resizeDebounce, func(time.Time) tea.Msg { return resizeDoneMsg{seq: seq, width: w} })
}

// visibleTail is RenderContext.Tail for a screen whose first transcript
// line is top: every line from there to the bottom, plus a screen of
// margin (0, meaning all, before the first drawing).
func (m *Model) visibleTail(top, h int) int {
	total := m.transcript.Total()
	if total == 0 {
		return 0
	}
	return max(1, total-max(0, top)+h)
}

// viewMsg handles the transcript view's own messages and, while the pager
// is open, every key and wheel event. handled=false passes msg on.
func (m *Model) viewMsg(msg tea.Msg) (cmd tea.Cmd, handled bool) {
	switch msg := msg.(type) {
	case outputPagerDone:
		if msg.err != nil {
			m.status.Notice = "pager: " + msg.err.Error()
		}
		return nil, true
	case resizeDoneMsg:
		if msg.seq == m.tv.resizeSeq {
			m.tv.renderWidth = msg.width
		}
		return nil, true
	case tea.BackgroundColorMsg:
		m.setTheme(msg.IsDark())
		return nil, true
	case tea.KeyPressMsg:
		if m.tv.pager != nil {
			m.pagerKey(msg.String())
			cmd, m.tv.pendingCmd = m.tv.pendingCmd, nil
			return cmd, true
		}
	case tea.MouseWheelMsg:
		if m.tv.pager != nil {
			switch msg.Button {
			case tea.MouseWheelUp:
				m.pagerScroll(-3)
			case tea.MouseWheelDown:
				m.pagerScroll(3)
			}
			return nil, true
		}
	}
	return nil, false
}

// viewKey handles the transcript view's global keys.
func (m *Model) viewKey(k tea.KeyPressMsg) (cmd tea.Cmd, done bool) {
	switch k.String() {
	case keyPager:
		m.openPager()
		return nil, true
	case keyExpand:
		if m.opts.ReadOnly {
			return nil, false
		}
		if c := m.tv.lastCommand; c != nil {
			c.ToggleExpanded()
		}
		return nil, true
	case keyMouse:
		m.tv.mouseOff = !m.tv.mouseOff
		if m.tv.mouseOff {
			m.status.Notice = "mouse released: select text with the terminal; " + keyMouse + " captures it again"
		} else {
			m.status.Notice = ""
		}
		return nil, true
	case keyCopy:
		if m.opts.ReadOnly {
			return nil, false
		}
		return m.CopyLastAnswer(), true
	case keyOutput:
		return m.openOutput(), true
	}
	return nil, false
}

type outputPagerDone struct{ err error }

// openOutput shows the last command's whole output in $PAGER (less), the
// terminal handed over until it exits.
func (m *Model) openOutput() tea.Cmd {
	if m.opts.Guest {
		m.status.Notice = guestNoHostProgram
		return nil
	}
	c := m.tv.lastCommand
	if c == nil || c.OutputBytes() == 0 {
		m.status.Notice = "no command output yet"
		return nil
	}
	path, temp, err := c.FullOutputPath()
	if err != nil {
		m.status.Notice = "could not write the output: " + err.Error()
		return nil
	}
	pager := os.Getenv("PAGER")
	if pager == "" {
		pager = "less"
	}
	cmd := exec.Command("sh", "-c", pager+` "$1"`, "sh", path)
	return tea.ExecProcess(cmd, func(err error) tea.Msg {
		if temp {
			os.Remove(path)
		}
		return outputPagerDone{err}
	})
}

func (m *Model) openPager() {
	w := m.contentWidth()
	ctx := *m.rctx
	ctx.Expanded, ctx.Tail = true, 0
	top := 0
	if m.tv.pager != nil {
		top = m.tv.pager.top
	}
	lines := m.transcript.RenderAll(&ctx, w)
	if a, ok := m.form.(*forms.Approval); ok {
		// What the open approval asks about, whole: the form may have
		// cut it to fit.
		lines = append(lines, "", m.styles.Warn.Render("Waiting for your answer:"))
		for _, l := range a.Detail() {
			lines = append(lines, ui.Wrap(l, w-2)...)
		}
	}
	if m.tv.pager == nil {
		top = max(0, len(lines)-(m.height-1))
	}
	m.tv.pager = &pager{lines: lines, top: top}
	m.pagerScroll(0)
}

func (m *Model) pagerKey(key string) {
	h := max(1, m.height-1)
	switch key {
	case "q", "esc", keyPager, "ctrl+c":
		m.tv.pager = nil
	case "o":
		if !m.opts.ReadOnly {
			m.tv.pager = nil
			m.tv.pendingCmd = m.openOutput()
		}
	case "up", "k":
		m.pagerScroll(-1)
	case "down", "j", "enter":
		m.pagerScroll(1)
	case "pgup", "b", "shift+space":
		m.pagerScroll(-h)
	case "pgdown", "space", "f":
		m.pagerScroll(h)
	case "home", "g":
		m.pagerScroll(-len(m.tv.pager.lines))
	case "end", "G":
		m.pagerScroll(len(m.tv.pager.lines))
	case keyMouse:
		m.tv.mouseOff = !m.tv.mouseOff
	}
}

func (m *Model) pagerScroll(d int) {
	p := m.tv.pager
	if p == nil {
		return
	}
	h := max(1, m.height-1)
	p.top = min(max(0, p.top+d), max(0, len(p.lines)-h))
}

// pagerView draws the open pager: the lines and a one-line footer.
func (m *Model) pagerView() string {
	p := m.tv.pager
	h := max(1, m.height-1)
	w := m.contentWidth()
	end := min(len(p.lines), p.top+h)
	out := make([]string, 0, m.height)
	out = append(out, p.lines[p.top:end]...)
	for len(out) < h {
		out = append(out, "")
	}
	pct := 100
	if len(p.lines) > h {
		pct = 100 * end / len(p.lines)
	}
	foot := ui.Truncate(" transcript · ↑↓ PgUp/PgDn g/G · o command output · q/esc close · "+strconv.Itoa(pct)+"%", w)
	out = append(out, m.styles.Status.Reverse(true).Render(foot+strings.Repeat(" ", max(0, w-lipgloss.Width(foot)))))
	return strings.Join(out, "\n")
}

// setTheme switches the palette for a dark or light terminal background.
func (m *Model) setTheme(dark bool) {
	m.tv.themeSet = true
	if dark == m.styles.Dark && m.rctx != nil {
		return
	}
	m.opts.Dark = dark
	m.styles = ui.NewStyles(dark)
	style := "dark"
	if !dark {
		style = "light"
	}
	m.rctx = &ui.RenderContext{Styles: m.styles, Markdown: ui.NewMarkdown(style)}
	m.theme = forms.Theme(dark, m.opts.NoColor)
	m.transcript.Invalidate()
	m.tv.frameOK, m.tv.bottomLines = false, nil
}

// viewEvent folds the events the transcript view adds: plans, the turn
// diff, rate limits and the reasoning header. done=true when handled.
func (m *Model) viewEvent(ev backend.Event) (cmd tea.Cmd, done bool) {
	switch e := ev.(type) {
	case backend.PlanUpdatedEvent:
		if m.tv.plans == nil {
			m.tv.plans = map[string]*ui.PlanCell{}
		}
		c := m.tv.plans[e.TurnID]
		if c == nil {
			c = &ui.PlanCell{TurnID: e.TurnID}
			m.tv.plans[e.TurnID] = c
			m.transcript.Append(c)
		}
		steps := make([]ui.PlanStep, 0, len(e.Plan))
		for _, s := range e.Plan {
			steps = append(steps, ui.PlanStep{Step: s.Step, Status: s.Status})
		}
		expl := ""
		if e.Explanation != nil {
			expl = *e.Explanation
		}
		c.Set(expl, steps)
		return nil, true
	case backend.RateLimitsEvent:
		var rl []ui.RateLimit
		for _, w := range []*backend.RateLimitWindow{e.RateLimits.Primary, e.RateLimits.Secondary} {
			if w == nil {
				continue
			}
			var mins int64
			if w.WindowDurationMins != nil {
				mins = *w.WindowDurationMins
			}
			rl = append(rl, ui.RateLimit{Label: ui.RateLimitLabel(mins), UsedPercent: w.UsedPercent})
		}
		if len(rl) > 0 {
			m.status.RateLimits = rl
		}
		return nil, true
	}
	return nil, false
}

// Close removes the temp files of spilled command output. Every way a
// program ends calls it (quit, a signal, a pairing client leaving); it is
// safe to call more than once, and the model can still draw.
func (m *Model) Close() {
	for _, c := range m.tv.commands {
		c.Close()
	}
}

// toolResult is the detail of a dynamicToolCall item: the text of its
// reply's content items.
func toolResult(it backend.Item) string {
	var parts []string
	for _, c := range it.ContentItems {
		if c.Text != "" {
			parts = append(parts, c.Text)
		}
	}
	if len(parts) == 0 && it.Success != nil && !*it.Success {
		return "failed"
	}
	return strings.Join(parts, "\n")
}

// isDelta reports whether msg is a streaming delta, which is coalesced:
// it changes a live cell without forcing a re-render, so a burst of
// deltas costs one render per frame (the 33 ms tick, or the next other
// message).
func isDelta(msg tea.Msg) bool {
	switch msg.(type) {
	case backend.AgentMessageDeltaEvent, backend.CommandOutputDeltaEvent:
		return true
	}
	return false
}
