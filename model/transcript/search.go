package transcript

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tandem/internal/lib/find"
	"tandem/model/act"
	"tandem/model/keys"
	"tandem/ui"
)

// The thread's search (Ctrl+F, docs/SEARCH.md "In a thread"): a search
// line below the transcript of the pane on screen. Every keystroke
// counts the query in every cell's text (search_text.go) and scrolls
// to the match nearest above where the search began, marked; Enter and
// Shift+Enter step older and newer, opening a collapsed cell a match is
// in; past the oldest match of the turns drawn, the earlier turns not
// read yet are searched (search_older.go). Esc goes back where the
// search began, Tab stays.

// search is the open search line of a pane.
type search struct {
	pane  *Pane
	term  string
	q     find.Query
	texts texts
	// hits are the cells with matches, in the transcript's order, as of
	// the transcript's cells when counted (cells); total the occurrences
	// in them, cur the current one (-1 for none).
	hits  []hit
	total int
	cur   int
	cells int
	// versions is the sum of the cells' versions when counted: it grows
	// when a cell's text does (a turn streams), so stepping counts again.
	versions int
	// from is where the search began: the cell at the screen's bottom
	// (the nearest match above it comes first), and the scroll to go
	// back to (anchor, the cell at the top, and the lines into it).
	from         ui.Cell
	follow       bool
	anchor       ui.Cell
	anchorOffset int
	// at is the current match as drawn; lines the plain lines of its
	// cell (locate).
	at    place
	lines cellLines
	// note is a word about the last step ("no earlier match", …).
	note string
	// older is a search of the earlier turns not read yet, running.
	older *olderSearch
	// exhausted: the earlier turns hold no match of term (searched).
	exhausted string
}

// hit is a cell with n matches, numbered from first; idx its index as
// counted.
type hit struct {
	cell     ui.Cell
	idx      int
	first, n int
}

// place is where a match is drawn: line off of cell (drawn at width,
// version, n lines), its col-th match on that line.
type place struct {
	cell                    ui.Cell
	off, col                int
	version, width, hint, n int
}

// FindInlineHint is why the find key opens no search line with
// --no-alt-screen (the transcript is in the terminal's scrollback),
// naming km's pager and pager-find keys.
func FindInlineHint(km *keys.Map) string {
	return "with --no-alt-screen the transcript is the terminal's: search it there, or " +
		keys.Short(km.Pager, 1) + " then " + keys.Short(km.PagerFind, 1) + " searches the pager"
}

// FindFacts are what the search line asks of the rest: the
// transcript's rows and whether a client is there to read earlier
// turns with.
type FindFacts struct {
	Height  int
	CanRead bool
}

// Finding reports whether the search line is open.
func (p *Panes) Finding() bool { return p.find != nil }

// OpenFind opens the search line on the pane shown (h: the
// transcript's rows), or, open already, keeps it.
func (p *Panes) OpenFind(h int) {
	if p.find != nil {
		return
	}
	if p.Inline() && !p.FullScreen() { // the terminal's scrollback: not tandem's to search
		p.env.Out.Notice(act.NoticeInfo, FindInlineHint(p.keys))
		return
	}
	v := &p.shown.v
	tail := h
	if !v.follow {
		tail = v.visibleTail(v.top, h)
	}
	total := v.transcript.Sync(p.renderContext(tail), p.RenderWidth())
	top := v.top
	if v.follow {
		top = max(0, total-h)
	}
	s := &search{pane: p.shown, cur: -1, follow: v.follow}
	if n := len(v.transcript.Cells); n > 0 {
		a := cellIndexAt(&v.transcript, top)
		s.anchor, s.anchorOffset = v.transcript.Cells[a], top-v.transcript.Start(a)
		s.from = v.transcript.Cells[cellIndexAt(&v.transcript, top+h-1)]
	}
	p.find = s
	v.frameOK = false
}

