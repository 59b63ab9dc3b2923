package model

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/atotto/clipboard"

	"tandem/forms"
	"tandem/thread"
	"tandem/ui"
)

// pager is the full-screen transcript (Ctrl+T): every cell expanded. It
// is filled over several frames, newest cell first, pagerBudget of work a
// frame, so opening it on a huge transcript never blocks input: it shows
// what is ready at once and the rest fills in above (#17).
type pager struct {
	lines []string
	top   int

	// The fill: cells[i] is transcript cell i's expanded lines once
	// drawn; cells from next+1 on are drawn wholly, cell next perhaps in
	// part (a huge answer's off-screen blocks still plain).
	cells  [][]string
	next   int
	width  int
	tail   []string // what an open approval asks about, after the cells
	filled bool
	seq    int // pagerFillMsg of another opening are dropped
}

// pagerBudget is the time one fill step may take: well inside a frame.
// (A variable for tests.)
var pagerBudget = 8 * time.Millisecond

// pagerFillMsg asks for the next fill step of the pager opened as seq.
type pagerFillMsg struct{ seq int }

// scroll moves the pager by d lines on a screen height rows tall.
func (p *pager) scroll(d, height int) {
	h := max(1, height-1)
	p.top = min(max(0, p.top+d), max(0, len(p.lines)-h))
}

// view draws the pager: the lines and a one-line footer.
func (p *pager) view(st ui.Styles, w, height int) string {
	h := max(1, height-1)
	end := min(len(p.lines), p.top+h)
	out := make([]string, 0, height)
	out = append(out, p.lines[p.top:end]...)
	for len(out) < h {
		out = append(out, "")
	}
	pct := 100
	if len(p.lines) > h {
		pct = 100 * end / len(p.lines)
	}
	state := strconv.Itoa(pct) + "%"
	if !p.filled {
		state = "drawing earlier turns…"
	}
	foot := ui.Truncate(" transcript · ↑↓ PgUp/PgDn g/G · o command output · q/esc close · "+state, w)
	out = append(out, st.Status.Reverse(true).Render(foot+strings.Repeat(" ", max(0, w-lipgloss.Width(foot)))))
	return strings.Join(out, "\n")
}

// openPager opens the transcript pager at its bottom (or, open already,
// draws it again at the window's width, keeping the position) and starts
// filling it. With an approval up it ends with everything the approval
// asks about, uncut: its detail, then its whole diff.
func (m *Model) openPager() tea.Cmd {
	w := m.contentWidth()
	var tail []string
	if a, ok := m.requests.form.(*forms.Approval); ok {
		// What the open approval asks about, whole: the form may have
		// cut it to fit.
		tail = append(tail, "", m.styles.Warn.Render("Waiting for your answer:"))
		for _, l := range a.Detail() {
			tail = append(tail, ui.Wrap(l, w-2)...)
		}
		for _, l := range a.DiffLines() { // its whole diff, every line
			tail = append(tail, ui.Wrap(l, w)...)
		}
	}
	n := len(m.view.transcript.Cells)
	p := &pager{cells: make([][]string, n), next: n - 1, width: w, tail: tail, seq: 1}
	fromBottom := -1 // at the bottom
	if old := m.pager; old != nil {
		p.seq = old.seq + 1
		fromBottom = len(old.lines) - old.top
	}
	m.pager = p
	m.fillPager(fromBottom)
	if p.filled {
		return nil
	}
	return p.fillCmd()
}

func (p *pager) fillCmd() tea.Cmd {
	seq := p.seq
	return func() tea.Msg { return pagerFillMsg{seq: seq} }
}

// onPagerFill runs one fill step and asks for the next until the pager
// is full.
func (m *Model) onPagerFill(msg pagerFillMsg) tea.Cmd {
	p := m.pager
	if p == nil || p.seq != msg.seq || p.filled {
		return nil
	}
	if len(p.cells) > len(m.view.transcript.Cells) || p.width != m.contentWidth() {
		return m.openPager() // another thread, or another width
	}
	// Cells added since it opened are not the pager's: it shows the
	// transcript as it was then, as Ctrl+T always has.
	m.fillPager(len(p.lines) - p.top)
	if p.filled {
		return nil
	}
	return p.fillCmd()
}

