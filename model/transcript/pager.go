package transcript

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"tandem/model/act"
	"tandem/model/keys"
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
	tail   PagerTail // what an open approval asks about, after the cells
	filled bool
	seq    int // pagerFillMsg of another opening are dropped
	// page, when set, is the text shown instead of the transcript
	// (page.go).
	page *page
	// find is the pager's search (pager_search.go), nil for none.
	find *pagerFind
}

// PagerTail is what a waiting approval asks about, shown whole after the
// transcript: its detail (reason, command, directory, body) and every
// line of its diff. The zero value adds nothing.
type PagerTail struct {
	Detail, Diff []string
}

// pagerBudget is the time one fill step may take: well inside a frame.
// (A variable for tests.)
var pagerBudget = 8 * time.Millisecond

// pagerFillMsg asks for the next fill step of the pager opened as seq.
type pagerFillMsg struct{ seq int }

func (pagerFillMsg) panesMsg() {}

// scroll moves the pager by d lines on a screen height rows tall.
func (pg *pager) scroll(d, height int) {
	h := max(1, height-1)
	pg.top = min(max(0, pg.top+d), max(0, len(pg.lines)-h))
}

// PagerOpen reports whether the pager is shown.
func (p *Panes) PagerOpen() bool { return p.pager != nil }

// PagerView draws the pager: the lines and a one-line footer naming
// km's keys.
func (p *Panes) PagerView(km *keys.Map) string {
	pg, st, w, height := p.pager, p.look.Styles, p.width(), p.h
	h := max(1, height-1)
	end := min(len(pg.lines), pg.top+h)
	out := make([]string, 0, height)
	for i := pg.top; i < end; i++ {
		out = append(out, pg.find.mark(i, pg.lines[i]))
	}
	for len(out) < h {
		out = append(out, "")
	}
	pct := 100
	if len(pg.lines) > h {
		pct = 100 * end / len(pg.lines)
	}
	state := strconv.Itoa(pct) + "%"
	if !pg.filled {
		state = "drawing earlier turns…"
	}
	foot := ui.Truncate(pagerFoot(km, pg.page, state), w)
	if pg.find != nil {
		return strings.Join(append(out, pg.find.footer(st, km, w)), "\n")
	}
	out = append(out, st.Status.Reverse(true).Render(foot+strings.Repeat(" ", max(0, w-lipgloss.Width(foot)))))
	return strings.Join(out, "\n")
}

// pagerFoot is the footer: what is shown, state (how far, or still
// drawing), then the keys, the first of each action's in km: scrolling,
// the search, your prompts and the command output (not on a page of
// text), closing. A narrow window cuts the keys, not the state.
func pagerFoot(km *keys.Map, page *page, state string) string {
	f := func(b key.Binding) string { return keys.Short(b, 1) }
	what := " transcript"
	if page != nil {
		what = " " + ui.SanitizeLine(page.title)
	}
	what += " · " + state + " · " + f(km.PagerUp) + f(km.PagerDown) + " " + f(km.PagerPageUp) + "/" + f(km.PagerPageDown) +
		" " + f(km.PagerTop) + "/" + f(km.PagerBottom) + " · " + f(km.PagerFind) + " find · "
	if page == nil {
		what += f(km.PagerPromptPrev) + " " + f(km.PagerPromptNext) + " prompts · " + f(km.PagerOutput) + " output · "
	}
	return what + keys.Short(km.PagerClose, 2) + " close "
}

// OpenPager opens the shown pane's transcript pager at its bottom (or,
// open already, draws it again at the window's width, keeping the
// position) and starts filling it; it ends with tail, uncut.
func (p *Panes) OpenPager(tail PagerTail) tea.Cmd { return p.openPager(tail) }

func (p *Panes) openPager(tail PagerTail) tea.Cmd {
	w := p.width()
	n := len(p.shown.v.transcript.Cells)
	pg := &pager{cells: make([][]string, n), next: n - 1, width: w, tail: tail, seq: 1}
	fromBottom := -1 // at the bottom
	if old := p.pager; old != nil {
		pg.seq = old.seq + 1
		fromBottom = len(old.lines) - old.top
	}
	p.pager = pg
	p.fillPager(fromBottom)
	if pg.filled {
		return nil
	}
	return pg.fillCmd()
}

func (pg *pager) fillCmd() tea.Cmd {
	seq := pg.seq
	return func() tea.Msg { return pagerFillMsg{seq: seq} }
}

// onPagerFill runs one fill step and asks for the next until the pager
// is full.
func (p *Panes) onPagerFill(msg pagerFillMsg) tea.Cmd {
	pg := p.pager
	if pg == nil || pg.seq != msg.seq || pg.filled {
		return nil
	}
	if len(pg.cells) > len(p.shown.v.transcript.Cells) || pg.width != p.width() {
		return p.openPager(pg.tail) // another thread, or another width
	}
	// Cells added since it opened are not the pager's: it shows the
	// transcript as it was then, as Ctrl+T always has.
	p.fillPager(len(pg.lines) - pg.top)
	if pg.filled {
		return nil
	}
	return pg.fillCmd()
}