// cellIndexAt is the index of the cell drawing line (the last starting
// at or before it).
func cellIndexAt(t *ui.Transcript, line int) int {
	lo, hi := 0, len(t.Cells)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if t.Start(mid) <= line {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return max(0, lo)
}

// indexOf is c's index in t (hint first), -1 when it is not there.
func indexOf(t *ui.Transcript, c ui.Cell, hint int) int {
	if hint >= 0 && hint < len(t.Cells) && t.Cells[hint] == c {
		return hint
	}
	for i, x := range t.Cells {
		if x == c {
			return i
		}
	}
	return -1
}

// FindKey handles a key while the search line is open: text types into
// the query, the search line's keys step, stay or close.
func (p *Panes) FindKey(k tea.KeyPressMsg, km *keys.Map, f FindFacts) {
	s := p.find
	h := max(1, f.Height-1) // the search line takes a row
	s.pane.v.frameOK = false
	switch {
	case key.Matches(k, km.FindClose):
		if s.older != nil {
			p.stopOlderSearch("stopped")
			return
		}
		p.closeFind(true)
	case key.Matches(k, km.FindStay):
		p.closeFind(false)
	case key.Matches(k, km.FindOlder):
		p.stepFind(-1, h, f.CanRead)
	case key.Matches(k, km.FindNewer):
		p.stepFind(1, h, f.CanRead)
	case key.Matches(k, km.FindErase):
		if r := []rune(s.term); len(r) > 0 {
			p.setFindTerm(string(r[:len(r)-1]), h)
		}
	case k.Text != "":
		p.setFindTerm(s.term+k.Text, h)
	}
}

// FindPaste types text into the search line (its first line).
func (p *Panes) FindPaste(text string, h int) {
	text, _, _ = strings.Cut(text, "\n")
	p.setFindTerm(p.find.term+text, max(1, h-1))
}

// closeFind closes the search line; back goes back where the search
// began.
func (p *Panes) closeFind(back bool) {
	s := p.find
	if s.older != nil {
		p.stopOlderSearch("")
	}
	p.find = nil
	v := &s.pane.v
	v.frameOK = false
	if !back {
		return
	}
	v.follow = s.follow
	if i := indexOf(&v.transcript, s.anchor, -1); i >= 0 && !s.follow {
		v.top = v.transcript.Start(i) + s.anchorOffset
	}
}

// setFindTerm searches for term and shows the match nearest above where
// the search began.
func (p *Panes) setFindTerm(term string, h int) {
	s := p.find
	old := s.q
	s.term, s.q, s.note = term, find.New(term), ""
	if s.older != nil {
		p.stopOlderSearch("")
	}
	narrow := !old.Empty() && strings.HasPrefix(term, old.Term()) && old.Folds() == s.q.Folds()
	p.count(narrow)
	s.cur = s.nearest(&s.pane.v.transcript)
	if s.cur >= 0 {
		p.gotoMatch(h)
	}
}

// count counts the query in the pane's cells; narrow: the query only
// grew, so only the cells that matched before can match now.
func (p *Panes) count(narrow bool) {
	s := p.find
	cells := s.pane.v.transcript.Cells
	var prev []hit
	if narrow && s.cells == len(cells) && s.versions == versionSum(cells) {
		prev = s.hits
	} else {
		narrow = false
	}
	s.hits, s.total, s.cells, s.versions = s.hits[:0:0], 0, len(cells), versionSum(cells)
	if s.q.Empty() {
		return
	}
	if len(s.texts) < len(cells) {
		s.texts = append(s.texts, make([]cellText, len(cells)-len(s.texts))...)
	}
	add := func(i int, c ui.Cell) {
		if n := s.q.Count(s.texts.of(i, c, s.q)); n > 0 {
			s.hits = append(s.hits, hit{cell: c, idx: i, first: s.total, n: n})
			s.total += n
		}
	}
	if narrow {
		for _, h := range prev {
			add(h.idx, h.cell)
		}
		return
	}
	for i, c := range cells {
		add(i, c)
	}
}

// versionSum is the sum of cells' versions (each only grows).
func versionSum(cells []ui.Cell) int {
	n := 0
	for _, c := range cells {
		n += c.Version()
	}
	return n
}

// nearest is the last match at or above the cell the search began at
// the bottom of (the first match below it when none is above), -1 for
// none.
func (s *search) nearest(t *ui.Transcript) int {
	if len(s.hits) == 0 {
		return -1
	}
	from := indexOf(t, s.from, -1)
	if from < 0 {
		from = len(t.Cells) - 1
	}
	best := -1
	for _, h := range s.hits {
		if h.idx > from {
			break
		}
		best = h.first + h.n - 1
	}
	if best < 0 {
		best = 0
	}
	return best
}

// stepFind moves to the match d (-1 older, 1 newer) from the current
// one; past the oldest, it searches the earlier turns not read yet.
func (p *Panes) stepFind(d, h int, canRead bool) {
	s := p.find
	s.note = ""
	if s.q.Empty() || s.older != nil {
		return
	}
	if cells := s.pane.v.transcript.Cells; s.cells != len(cells) || s.versions != versionSum(cells) { // items came, or text streamed, since
		p.count(false)
		if s.cur >= s.total {
			s.cur = s.total - 1
		}
	}
	next := s.cur + d
	switch {
	case s.total == 0 && d > 0:
		return
	case next < 0 || s.total == 0:
		p.findOlder(h, canRead)
		return
	case next >= s.total:
		s.note = "no later match"
		return
	}
	s.cur = next
	p.gotoMatch(h)
}

// gotoMatch opens the current match's cell if it is collapsed and
// scrolls it to the middle of a transcript h rows tall.
func (p *Panes) gotoMatch(h int) {
	s := p.find
	var ht hit
	for _, x := range s.hits {
		if s.cur < x.first+x.n {
			ht = x
			break
		}
	}
	v := &s.pane.v
	t := &v.transcript
	i := indexOf(t, ht.cell, ht.idx)
	if i < 0 {
		return
	}
	if o, ok := ht.cell.(ui.Opener); ok {
		o.Open()
	}
	// Laid out as it is (a huge answer's blocks off screen drawn plain,
	// as many lines): the lines around the match are styled when the
	// window draws them.
	width := p.RenderWidth()
	tail := h
	if !v.follow {
		tail = v.visibleTail(v.top, h)
	}
	total := t.Total()
	if t.Pending() { // opened now, or changed since the last frame
		total = t.Sync(p.renderContext(tail), width)
	}
	s.at = s.locate(t, i, width, s.cur-ht.first)
	s.at.cell, s.at.hint = ht.cell, i
	v.follow = false
	v.top = min(max(0, t.Start(i)+s.at.off-h/2), max(0, total-h))
}

// locate finds the j-th match drawn in cell i of t (drawn at width):
// its line and its place on it. A match the drawing does not show whole
// (cut by a wrap, or hidden) is placed at the last one drawn, or the
// cell's first line. The cell's lines are kept plain (and folded) while
// it is drawn the same, so stepping in a huge answer scans text only.
func (s *search) locate(t *ui.Transcript, i, width, j int) place {
	c := t.Cells[i]
	start := t.Start(i)
	n := t.Start(i+1) - start
	k := &s.lines
	if k.cell != c || k.version != c.Version() || k.width != width || k.n != n || k.fold != s.q.Folds() {
		lines := t.Window(start, n, width)
		*k = cellLines{cell: c, version: c.Version(), width: width, n: n, fold: s.q.Folds(), text: make([]string, len(lines))}
		for x, l := range lines {
			k.text[x] = find.Plain(l)
			if k.fold {
				k.text[x] = find.Fold(k.text[x])
			}
		}
	}
	at := place{col: -1, version: k.version, width: width, n: n}
	for off, l := range k.text {
		m := s.q.Count(l)
		if j < m {
			at.off, at.col = off, j
			return at
		}
		j -= m
		if m > 0 {
			at.off, at.col = off, m-1
		}
	}
	return at
}

// cellLines are the plain (folded, for a query that ignores case)
// lines of the cell last searched for a match's place, as drawn at
// width (version, n lines).
type cellLines struct {
	cell              ui.Cell
	version, width, n int
	fold              bool
	text              []string
}