// fillPager draws cells, newest first, for up to pagerBudget, then lays
// the lines out again keeping the view fromBottom lines above the end
// (-1: at the bottom).
func (m *Model) fillPager(fromBottom int) {
	p := m.pager
	ctx := m.renderContext(0)
	ctx.Expanded = true
	ctx.Deadline = time.Now().Add(pagerBudget)
	cells := m.view.transcript.Cells
	for p.next >= 0 {
		c := cells[p.next]
		p.cells[p.next] = ui.RenderFitted(c, ctx, p.width)
		if l, ok := c.(ui.Lazy); ok && l.Partial() {
			break // cut short by the deadline: the next step goes on
		}
		p.next--
		if time.Now().After(ctx.Deadline) {
			break
		}
	}
	p.filled = p.next < 0
	n := len(p.tail)
	for _, c := range p.cells {
		n += len(c)
	}
	lines := make([]string, 0, n)
	for _, c := range p.cells {
		lines = append(lines, c...)
	}
	p.lines = append(lines, p.tail...)
	h := max(1, m.height-1)
	if fromBottom < 0 {
		p.top = len(p.lines) - h
	} else {
		p.top = len(p.lines) - fromBottom
	}
	p.scroll(0, m.height)
}

// closePager closes the pager and has the transcript drop the styled
// drawing of what is off screen, which the pager's whole render added
// (#17: memory after the pager goes back to what it was).
func (m *Model) closePager() {
	m.pager = nil
	m.view.transcript.Shed(2 * max(1, m.height))
	m.view.frameOK = false
	if held := m.older.held; held != nil { // older.go: a page read meanwhile
		m.older.held = nil
		_ = m.onOlderTurns(*held) // the next scroll to the top reads on
	}
}

// pagerKey handles every key while the pager is open.
func (m *Model) pagerKey(k tea.KeyPressMsg) tea.Cmd {
	p := m.pager
	h := max(1, m.height-1)
	km := m.keys
	switch {
	case key.Matches(k, km.PagerClose):
		m.closePager()
	case key.Matches(k, km.PagerOutput):
		if !m.opts.ReadOnly {
			m.closePager()
			return m.openOutput()
		}
	case key.Matches(k, km.PagerUp):
		p.scroll(-1, m.height)
	case key.Matches(k, km.PagerDown):
		p.scroll(1, m.height)
	case key.Matches(k, km.PagerPageUp):
		p.scroll(-h, m.height)
	case key.Matches(k, km.PagerPageDown):
		p.scroll(h, m.height)
	case key.Matches(k, km.PagerTop):
		p.scroll(-len(p.lines), m.height)
	case key.Matches(k, km.PagerBottom):
		p.scroll(len(p.lines), m.height)
	case key.Matches(k, km.Mouse):
		m.mouseOff = !m.mouseOff
	}
	return nil
}

type outputPagerDone struct{ err error }

// openOutput shows the last command's whole output in $PAGER (less), the
// terminal handed over until it exits.
func (m *Model) openOutput() tea.Cmd {
	if m.opts.Guest {
		m.setNotice(noticeInfo, guestNoHostProgram)
		return nil
	}
	it := m.thread.Last(thread.Command)
	if it == nil || it.Output.Bytes() == 0 {
		m.setNotice(noticeInfo, "no command output yet")
		return nil
	}
	path, temp, err := it.Output.FullPath()
	if err != nil {
		m.setNotice(noticeInfo, "could not write the output: "+err.Error())
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

// LastAnswer returns the text of the last agent message ("" if none).
func (m *Model) LastAnswer() string {
	if it := m.thread.Last(thread.Agent); it != nil {
		return it.Text()
	}
	return ""
}

// CopyLastAnswer copies the last agent message to the clipboard: by OSC 52
// (works over SSH) and, where one exists, the native clipboard. It sets a
// status notice either way; /copy calls it.
func (m *Model) CopyLastAnswer() tea.Cmd {
	text := m.LastAnswer()
	if text == "" {
		m.setNotice(noticeInfo, "nothing to copy yet")
		return nil
	}
	m.setNotice(noticeInfo, "copied the last answer")
	if m.opts.Guest { // the host's clipboard is not the guest's
		return tea.SetClipboard(text)
	}
	native := func() tea.Msg {
		_ = clipboard.WriteAll(text) // no native clipboard: OSC 52 alone
		return nil
	}
	return tea.Batch(tea.SetClipboard(text), native)
}
