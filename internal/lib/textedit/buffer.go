// Package textedit is the composer's text: a multi-line buffer with a
// cursor that moves and deletes by grapheme cluster (👩‍💻, 🇫🇷, e + U+0301,
// 1️⃣ are one step each), soft-wrapped at a width in cells.
//
// Every edit costs the rows it touches, not the text: a paragraph (a line
// between newlines) is re-wrapped from the row above the edit until its
// rows line up with the old ones again (wrap.go), the total row count and
// the rows above the cursor are kept as counts, and Window hands out only
// the rows asked for. Text joins the whole buffer and is meant for
// submitting, not for every key.
//
// It draws nothing and knows no keys or terminal: the model's composer
// maps keys to these methods and styles the rows. It imports nothing of
// tandem and no rendering library.
package textedit

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Pos is a place in the buffer: a paragraph (line) index and a byte offset
// in it, on a grapheme cluster boundary.
type Pos struct{ Row, Col int }

// Buffer is the text being edited. The zero value is not ready: use New.
type Buffer struct {
	paras []para
	row   int // the cursor's paragraph
	col   int // the cursor's byte offset in it (a cluster boundary)
	width int // wrap width in cells, ≥ 1
	// method is how a cluster's width is measured (SetMethod): the zero
	// value is ansi.WcWidth, the renderer's default.
	method ansi.Method
	rows   int // visual rows of all paragraphs
	size   int // bytes, newlines included
	// above is the visual rows of the paragraphs before the cursor's,
	// when aboveOK.
	above   int
	aboveOK bool
	// goal is the display column Up and Down aim for (-1: the cursor's).
	goal int
}

// New returns an empty buffer wrapped at width cells (at least 1).
func New(width int) *Buffer {
	b := &Buffer{width: max(1, width), goal: -1}
	b.SetText("")
	return b
}

// SetWidth re-wraps the text at width cells (at least 1); it costs the
// whole text, so call it when the window's width changes.
func (b *Buffer) SetWidth(width int) {
	width = max(1, width)
	if width == b.width {
		return
	}
	b.width = width
	b.layoutAll()
}

// layoutAll wraps every paragraph again: it costs the whole text.
func (b *Buffer) layoutAll() {
	b.rows = 0
	for i := range b.paras {
		b.paras[i].layout(b.width, b.method)
		b.rows += len(b.paras[i].starts)
	}
	b.aboveOK = false
}

// SetMethod sets how the width of a cluster is measured, as the
// renderer measures it for the terminal: ansi.WcWidth (the default; a
// terminal without Unicode core mode, 2027) or ansi.GraphemeWidth (one
// that reported the mode). It re-wraps the whole text when it changes.
func (b *Buffer) SetMethod(m ansi.Method) {
	if m == b.method {
		return
	}
	b.method = m
	b.layoutAll()
}

// Width returns the wrap width in cells.
func (b *Buffer) Width() int { return b.width }

// SetText replaces the text (sanitized: see Sanitize) and puts the cursor
// at its end.
func (b *Buffer) SetText(s string) {
	s = Sanitize(s)
	lines := strings.Split(s, "\n")
	b.paras = make([]para, len(lines))
	b.rows = 0
	for i, l := range lines {
		b.paras[i].text = l
		b.paras[i].layout(b.width, b.method)
		b.rows += len(b.paras[i].starts)
	}
	b.size = len(s)
	b.row, b.col = len(lines)-1, len(lines[len(lines)-1])
	b.aboveOK, b.goal = false, -1
}

// Offset returns the cursor's byte offset in Text (a newline counts one).
func (b *Buffer) Offset() int {
	off := 0
	for _, p := range b.paras[:b.row] {
		off += len(p.text) + 1
	}
	return off + b.col
}

// SetOffset puts the cursor at byte offset off of Text, clamped to the
// text and moved back to the cluster boundary at or before it.
func (b *Buffer) SetOffset(off int) {
	off = max(0, off)
	row := 0
	for row < len(b.paras)-1 && off > len(b.paras[row].text) {
		off -= len(b.paras[row].text) + 1
		row++
	}
	t := b.paras[row].text
	off = min(off, len(t))
	col := 0
	for col < off {
		n := cluster(t, col)
		if col+n > off {
			break
		}
		col += n
	}
	b.row, b.col = row, col
	b.aboveOK, b.goal = false, -1
}

// Text returns the whole text, lines joined by "\n" (O(length)).
func (b *Buffer) Text() string {
	if len(b.paras) == 1 {
		return b.paras[0].text
	}
	var sb strings.Builder
	sb.Grow(b.size)
	for i, p := range b.paras {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(p.text)
	}
	return sb.String()
}

