package textedit

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// wordLeftOf returns where a word motion left of col lands on line t:
// back over spaces, then over the word before them.
func wordLeftOf(t string, col int) int {
	for col > 0 {
		p := prevBoundary(t, col)
		if !isSpace(t, p) {
			break
		}
		col = p
	}
	for col > 0 {
		p := prevBoundary(t, col)
		if isSpace(t, p) {
			break
		}
		col = p
	}
	return col
}

// wordRightOf returns where a word motion right of col lands on line t:
// over spaces, then to the end of the word after them.
func wordRightOf(t string, col int) int {
	for col < len(t) && isSpace(t, col) {
		n := cluster(t, col)
		col += n
	}
	for col < len(t) && !isSpace(t, col) {
		n := cluster(t, col)
		col += n
	}
	return col
}

// WordLeft moves to the start of the word before the cursor (to the end
// of the line above at a line's start).
func (b *Buffer) WordLeft() {
	if b.col == 0 {
		b.Left()
		return
	}
	b.goal = -1
	b.col = wordLeftOf(b.paras[b.row].text, b.col)
}

// WordRight moves to the end of the word after the cursor (to the next
// line at a line's end).
func (b *Buffer) WordRight() {
	t := b.paras[b.row].text
	if b.col >= len(t) {
		b.Right()
		return
	}
	b.goal = -1
	b.col = wordRightOf(t, b.col)
}

// DeleteWordLeft deletes the word before the cursor (and the spaces
// after it), or joins the line above at a line's start.
func (b *Buffer) DeleteWordLeft() bool { return b.deleteLeft(wordLeftOf) }

// DeleteWordRight deletes the word after the cursor (and the spaces
// before it), or joins the next line at a line's end.
func (b *Buffer) DeleteWordRight() bool { return b.deleteRight(wordRightOf) }

// KillToEnd deletes from the cursor to the end of its line, or joins the
// next line at a line's end.
func (b *Buffer) KillToEnd() bool {
	return b.deleteRight(func(t string, _ int) int { return len(t) })
}

// KillToStart deletes from the start of the cursor's line to the cursor,
// or joins the line above at a line's start.
func (b *Buffer) KillToStart() bool {
	return b.deleteLeft(func(string, int) int { return 0 })
}

// Case changes the case of the word after the cursor — upper, lower, or
// a capital first letter (how) — and moves past it.
func (b *Buffer) Case(how CaseChange) {
	b.goal = -1
	t := b.paras[b.row].text
	a := b.col
	for a < len(t) && isSpace(t, a) {
		n := cluster(t, a)
		a += n
	}
	e := wordRightOf(t, a)
	if a == e {
		b.col = e
		return
	}
	word := t[a:e]
	switch how {
	case Upper:
		word = strings.ToUpper(word)
	case Lower:
		word = strings.ToLower(word)
	case Capital:
		r, n := utf8.DecodeRuneInString(word)
		word = string(unicode.ToUpper(r)) + strings.ToLower(word[n:])
	}
	b.edit(b.row, a, e-a, word)
	b.col = snap(b.paras[b.row].text, a+len(word))
}

// CaseChange is what Case does to a word.
type CaseChange int

// The case changes: Upper (Alt+U), Lower (Alt+L), Capital (Alt+C).
const (
	Upper CaseChange = iota
	Lower
	Capital
)

// colAt returns the display column of byte offset col in row i of p.
func colAt(p *para, i, col int, m ansi.Method) int {
	w := 0
	for pos := p.starts[i]; pos < col; {
		n, cw := clusterWidth(p.text, pos, m)
		pos += n
		w += cw
	}
	return w
}

// offsetAt returns the byte offset in row i of p nearest display column x
// without passing it; never the row's end unless it is the line's end.
func offsetAt(p *para, i, x int, m ansi.Method) int {
	pos, end := p.starts[i], p.rowEnd(i)
	last := i == len(p.starts)-1
	w := 0
	for pos < end {
		n, cw := clusterWidth(p.text, pos, m)
		if w+cw > x || (!last && pos+n >= end) {
			break
		}
		pos += n
		w += cw
	}
	return pos
}

// goalRow returns the cursor's line and its visual row in it, for Up and
// Down; the first of a run of them sets the goal, the display column the
// run keeps to.
func (b *Buffer) goalRow() (*para, int) {
	p := &b.paras[b.row]
	i := p.rowOf(b.col)
	if b.goal < 0 {
		b.goal = colAt(p, i, b.col, b.method)
	}
	return p, i
}

// Up moves to the visual row above, at the same display column (kept
// over a run of Up and Down); on the first row, to the start of the text.
// It reports whether the cursor moved.
func (b *Buffer) Up() bool {
	p, i := b.goalRow()
	switch {
	case i > 0:
		b.col = offsetAt(p, i-1, b.goal, b.method)
	case b.row > 0:
		b.setRow(b.row - 1)
		q := &b.paras[b.row]
		b.col = offsetAt(q, len(q.starts)-1, b.goal, b.method)
	default:
		moved := b.col != 0
		b.col = 0
		return moved
	}
	return true
}

// Down moves to the visual row below, at the same display column; on the
// last row, to the end of the text. It reports whether the cursor moved.
func (b *Buffer) Down() bool {
	p, i := b.goalRow()
	switch {
	case i+1 < len(p.starts):
		b.col = offsetAt(p, i+1, b.goal, b.method)
	case b.row+1 < len(b.paras):
		b.setRow(b.row + 1)
		b.col = offsetAt(&b.paras[b.row], 0, b.goal, b.method)
	default:
		moved := b.col != len(p.text)
		b.col = len(p.text)
		return moved
	}
	return true
}

// Row is one visual row handed out by Window.
type Row struct {
	// Text is the row's text; trailing spaces may reach past the width.
	Text string
	// Line is the line (paragraph) the row belongs to.
	Line int
	// Cursor is the display column of the cursor on this row, -1 when
	// the cursor is elsewhere; CursorAt is its byte offset in Text.
	Cursor, CursorAt int
	// Under is the grapheme cluster under the cursor ("" at the end of
	// the row's text).
	Under string
}

// Window returns up to n visual rows starting at row top (counted from
// the text's first row); top must lie within n rows of the cursor's row,
// as a view that keeps the cursor visible has it. The cost is the rows
// returned.
func (b *Buffer) Window(top, n int) []Row {
	line, first := b.row, b.rowsAbove()
	for first > top && line > 0 {
		line--
		first -= len(b.paras[line].starts)
	}
	for line < len(b.paras)-1 && first+len(b.paras[line].starts) <= top {
		first += len(b.paras[line].starts)
		line++
	}
	out := make([]Row, 0, n)
	i := max(0, top-first)
	for line < len(b.paras) && len(out) < n {
		p := &b.paras[line]
		for ; i < len(p.starts) && len(out) < n; i++ {
			r := Row{Text: p.text[p.starts[i]:p.rowEnd(i)], Line: line, Cursor: -1}
			if line == b.row && p.rowOf(b.col) == i {
				r.Cursor, r.CursorAt = colAt(p, i, b.col, b.method), b.col-p.starts[i]
				if b.col < len(p.text) && b.col < p.rowEnd(i) {
					c := cluster(p.text, b.col)
					r.Under = p.text[b.col : b.col+c]
				}
			}
			out = append(out, r)
		}
		line, i = line+1, 0
	}
	return out
}
