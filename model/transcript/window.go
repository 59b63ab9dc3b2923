package transcript

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/ui"
)

// resizeDebounce is how long the transcript waits for resizes to settle
// before it re-wraps at the new width.
const resizeDebounce = 80 * time.Millisecond

// resizeDoneMsg says the resizes of seq have settled at width.
type resizeDoneMsg struct{ seq, width int }

func (resizeDoneMsg) panesMsg() {}

// width is the window's width as the transcript lays it out (at least
// 20).
func (p *Panes) width() int { return max(20, p.w) }

// RenderWidth is the width the cells are drawn at: it follows the window
// once its resizes settle (resizeDebounce).
func (p *Panes) RenderWidth() int {
	if p.renderWidth == 0 {
		return p.width()
	}
	return p.renderWidth
}

// Resize takes the window's new size; the cells are drawn at the new
// width once the resizes settle (until then lines are cut to the window),
// and the pager draws again at once.
func (p *Panes) Resize(w, h int) tea.Cmd {
	p.w, p.h = w, h
	if p.renderWidth == 0 {
		p.renderWidth = p.width()
		return nil
	}
	var fill tea.Cmd
	switch {
	case p.PageOpen():
		p.layOutPage(p.pager.top)
	case p.pager != nil:
		fill = p.openPager(p.pager.tail)
	}
	p.resizeSeq++
	seq, width := p.resizeSeq, p.width()
	return tea.Batch(fill, p.env.Clock.After(resizeDebounce, func(time.Time) tea.Msg { return resizeDoneMsg{seq: seq, width: width} }))
}

// renderContext is what the cells draw with; tail is RenderContext.Tail
// (with it, Rows is the window's height).
func (p *Panes) renderContext(tail int) *ui.RenderContext {
	ctx := &ui.RenderContext{Styles: &p.look.Styles, Markdown: p.look.Markdown, Tail: tail}
	if tail > 0 {
		// what lies far below the screen's top waits until it comes
		// into view (a search may have jumped far up a long thread)
		ctx.Rows = max(1, p.h)
	}
	return ctx
}

// visibleTail is RenderContext.Tail for a screen whose first transcript
// line is top: every line from there to the bottom, plus a screen of
// margin (0, meaning all, before the first drawing).
func (v *view) visibleTail(top, h int) int {
	total := v.transcript.Total()
	if total == 0 {
		return 0
	}
	return max(1, total-max(0, top)+h)
}

// Window draws the shown pane's transcript in h rows: its last lines when
// following the bottom, else from where it was scrolled to, with a "more
// below" line last. It returns at most h lines (fewer when there is
// less); it only fills the render caches.
func (p *Panes) Window(h int) []string {
	if s := p.find; s != nil && s.pane == p.shown && h > 1 {
		return p.findWindow(h) // the search line below (search_view.go)
	}
	return p.window(h)
}

// window is Window without the search line.
func (p *Panes) window(h int) []string {
	v := &p.shown.v
	w := p.width()
	// Only the visible cells' lines are touched: Sync re-renders changed
	// cells (live ones once a frame), Window slices by line counts.
	// Following the bottom, only the last h lines are on screen: what
	// lies above may be laid out cheaply until the user scrolls up.
	tail := h
	if !v.follow {
		tail = v.visibleTail(v.top, h)
	}
	ctx := p.renderContext(tail)
	ctx.Rows = h // a search may have jumped far up: what is far below waits
	total := v.transcript.Sync(ctx, p.RenderWidth())
	maxTop := max(0, total-h)
	top := v.top
	if v.follow || top > maxTop {
		top = maxTop
	}
	visible := v.transcript.Window(top, h, w)
	if !v.follow && top < maxTop && len(visible) > 0 {
		visible = append([]string(nil), visible...)
		visible[len(visible)-1] = p.look.Styles.Dim.Render(ui.Truncate("↓ more below (PgDn)", w))
	}
	return visible
}

// Frame returns the last screen kept for the shown pane at w×h, if it is
// still good: nothing drawn since is pending in the transcript.
func (p *Panes) Frame(w, h int) (string, time.Time, bool) {
	v := &p.shown.v
	if v.frameOK && v.frameW == w && v.frameH == h && !v.transcript.Pending() {
		return v.frame, v.frameAt, true
	}
	return "", time.Time{}, false
}

// KeepFrame keeps the screen just drawn at w×h (a render cache).
func (p *Panes) KeepFrame(frame string, w, h int) {
	v := &p.shown.v
	v.frame, v.frameOK, v.frameW, v.frameH, v.frameAt = frame, true, w, h, p.clock()
}

// DropFrame forgets the kept screen (something changed it).
func (p *Panes) DropFrame() { p.shown.v.frameOK = false }

// Flush lets the streaming deltas held back be drawn at the next frame.
func (p *Panes) Flush() { p.shown.v.transcript.Flush() }

// Scroll moves the shown pane by lines plus pages on a transcript h rows
// tall (a page is h less 2 lines of overlap); at the top, it reads the
// thread's earlier turns, if any are left (older.go). canRead says a
// client is there to read them with.
func (p *Panes) Scroll(lines, pages, h int, canRead bool) {
	v := &p.shown.v
	delta := lines + pages*(h-2)
	from := v.top
	if v.follow {
		from = v.transcript.Total() - h
	}
	// what may come into view gets drawn fully
	total := v.transcript.Sync(p.renderContext(v.visibleTail(from+delta, h)), p.RenderWidth())
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
	p.LoadOlderIfTop(h, canRead)
}

// Update takes a message of the panes' own (Msg); print facts are what a
// scrollback print needs of the rest of the screen.
func (p *Panes) Update(msg Msg, f PrintFacts) tea.Cmd {
	switch msg := msg.(type) {
	case resizeDoneMsg:
		if msg.seq == p.resizeSeq {
			p.renderWidth = msg.width
		}
	case pagerFillMsg:
		return p.onPagerFill(msg)
	case scrollPrintedMsg, scrollResumeMsg:
		return p.onScrollMsg(msg, f)
	}
	return nil
}