// Len returns the text's length in bytes, newlines included.
func (b *Buffer) Len() int { return b.size }

// Lines returns the number of lines (paragraphs).
func (b *Buffer) Lines() int { return len(b.paras) }

// Line returns line i's text.
func (b *Buffer) Line(i int) string { return b.paras[i].text }

// Cursor returns the cursor's place.
func (b *Buffer) Cursor() Pos { return Pos{b.row, b.col} }

// Before returns the cursor's line up to the cursor.
func (b *Buffer) Before() string { return b.paras[b.row].text[:b.col] }

// Rows returns the visual rows of the whole text at the buffer's width.
func (b *Buffer) Rows() int { return b.rows }

// CursorRow returns the visual row the cursor is on, counted from the
// text's first row.
func (b *Buffer) CursorRow() int { return b.rowsAbove() + b.paras[b.row].rowOf(b.col) }

func (b *Buffer) rowsAbove() int {
	if !b.aboveOK {
		b.above = 0
		for _, p := range b.paras[:b.row] {
			b.above += len(p.starts)
		}
		b.aboveOK = true
	}
	return b.above
}

// setRow moves the cursor to line row, keeping the count of rows above
// it when the move is by one line.
func (b *Buffer) setRow(row int) {
	switch {
	case !b.aboveOK:
	case row == b.row+1:
		b.above += len(b.paras[b.row].starts)
	case row == b.row-1:
		b.above -= len(b.paras[row].starts)
	case row != b.row:
		b.aboveOK = false
	}
	b.row = row
}

// edit replaces rem bytes at a in line i by ins (no newline in ins) and
// re-wraps only the rows it touched.
func (b *Buffer) edit(i, a, rem int, ins string) {
	p := &b.paras[i]
	before := len(p.starts)
	p.text = p.text[:a] + ins + p.text[a+rem:]
	p.relayout(b.width, b.method, a, rem, len(ins))
	d := len(p.starts) - before
	b.rows += d
	if i < b.row {
		b.above += d
	}
	b.size += len(ins) - rem
}

// Insert types s at the cursor (sanitized); the cursor ends after it.
func (b *Buffer) Insert(s string) {
	b.goal = -1
	s = Sanitize(s)
	if s == "" {
		return
	}
	nl := strings.IndexByte(s, '\n')
	if nl < 0 {
		b.edit(b.row, b.col, 0, s)
		b.col = snap(b.paras[b.row].text, b.col+len(s))
		return
	}
	lines := strings.Split(s, "\n")
	p := &b.paras[b.row]
	tail := p.text[b.col:]
	b.edit(b.row, b.col, len(tail), lines[0])
	added := make([]para, len(lines)-1)
	for k, l := range lines[1:] {
		added[k].text = l
	}
	last := &added[len(added)-1]
	lastCol := len(last.text)
	last.text += tail
	for k := range added {
		added[k].layout(b.width, b.method)
		b.rows += len(added[k].starts)
	}
	b.size += len(s) - len(lines[0]) + len(tail) // edit counted lines[0] and the tail's removal
	b.paras = slices.Insert(b.paras, b.row+1, added...)
	if b.aboveOK {
		for k := b.row; k < b.row+len(added); k++ {
			b.above += len(b.paras[k].starts)
		}
	}
	b.row += len(added)
	b.col = snap(b.paras[b.row].text, lastCol)
}

// deleteTo removes the text between the cursor and q on the cursor's
// line; the cursor ends at the range's start.
func (b *Buffer) deleteTo(q int) {
	a, e := min(b.col, q), max(b.col, q)
	if a == e {
		return
	}
	b.edit(b.row, a, e-a, "")
	b.col = snap(b.paras[b.row].text, a)
}

// joinUp merges the cursor's line into the one above, the cursor at the
// join; false on the first line.
func (b *Buffer) joinUp() bool {
	if b.row == 0 {
		return false
	}
	cur := b.paras[b.row]
	b.rows -= len(cur.starts)
	b.size -= len(cur.text) + 1 // edit adds the text back
	b.paras = slices.Delete(b.paras, b.row, b.row+1)
	b.setRow(b.row - 1)
	prev := &b.paras[b.row]
	at := len(prev.text)
	b.edit(b.row, at, 0, cur.text)
	b.col = snap(b.paras[b.row].text, at)
	return true
}