// fillPager draws cells, newest first, for up to pagerBudget, then lays
// the lines out again keeping the view fromBottom lines above the end
// (-1: at the bottom).
func (p *Panes) fillPager(fromBottom int) {
	pg := p.pager
	ctx := p.renderContext(0)
	ctx.Expanded = true
	ctx.Deadline = time.Now().Add(pagerBudget) // a work budget, not a timer
	cells := p.shown.v.transcript.Cells
	for pg.next >= 0 {
		c := cells[pg.next]
		pg.cells[pg.next] = ui.RenderFitted(c, ctx, pg.width)
		if l, ok := c.(ui.Lazy); ok && l.Partial() {
			break // cut short by the deadline: the next step goes on
		}
		pg.next--
		if time.Now().After(ctx.Deadline) {
			break
		}
	}
	pg.filled = pg.next < 0
	tail := p.tailLines(pg.tail, pg.width)
	n := len(tail)
	for _, c := range pg.cells {
		n += len(c)
	}
	lines := make([]string, 0, n)
	for _, c := range pg.cells {
		lines = append(lines, c...)
	}
	pg.lines = append(lines, tail...)
	h := max(1, p.h-1)
	if fromBottom < 0 {
		pg.top = len(pg.lines) - h
	} else {
		pg.top = len(pg.lines) - fromBottom
	}
	pg.scroll(0, p.h)
}

// tailLines wraps a pager's tail to w.
func (p *Panes) tailLines(t PagerTail, w int) []string {
	if len(t.Detail) == 0 && len(t.Diff) == 0 {
		return nil
	}
	out := []string{"", p.look.Styles.Warn.Render("Waiting for your answer:")}
	for _, l := range t.Detail {
		out = append(out, ui.Wrap(l, w-2)...)
	}
	for _, l := range t.Diff { // its whole diff, every line
		out = append(out, ui.Wrap(l, w)...)
	}
	return out
}

// ClosePager closes the pager and has the transcript drop the styled
// drawing of what is off screen, which the pager's whole render added
// (#17: memory after the pager goes back to what it was). A page of
// earlier turns read meanwhile goes in now; h is the transcript's rows.
func (p *Panes) ClosePager(h int, canRead bool) {
	p.pager = nil
	v := &p.shown.v
	v.transcript.Shed(2 * max(1, p.h))
	v.frameOK = false
	if held := p.main.older.held; held != nil {
		p.main.older.held = nil
		p.OnOlderTurns(*held, h, canRead) // the next scroll to the top reads on
	}
}

// PagerWheel scrolls the pager by d lines.
func (p *Panes) PagerWheel(d int) { p.pager.scroll(d, p.h) }

// PagerAction is what a pager key asks of the rest: nothing, to close
// (ClosePager), or to show the last command's output in $PAGER.
type PagerAction int

// The pager's asks.
const (
	PagerStay PagerAction = iota
	PagerClose
	PagerOutput
)

// PagerKey handles a key while the pager is open.
func (p *Panes) PagerKey(k tea.KeyPressMsg, km *keys.Map) PagerAction {
	pg := p.pager
	h := max(1, p.h-1)
	if p.pagerFindKey(k, km) { // pager_search.go
		return PagerStay
	}
	switch {
	case key.Matches(k, km.PagerClose):
		return PagerClose
	case key.Matches(k, km.PagerOutput) && pg.page == nil:
		return PagerOutput
	case key.Matches(k, km.PagerUp):
		pg.scroll(-1, p.h)
	case key.Matches(k, km.PagerDown):
		pg.scroll(1, p.h)
	case key.Matches(k, km.PagerPageUp):
		pg.scroll(-h, p.h)
	case key.Matches(k, km.PagerPageDown):
		pg.scroll(h, p.h)
	case key.Matches(k, km.PagerTop):
		pg.scroll(-len(pg.lines), p.h)
	case key.Matches(k, km.PagerBottom):
		pg.scroll(len(pg.lines), p.h)
	case key.Matches(k, km.PagerPromptPrev):
		p.pagerPromptJump(-1) // prompts.go
	case key.Matches(k, km.PagerPromptNext):
		p.pagerPromptJump(1)
	case key.Matches(k, km.Mouse):
		p.mouseOff = !p.mouseOff
	}
	return PagerStay
}

// OutputDone is the end of $PAGER showing a command's output.
type OutputDone struct{ Err error }

// OpenOutput shows the shown pane's last command's whole output in
// $PAGER (less), the terminal handed over until it exits; it says why
// not on the status line (nothing to show, a guest, a write error). The
// file it gives $PAGER holds the output as the transcript shows it and
// redacted (thread.Output.FullPath): `less -R` or `cat` draws text only.
func (p *Panes) OpenOutput() tea.Cmd {
	if p.env.Role.Guest() {
		p.env.Out.Notice(act.NoticeInfo, act.GuestNoHostProgram)
		return nil
	}
	it := p.shown.state.Last(thread.Command)
	if it == nil || it.Output.Bytes() == 0 {
		p.env.Out.Notice(act.NoticeInfo, "no command output yet")
		return nil
	}
	path, temp, err := it.Output.FullPath()
	if err != nil {
		p.env.Out.Notice(act.NoticeInfo, "could not write the output: "+err.Error())
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
		return OutputDone{err}
	})
}

// PagerLines are the pager's lines as drawn (nil when it is closed).
func (p *Panes) PagerLines() []string {
	if p.pager == nil {
		return nil
	}
	return p.pager.lines
}
