package transcript

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"tandem/thread"
	"tandem/ui"
)

// Native scrollback (--no-alt-screen, Options.NoAltScreen): the program
// runs inline, not in the alternate screen. A cell that finished is drawn
// once, at the window's width of the time, and printed above the program
// (tea.Println), so it lands in the terminal's own scrollback, where the
// terminal's search, selection and copy reach the whole conversation. What
// is still going on — the cells not finished yet, the form, the composer,
// the status line — is the live area, which Bubble Tea redraws inline
// below them.
//
// Which cells were printed is kept by cell identity (one cell per thread
// item, plus this viewer's banners), never by comparing screens, so a
// resize re-wraps only the live area: the lines printed are the
// terminal's, and it reflows them itself.
//
// Order: cells are printed in transcript order; the first cell still
// running holds back the ones after it (they wait in the live area). One
// print is in flight at a time — tea.Println runs as a command, and two
// commands may run in either order — and its acknowledgement
// (scrollPrintedMsg, sent after it by tea.Sequence) lets the next one go.
//
// The pager (Ctrl+T) and a sub-agent's view (F3) are full screens: they
// switch to the alternate screen while open, and nothing is printed until
// they close (printing into the alternate screen would lose the lines).

// Room: Bubble Tea prints above the program by scrolling the screen
// (tea.Println): a print of more rows than lie above the live area would
// scroll the live area itself into the scrollback. So the live area never
// takes more than the window less its reserve (liveReserve), and one
// print carries at most that many rows; a long history goes out in
// several, each after the last one's acknowledgement.

const (
	// drawChunk is about how many lines one update draws for printing: a
	// long history (a resumed thread) is drawn a chunk at a time, so no
	// single update renders all of it.
	drawChunk = 400
	// altSettle is how long printing waits after the pager or a sub-agent
	// view closed: the renderer leaves the alternate screen on its next
	// frame (1/60 s), and a print before that would go into it.
	altSettle = 120 * time.Millisecond
)

// cellState is where a cell is on its way to the scrollback.
type cellState uint8

const (
	cellLive    cellState = iota // not printed: drawn in the live area
	cellQueued                   // drawn for printing; the print is not acknowledged yet
	cellPrinted                  // in the terminal's scrollback
)

// scrollback is the --no-alt-screen state of one viewer.
type scrollback struct {
	on bool
	// profile is the terminal's colour profile (tea.ColorProfileMsg): the
	// printed lines bypass the renderer, so they are converted here.
	profile colorprofile.Profile
	// state is each cell's state by identity; missing means cellLive.
	state map[ui.Cell]cellState
	// plans are the plan cells printed and the version printed: a plan
	// changes during its turn, and each change is printed again once
	// (as Codex prints each plan update).
	plans map[ui.Cell]int
	// from is the index of the first transcript cell not queued (a hint,
	// checked against state: the transcript is replaced on a thread
	// switch).
	from int
	// pending are lines drawn and waiting to be printed, pendingCells the
	// cells they draw (each with the end of its lines in pending);
	// inflight the cells whose last line is in the print in flight (nil:
	// no print is), seq its number. A cell is printed once all its lines
	// are: a tall one may take several prints.
	pending      []string
	pendingCells []pendingCell
	inflight     []ui.Cell
	seq          int
	// bulk is set while more is waiting to be printed than the live area
	// holds (a resumed thread's history, a long answer done): the live
	// area then leaves out what is queued, so it never grows tall only to
	// shrink once the prints are out — the terminal keeps a shrunk inline
	// area where it was, blank rows under the composer.
	bulk bool
	// hold stops printing until holdSeq's altSettle tick (after a full
	// screen closed).
	hold    bool
	holdSeq int
	// left is the thread whose cells were printed before a thread
	// switch; quit is the command that ends the program once the print in
	// flight and the rest are out.
	left string
	quit tea.Cmd
	// print is the command that prints text above the program:
	// tea.Println (tests record what it is given).
	print func(text string) tea.Cmd
	// frame is the last live area drawn, at frameW×frameH: a streaming
	// delta that changes nothing drawn yet reuses it (a render cache, as
	// the alternate screen's transcriptView.frame).
	frame          string
	frameOK        bool
	frameW, frameH int
}

