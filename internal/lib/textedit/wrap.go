package textedit

import (
	"sort"

	"github.com/charmbracelet/x/ansi"
)

// para is one line of the text (between newlines) and its soft wrap:
// starts holds the byte offset of each visual row, starts[0] == 0. The
// last row may start at len(text), empty: it holds the cursor after a
// row that fills the width.
type para struct {
	text   string
	starts []int
}

// nextRow lays out the row of s that starts at start in width cells. It
// returns where the next row starts, or, for the row that reaches the
// end of s, last and the row's width. Words break at spaces, which hang
// past the edge rather than start a row; a row may also break before or
// after a wide (CJK) cluster; a word longer than the row is cut; a
// cluster wider than the row has a row of its own.
func nextRow(s string, start, width int, m ansi.Method) (next, w int, last bool) {
	pos, brk := start, -1
	for pos < len(s) {
		n, cw := clusterWidth(s, pos, m)
		if s[pos] == ' ' {
			pos += n
			w += cw
			brk = pos
			continue
		}
		wide := cw > 1 && wideCluster(s[pos:pos+n])
		if w+cw > width {
			switch {
			case wide && pos > start:
				return pos, 0, false
			case brk > start:
				return brk, 0, false
			case pos > start:
				return pos, 0, false
			}
			return pos + n, 0, false
		}
		if wide && pos > start {
			brk = pos
		}
		pos += n
		w += cw
		if wide {
			brk = pos
		}
	}
	return len(s), w, true
}

// wideCluster reports whether c is one wide character (CJK, an emoji),
// which a row may break before or after as between words. A cluster
// that is two cells only because its code points are counted one by one
// (a Devanagari letter and its vowel sign, नि) is part of its word.
func wideCluster(c string) bool { return ansi.StringWidth(c) > 1 }

// layoutFrom appends to starts the rows of s from its last entry on.
func layoutFrom(s string, width int, m ansi.Method, starts []int) []int {
	start := starts[len(starts)-1]
	for {
		next, w, last := nextRow(s, start, width, m)
		if last {
			if w >= width {
				starts = append(starts, len(s)) // the cursor's cell after a full row
			}
			return starts
		}
		starts = append(starts, next)
		start = next
	}
}

// layout wraps the whole paragraph at width cells measured by m.
func (p *para) layout(width int, m ansi.Method) {
	p.starts = layoutFrom(p.text, width, m, append(p.starts[:0], 0))
}

// relayout re-wraps the paragraph after an edit at byte a that replaced
// rem bytes by ins bytes (p.text is already the new text). Rows before
// the one above the edit cannot change; from there it lays rows out
// until one starts where an old row did (shifted by the edit), after
// which the old rows hold. The cost is the rows the edit touched, not
// the paragraph.
func (p *para) relayout(width int, m ansi.Method, a, rem, ins int) {
	old := p.starts
	delta := ins - rem
	i := sort.SearchInts(old, a+1) - 1 // the last row starting at or before a
	j := max(i-1, 0)
	starts := make([]int, j+1, len(old)+2)
	copy(starts, old[:j+1])
	start := starts[j]
	for {
		next, w, last := nextRow(p.text, start, width, m)
		if last {
			if w >= width {
				starts = append(starts, len(p.text))
			}
			break
		}
		starts = append(starts, next)
		if o := next - delta; next >= a+ins && o >= a+rem {
			if k := sort.SearchInts(old, o); k < len(old) && old[k] == o {
				for _, s := range old[k+1:] {
					starts = append(starts, s+delta)
				}
				break
			}
		}
		start = next
	}
	p.starts = starts
}

// rowOf returns the index of the row that shows byte offset col: a
// position at a row's end shows at the start of the next row.
func (p *para) rowOf(col int) int {
	return sort.SearchInts(p.starts, col+1) - 1
}

// rowEnd returns where row i ends (the next row's start, or len(text)).
func (p *para) rowEnd(i int) int {
	if i+1 < len(p.starts) {
		return p.starts[i+1]
	}
	return len(p.text)
}
