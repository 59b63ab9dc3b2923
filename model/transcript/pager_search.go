package transcript

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"tandem/internal/lib/find"
	"tandem/model/keys"
	"tandem/ui"
)

// The pager's search (`/`): the pager draws every cell whole, so it
// searches its own lines. While the query is typed the search line is
// its footer; Enter/Shift+Enter (n/N once the line is closed with Tab)
// step older and newer, Esc goes back where it began. The earlier
// turns not read yet are the transcript's search's (Ctrl+F).

// pagerFind is the pager's search.
type pagerFind struct {
	term   string
	q      find.Query
	typing bool
	// plain are the pager's lines without escapes (folded for a
	// query that ignores case), kept while the lines are the same
	// (n of them).
	plain, folded []string
	n             int
	// occ are the matches, in the lines' order; cur the current one
	// (-1 for none); top the pager's top when the search began.
	occ []pagerOcc
	cur int
	top int
}

// pagerOcc is the col-th match on line.
type pagerOcc struct{ line, col int }

// pagerFindKey handles a key of the pager's search, reporting whether
// it took it: `/` opens the search line, n and N step, and while the
// query is typed every key is the search line's.
func (p *Panes) pagerFindKey(k tea.KeyPressMsg, km *keys.Map) bool {
	pg := p.pager
	f := pg.find
	h := max(1, p.h-1)
	switch {
	case f != nil && f.typing:
	case key.Matches(k, km.PagerFind):
		pg.find = &pagerFind{typing: true, cur: -1, top: pg.top}
		return true
	case f != nil && key.Matches(k, km.PagerFindOlder):
		f.step(pg, -1, h)
		return true
	case f != nil && key.Matches(k, km.PagerFindNewer):
		f.step(pg, 1, h)
		return true
	default:
		return false
	}
	switch {
	case key.Matches(k, km.FindClose):
		pg.top = f.top
		pg.find = nil
	case key.Matches(k, km.FindStay):
		f.typing = false
	case key.Matches(k, km.FindOlder):
		f.step(pg, -1, h)
	case key.Matches(k, km.FindNewer):
		f.step(pg, 1, h)
	case key.Matches(k, km.FindErase):
		if r := []rune(f.term); len(r) > 0 {
			f.set(pg, string(r[:len(r)-1]), h)
		}
	case k.Text != "":
		f.set(pg, f.term+k.Text, h)
	}
	return true
}

// set searches the pager's lines for term and shows the match nearest
// above the bottom of where the search began.
func (f *pagerFind) set(pg *pager, term string, h int) {
	f.term, f.q = term, find.New(term)
	f.count(pg)
	f.cur = -1
	for i, o := range f.occ {
		if o.line > f.top+h-1 {
			break
		}
		f.cur = i
	}
	if f.cur < 0 && len(f.occ) > 0 {
		f.cur = 0
	}
	f.show(pg, h)
}

// count finds the query's matches in the pager's lines.
func (f *pagerFind) count(pg *pager) {
	if f.n != len(pg.lines) || f.plain == nil {
		f.plain, f.folded, f.n = make([]string, len(pg.lines)), nil, len(pg.lines)
		for i, l := range pg.lines {
			f.plain[i] = find.Plain(l)
		}
	}
	text := f.plain
	if f.q.Folds() {
		if f.folded == nil {
			f.folded = make([]string, len(f.plain))
			for i, l := range f.plain {
				f.folded[i] = find.Fold(l)
			}
		}
		text = f.folded
	}
	f.occ = f.occ[:0]
	if f.q.Empty() {
		return
	}
	for i, l := range text {
		for c := range f.q.Count(l) {
			f.occ = append(f.occ, pagerOcc{line: i, col: c})
		}
	}
}

// step moves to the match d (-1 older, 1 newer) from the current one.
func (f *pagerFind) step(pg *pager, d, h int) {
	if f.n != len(pg.lines) { // filled on since
		f.count(pg)
		f.cur = min(f.cur, len(f.occ)-1)
	}
	if next := f.cur + d; next >= 0 && next < len(f.occ) {
		f.cur = next
		f.show(pg, h)
	}
}

// show scrolls the current match to the middle of the pager.
func (f *pagerFind) show(pg *pager, h int) {
	if f.cur < 0 || f.cur >= len(f.occ) {
		return
	}
	pg.top = f.occ[f.cur].line - h/2
	pg.scroll(0, h+1)
}

// mark marks the matches on the pager's line i.
func (f *pagerFind) mark(i int, l string) string {
	if f == nil || f.q.Empty() {
		return l
	}
	col := -1
	if f.cur >= 0 && f.cur < len(f.occ) && f.occ[f.cur].line == i {
		col = f.occ[f.cur].col
	}
	return find.Mark(l, f.q.Spans(find.Plain(l)), col)
}

// footer is the pager's footer while its search has a query: the
// search line, or (closed with Tab) the query, the count and n/N.
func (f *pagerFind) footer(st ui.Styles, km *keys.Map, w int) string {
	count := "no match"
	if len(f.occ) > 0 {
		count = strconv.Itoa(f.cur+1) + "/" + strconv.Itoa(len(f.occ))
	}
	if f.q.Empty() {
		count = ""
	}
	left := " find: " + ui.SanitizeLine(f.term)
	k := func(b key.Binding) string { return keys.Short(b, 1) }
	hint := "  " + k(km.FindOlder) + " older · " + k(km.FindNewer) + " newer · " + k(km.FindStay) + " stay · " + k(km.FindClose) + " back "
	if f.typing {
		left += "▏"
	} else {
		hint = "  " + k(km.PagerFindOlder) + " older · " + k(km.PagerFindNewer) + " newer · " + k(km.PagerFind) + " again · " + keys.Short(km.PagerClose, 2) + " close "
	}
	right := count + " "
	if lipgloss.Width(left)+lipgloss.Width(right)+lipgloss.Width(hint) <= w {
		right = count + hint
	}
	line := left + strings.Repeat(" ", max(1, w-lipgloss.Width(left)-lipgloss.Width(right))) + right
	return st.Status.Reverse(true).Render(ui.Truncate(line, w))
}