// ScrollbackHint answers PgUp and PgDn with --no-alt-screen: there is no
// transcript of tandem's own to scroll.
const ScrollbackHint = "the conversation is in your terminal's scrollback: scroll it there (shift+pgup, the wheel) — ctrl+t opens the pager"

// pendingCell is a cell drawn into pending, whose lines end at end.
type pendingCell struct {
	cell ui.Cell
	end  int
}

// scrollPrintedMsg acknowledges print seq: its lines are in the terminal.
type scrollPrintedMsg struct{ seq int }

// scrollResumeMsg ends the hold of seq after a full screen closed.
type scrollResumeMsg struct{ seq int }

func (scrollPrintedMsg) panesMsg() {}
func (scrollResumeMsg) panesMsg()  {}

func newScrollback(on, noColor bool) scrollback {
	p := colorprofile.ANSI256
	if noColor {
		p = colorprofile.Ascii
	}
	return scrollback{on: on, profile: p, state: map[ui.Cell]cellState{}, plans: map[ui.Cell]int{},
		print: func(text string) tea.Cmd { return tea.Println(text) }}
}

// PrintFacts are what printing into the scrollback asks of the rest of
// the screen.
type PrintFacts struct {
	// Running: a turn runs (only what finished is printed).
	Running bool
	// Quitting: the program is ending (everything is printed).
	Quitting bool
	// Bottom counts the rows below the transcript (form, composer,
	// status line) as they are drawn now.
	Bottom func() int
}

// Inline reports --no-alt-screen: finished cells go to the terminal's
// scrollback.
func (p *Panes) Inline() bool { return p.sb.on }

// FullScreen reports whether a full screen of this viewer is open (the
// pager, a sub-agent's pane).
func (p *Panes) FullScreen() bool { return p.pager != nil || p.AgentShown() }

// AltScreen reports whether the view is drawn in the alternate screen:
// always without --no-alt-screen; with it, while a full screen is open —
// unless a print is in flight, which must reach the normal screen first.
func (p *Panes) AltScreen() bool {
	return !p.sb.on || (p.FullScreen() && p.sb.inflight == nil)
}

// ColorProfile notes the terminal's colour profile: the printed lines
// bypass the renderer, so they are converted here.
func (p *Panes) ColorProfile(msg tea.ColorProfileMsg) { p.sb.profile = msg.Profile }

// onScrollMsg takes a print's acknowledgement or the end of a hold.
func (p *Panes) onScrollMsg(msg Msg, f PrintFacts) tea.Cmd {
	s := &p.sb
	switch msg := msg.(type) {
	case scrollPrintedMsg:
		if msg.seq != s.seq {
			return nil
		}
		for _, c := range s.inflight {
			s.state[c] = cellPrinted
		}
		s.inflight = nil
		if len(s.pending) == 0 && len(s.pendingCells) == 0 {
			s.bulk = false
		}
		if q := s.quit; q != nil {
			if len(s.pending) == 0 && len(s.pendingCells) == 0 {
				s.quit = nil
				return q
			}
			return p.flushPrint(f)
		}
		return p.EmitFinished(f)
	case scrollResumeMsg:
		if msg.seq == s.holdSeq {
			s.hold = false
		}
		return p.EmitFinished(f)
	}
	return nil
}

// AfterUpdate follows a message with --no-alt-screen: wasFull says a full
// screen was open before it; one that closed holds printing until the
// renderer has left the alternate screen (altSettle). Then what finished
// is printed.
func (p *Panes) AfterUpdate(wasFull bool, f PrintFacts) tea.Cmd {
	if !p.sb.on {
		return nil
	}
	s := &p.sb
	var resume tea.Cmd
	if wasFull && !p.FullScreen() {
		s.hold = true
		s.holdSeq++
		seq := s.holdSeq
		resume = p.env.Clock.After(altSettle, func(time.Time) tea.Msg { return scrollResumeMsg{seq: seq} })
	}
	return tea.Batch(resume, p.EmitFinished(f))
}