// joinDown merges the next line into the cursor's; false on the last.
func (b *Buffer) joinDown() bool {
	if b.row+1 >= len(b.paras) {
		return false
	}
	next := b.paras[b.row+1]
	b.rows -= len(next.starts)
	b.size -= len(next.text) + 1
	b.paras = slices.Delete(b.paras, b.row+1, b.row+2)
	at := len(b.paras[b.row].text)
	b.edit(b.row, at, 0, next.text)
	b.col = snap(b.paras[b.row].text, b.col)
	return true
}

// Backspace deletes the grapheme cluster before the cursor, or joins the
// line to the one above at a line's start. It reports whether anything
// was deleted.
func (b *Buffer) Backspace() bool { return b.deleteLeft(prevBoundary) }

// Delete deletes the grapheme cluster after the cursor, or joins the next
// line at a line's end. It reports whether anything was deleted.
func (b *Buffer) Delete() bool {
	return b.deleteRight(func(t string, col int) int { return col + cluster(t, col) })
}

// deleteLeft deletes from to(line, cursor) to the cursor on the cursor's
// line, or joins the line to the one above at a line's start (false on
// the first line). Backspace, DeleteWordLeft and KillToStart differ only
// in to.
func (b *Buffer) deleteLeft(to func(line string, col int) int) bool {
	b.goal = -1
	if b.col == 0 {
		return b.joinUp()
	}
	b.deleteTo(to(b.paras[b.row].text, b.col))
	return true
}

// deleteRight deletes from the cursor to to(line, cursor) on the cursor's
// line, or joins the next line at a line's end (false on the last line).
// Delete, DeleteWordRight and KillToEnd differ only in to.
func (b *Buffer) deleteRight(to func(line string, col int) int) bool {
	b.goal = -1
	t := b.paras[b.row].text
	if b.col >= len(t) {
		return b.joinDown()
	}
	b.deleteTo(to(t, b.col))
	return true
}

// DeleteBefore deletes n bytes before the cursor on its line (a
// placeholder token the caller found there with Before).
func (b *Buffer) DeleteBefore(n int) {
	b.goal = -1
	b.deleteTo(max(0, b.col-n))
}

// Left moves one grapheme cluster left, to the end of the line above at
// a line's start.
func (b *Buffer) Left() {
	b.goal = -1
	if b.col > 0 {
		b.col = prevBoundary(b.paras[b.row].text, b.col)
	} else if b.row > 0 {
		b.setRow(b.row - 1)
		b.col = len(b.paras[b.row].text)
	}
}

// Right moves one grapheme cluster right, to the start of the next line
// at a line's end.
func (b *Buffer) Right() {
	b.goal = -1
	t := b.paras[b.row].text
	if b.col < len(t) {
		n := cluster(t, b.col)
		b.col += n
	} else if b.row+1 < len(b.paras) {
		b.setRow(b.row + 1)
		b.col = 0
	}
}

// Home moves to the start of the line; End to its end.
func (b *Buffer) Home() { b.goal, b.col = -1, 0 }

// End moves to the end of the cursor's line.
func (b *Buffer) End() { b.goal, b.col = -1, len(b.paras[b.row].text) }

// Top moves to the start of the text; Bottom to its end.
func (b *Buffer) Top() {
	b.goal = -1
	b.setRow(0)
	b.col = 0
}

// Bottom moves to the end of the text.
func (b *Buffer) Bottom() {
	b.goal = -1
	b.setRow(len(b.paras) - 1)
	b.col = len(b.paras[b.row].text)
}

// Slice returns the text from from to the cursor (from at or before it).
func (b *Buffer) Slice(from Pos) string {
	if from.Row == b.row {
		return b.paras[b.row].text[from.Col:b.col]
	}
	var sb strings.Builder
	sb.WriteString(b.paras[from.Row].text[from.Col:])
	for _, p := range b.paras[from.Row+1 : b.row] {
		sb.WriteByte('\n')
		sb.WriteString(p.text)
	}
	sb.WriteByte('\n')
	sb.WriteString(b.paras[b.row].text[:b.col])
	return sb.String()
}

// DeleteSlice deletes the text from from to the cursor (from at or before
// it); the cursor ends at from.
func (b *Buffer) DeleteSlice(from Pos) {
	b.goal = -1
	if from.Row == b.row {
		b.deleteTo(from.Col)
		return
	}
	tail := b.paras[b.row].text[b.col:]
	for _, p := range b.paras[from.Row+1 : b.row+1] {
		b.rows -= len(p.starts)
		b.size -= len(p.text) + 1
	}
	b.paras = slices.Delete(b.paras, from.Row+1, b.row+1)
	b.row, b.aboveOK = from.Row, false
	t := b.paras[b.row].text
	b.edit(b.row, from.Col, len(t)-from.Col, tail)
	b.col = snap(b.paras[b.row].text, from.Col)
}
