package model

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/thread"
	"tandem/ui"
)

// resizeDebounce is how long the transcript waits for resizes to settle
// before it re-wraps at the new width.
const resizeDebounce = 80 * time.Millisecond

// transcriptView is one viewer's drawing of the thread: the cells (one
// per item drawn, plus this viewer's banners), the scroll position, the
// width it renders at, and the caches that keep a frame cheap.
type transcriptView struct {
	transcript ui.Transcript
	// cells maps the thread's items to the cells drawing them.
	cells map[*thread.Item]ui.Cell
	// follow the bottom unless the user scrolled up; top is the first
	// visible transcript line when not following.
	follow bool
	top    int
	// renderWidth is the width the transcript is rendered at (it follows
	// the window after resizeDebounce).
	renderWidth int
	resizeSeq   int
	// header is the status line's "working" header: the reasoning
	// summary's latest bold heading.
	header string
	// awaiting are the command cells labelled "awaiting approval".
	awaiting map[*ui.CommandCell]bool
	// deltaOnly: the last message was a streaming delta, which leaves
	// everything below the transcript as it was (bottomLines) and, when
	// nothing is due, the frame too.
	deltaOnly      bool
	tickOnly       bool // the last message was a frame tick (tickMsg)
	bottomLines    []string
	bottomW        int
	bottomSec      int64 // the elapsed second bottomLines were drawn at
	frame          string
	frameOK        bool
	frameW, frameH int
	// authors are the drivers of a shared session whose prompts were
	// sent but are not drawn yet (hub.ActionEvent), oldest first; the
	// user message with the same text takes its author (authors.go).
	authors []authorNote
	frameAt time.Time // when frame was drawn (KeyNow), for a paste burst's redraws
}

type resizeDoneMsg struct{ seq, width int }

// touchable cells are told when what they draw changed.
type touchable interface{ Touch() }

// add appends a cell of this viewer's own (a banner, an echoed prompt).
func (v *transcriptView) add(c ui.Cell) { v.transcript.Append(c) }

// addItem appends the cell that draws it; cwd is the thread's workspace
// (file changes under it are shown relative to it).
func (v *transcriptView) addItem(it *thread.Item, cwd string) {
	v.transcript.Append(v.newCell(it, cwd, true))
}

// newCell returns the cell that draws it, known from then on to cell and
// touch (addItem appends it; onOlderTurns puts it above). A new user
// message takes the author of the prompt it was (authors.go); an older
// one, read from the thread's history, has none to take.
func (v *transcriptView) newCell(it *thread.Item, cwd string, isNew bool) ui.Cell {
	var c ui.Cell
	switch it.Kind {
	case thread.User:
		author := ""
		if isNew {
			author = v.takeAuthor(it.Text())
		}
		c = &ui.UserCell{Text: it.Text(), Images: itemImages(it.Images), Author: author}
	case thread.Agent:
		c = ui.NewAgentCell(it)
	case thread.Reasoning:
		c = &ui.ReasoningCell{Item: it}
	case thread.Command:
		c = &ui.CommandCell{Item: it}
	case thread.FileChange:
		c = &ui.FileChangeCell{Item: it, Cwd: cwd}
	case thread.Plan:
		c = &ui.PlanCell{Item: it}
	default:
		c = &ui.ToolCell{Item: it}
	}
	if v.cells == nil {
		v.cells = map[*thread.Item]ui.Cell{}
	}
	v.cells[it] = c
	return c
}

// touch redraws the cell of it, if it has one.
func (v *transcriptView) touch(it *thread.Item) {
	if c, ok := v.cells[it].(touchable); ok {
		c.Touch()
	}
}

// cell returns the cell drawing it (nil when none).
func (v *transcriptView) cell(it *thread.Item) ui.Cell { return v.cells[it] }

// reset removes every cell (a new thread).
func (v *transcriptView) reset() {
	v.transcript.Reset()
	v.cells, v.awaiting = nil, nil
	v.follow = true
}

// toggleLastCommand expands or collapses the last command's output.
func (v *transcriptView) toggleLastCommand(st *thread.State) {
	if c, ok := v.cell(st.Last(thread.Command)).(*ui.CommandCell); ok {
		c.ToggleExpanded()
	}
}

// RenderWidth returns the width the transcript is rendered at; it follows
// the window width after a short debounce.
func (m *Model) RenderWidth() int {
	if m.view.renderWidth == 0 {
		return m.contentWidth()
	}
	return m.view.renderWidth
}

// onResize re-wraps the transcript at the new width after the resizes
// settle (resizeDebounce); until then lines are cut to the window.
func (m *Model) onResize() tea.Cmd {
	if m.view.renderWidth == 0 {
		m.view.renderWidth = m.contentWidth()
		return nil
	}
	var fill tea.Cmd
	if m.pager != nil {
		fill = m.openPager()
	}
	m.view.resizeSeq++
	seq, w := m.view.resizeSeq, m.contentWidth()
	return tea.Batch(fill, tea.Tick(resizeDebounce, func(time.Time) tea.Msg { return resizeDoneMsg{seq: seq, width: w} }))
}

func (m *Model) onResizeDone(msg resizeDoneMsg) {
	if msg.seq == m.view.resizeSeq {
		m.view.renderWidth = msg.width
	}
}

// renderContext is what the cells draw with; tail is RenderContext.Tail.
func (m *Model) renderContext(tail int) *ui.RenderContext {
	return &ui.RenderContext{Styles: &m.styles, Markdown: m.markdown, Tail: tail}
}

// visibleTail is RenderContext.Tail for a screen whose first transcript
// line is top: every line from there to the bottom, plus a screen of
// margin (0, meaning all, before the first drawing).
func (m *Model) visibleTail(top, h int) int {
	total := m.view.transcript.Total()
	if total == 0 {
		return 0
	}
	return max(1, total-max(0, top)+h)
}

// scroll moves the transcript view by lines plus pages (a page is the
// transcript's height less 2 lines of overlap); at the top, it reads the
// thread's earlier turns, if any are left (older.go).
func (m *Model) scroll(lines, pages int) tea.Cmd {
	if m.sb.on && !m.fullScreen() {
		m.setNotice(noticeInfo, scrollbackHint) // scrollback.go: the terminal scrolls
		return nil
	}
	v := &m.view
	h := m.transcriptHeight()
	delta := lines + pages*(h-2)
	from := v.top
	if v.follow {
		from = v.transcript.Total() - h
	}
	// what may come into view gets drawn fully
	total := v.transcript.Sync(m.renderContext(m.visibleTail(from+delta, h)), m.RenderWidth())
	maxTop := max(0, total-h)
	if v.follow {
		v.top = maxTop
	}
	v.top += delta
	if v.top < 0 {
		v.top = 0
	}
	if v.top >= maxTop {
		v.top = maxTop
		v.follow = true
	} else {
		v.follow = false
	}
	return m.loadOlderIfTop()
}

// setTheme switches the palette for a dark or light terminal background.
func (m *Model) setTheme(dark bool) {
	if dark == m.styles.Dark && m.markdown != nil {
		return
	}
	m.setPalette(dark)
	m.view.transcript.Invalidate()
	m.view.frameOK, m.view.bottomLines = false, nil
}