// EmitFinished draws the cells that finished since the last call, in
// order, and starts their print when none is in flight. It prints nothing
// before the window's size is known, while a full screen is open or
// settling, or once quitting.
func (p *Panes) EmitFinished(f PrintFacts) tea.Cmd {
	s := &p.sb
	if !s.on || p.w == 0 || f.Quitting || p.FullScreen() || s.hold {
		return nil
	}
	p.queueCells(false, f.Running)
	return p.flushPrint(f)
}

// queueCells draws the thread's cells not printed yet into pending: the
// finished ones up to the first that is not (all of them when all is
// set, for quitting), about drawChunk lines at a time; a plan printed
// before that changed since is drawn again.
func (p *Panes) queueCells(all, running bool) {
	s := &p.sb
	cells := p.main.v.transcript.Cells
	var ctx *ui.RenderContext // made when something is drawn: this runs after every delta
	draw := func(c ui.Cell) []string {
		if ctx == nil {
			ctx = p.renderContext(0)
		}
		return ui.RenderCell(c, ctx, p.width())
	}
	for c, v := range s.plans {
		if c.Version() != v && s.state[c] == cellPrinted {
			s.plans[c] = c.Version()
			s.pending = append(s.pending, draw(c)...)
		}
	}
	i := s.scanFrom(cells)
	for ; i < len(cells) && (all || len(s.pending) < drawChunk); i++ {
		c := cells[i]
		if s.state[c] != cellLive {
			continue
		}
		if !all && !finished(c, i == len(cells)-1, running) {
			break
		}
		s.pending = append(s.pending, draw(c)...)
		s.pendingCells = append(s.pendingCells, pendingCell{cell: c, end: len(s.pending)})
		s.state[c] = cellQueued
		if it := cellItem(c); it != nil && it.Kind == thread.Plan {
			s.plans[c] = c.Version()
		}
	}
	s.from = i
}

// scanFrom returns the index of the first cell not queued, from the
// hint. A hint that does not fit the cells (the transcript was replaced)
// starts over, and forgets the cells that are gone.
func (s *scrollback) scanFrom(cells []ui.Cell) int {
	i := s.from
	if i > len(cells) || (i > 0 && s.state[cells[i-1]] == cellLive) {
		i = 0
		keep := make(map[ui.Cell]cellState, len(cells))
		for _, c := range cells {
			if st, ok := s.state[c]; ok {
				keep[c] = st
			}
		}
		for _, c := range s.inflight {
			keep[c] = cellQueued
		}
		s.state = keep
		for c := range s.plans {
			if _, ok := keep[c]; !ok {
				delete(s.plans, c)
			}
		}
	}
	for i < len(cells) && s.state[cells[i]] != cellLive {
		i++
	}
	return i
}

// liveFrom returns the index of the first cell not in the scrollback
// yet: the live area draws the cells from there.
func (s *scrollback) liveFrom(cells []ui.Cell) int {
	for i, c := range cells {
		if s.state[c] != cellPrinted {
			return i
		}
	}
	return len(cells)
}

// finished reports whether cell c may go to the scrollback: once its turn
// ended (running false) everything may; before, a cell still streaming
// or running may not, nor an item not completed, and a plan only once
// something follows it (last: c is the transcript's last cell).
func finished(c ui.Cell, last, running bool) bool {
	if !running {
		return true
	}
	if l, ok := c.(ui.Live); ok && l.Live() {
		return false
	}
	it := cellItem(c)
	switch {
	case it == nil:
		return true // a banner, an echoed prompt
	case it.Kind == thread.Plan:
		return !last
	}
	return it.Done
}

// cellItem returns the thread item c draws (nil for a cell of this
// viewer's own).
func cellItem(c ui.Cell) *thread.Item {
	if ic, ok := c.(ui.ItemCell); ok {
		return ic.ThreadItem()
	}
	return nil
}

// flushPrint starts printing the pending lines unless a print is in
// flight: one tea.Println of at most printRows lines, then its
// acknowledgement.
func (p *Panes) flushPrint(f PrintFacts) tea.Cmd {
	s := &p.sb
	if s.inflight != nil || (len(s.pending) == 0 && len(s.pendingCells) == 0) {
		return nil
	}
	bottom := f.Bottom() // drawn once: it is not cached outside a delta or tick
	n := min(len(s.pending), p.printRows(bottom, f.Quitting))
	if n <= 0 && len(s.pending) > 0 {
		return nil // no room above the live area now (a form on a short window): later
	}
	if len(s.pending) > p.LiveRoom(bottom) {
		s.bulk = true
	}
	text := s.colour(strings.Join(s.pending[:n], "\n"))
	s.inflight = []ui.Cell{}
	k := 0
	for ; k < len(s.pendingCells) && s.pendingCells[k].end <= n; k++ {
		s.inflight = append(s.inflight, s.pendingCells[k].cell)
	}
	rest := s.pendingCells[k:]
	for i := range rest {
		rest[i].end -= n
	}
	s.pending, s.pendingCells = s.pending[n:], rest
	if len(s.pending) == 0 {
		s.pending = nil
	}
	s.seq++
	seq := s.seq
	return tea.Sequence(s.print(text), func() tea.Msg { return scrollPrintedMsg{seq: seq} })
}

// colour converts styled text to the terminal's colour profile.
func (s *scrollback) colour(text string) string {
	if s.profile == colorprofile.TrueColor {
		return text
	}
	var b strings.Builder
	w := &colorprofile.Writer{Forward: &b, Profile: s.profile}
	_, _ = w.WriteString(text)
	return b.String()
}

// Quit returns the command that ends the program with --no-alt-screen:
// every cell not printed yet is printed as it is now (after the print in
// flight), then quit runs. Without it, quit.
func (p *Panes) Quit(quit tea.Cmd, f PrintFacts) tea.Cmd {
	s := &p.sb
	if !s.on || p.w == 0 {
		return quit
	}
	p.queueCells(true, f.Running)
	if s.inflight != nil {
		s.quit = quit // scrollPrintedMsg prints the rest, then quits
		return nil
	}
	if len(s.pending) == 0 && len(s.pendingCells) == 0 {
		return quit
	}
	s.quit = quit // scrollPrintedMsg sends the next print, and then quits
	return p.flushPrint(f)
}

// The methods below let a driver stand in for the terminal and the clock
// (the tests): record the prints, acknowledge them, end a hold or a
// resize at once.

// SetPrinter replaces how a print reaches the terminal (tea.Println).
func (p *Panes) SetPrinter(print func(text string) tea.Cmd) { p.sb.print = print }

// InFlight returns the acknowledgement of the print in flight, if one is.
func (p *Panes) InFlight() (Msg, bool) {
	if p.sb.inflight == nil {
		return nil, false
	}
	return scrollPrintedMsg{seq: p.sb.seq}, true
}

// Printing reports whether anything waits to be printed or is printing.
func (p *Panes) Printing() bool {
	s := &p.sb
	return s.bulk || len(s.pending) > 0 || len(s.pendingCells) > 0 || s.inflight != nil
}

// QuitWaits reports whether quitting waits for prints to finish.
func (p *Panes) QuitWaits() bool { return p.sb.quit != nil }

// HoldDone is the message that ends the hold after a full screen closed.
func (p *Panes) HoldDone() Msg { return scrollResumeMsg{seq: p.sb.holdSeq} }

// ResizeDone is the message that says the resizes have settled.
func (p *Panes) ResizeDone() Msg { return resizeDoneMsg{seq: p.resizeSeq, width: p.width()} }
