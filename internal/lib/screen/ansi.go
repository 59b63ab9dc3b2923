package screen

import (
	"strconv"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// AppendDiff appends to b the escape sequences that turn a terminal
// showing prev into one showing cur, and returns the result (b unchanged
// when the two look alike). Only the picture is drawn: for each changed
// row, a cursor position, the changed run of its cells with their SGR
// attributes and colours, and an erase to the end of the line when the
// row ends in blanks from there; then the cursor position and visibility,
// and the window title (OSC 0) when it changed. A nil prev, or one of
// another size, clears the screen and draws all of cur. Nothing else is
// written: no modes, bells, clipboard or hyperlinks.
func AppendDiff(b []byte, prev, cur *Frame) []byte {
	full := prev == nil || prev.Cols != cur.Cols || prev.Rows != cur.Rows
	if full {
		b = append(b, "\x1b[m\x1b[H\x1b[2J"...)
	}
	pen, penKnown := Style{}, full
	drew := false
	for y := 0; y < cur.Rows; y++ {
		row := cur.Row(y)
		end := len(row)
		for end > 0 && row[end-1].blank() {
			end--
		}
		from, to := 0, len(row) // the cells to draw: [from, to)
		if full {
			if end == 0 {
				continue // cleared already
			}
		} else {
			var ok bool
			if from, to, ok = changed(prev.Row(y), row); !ok {
				continue
			}
		}
		drew = true
		b = append(b, "\x1b["...)
		b = strconv.AppendInt(b, int64(y+1), 10)
		if from > 0 {
			b = append(b, ';')
			b = strconv.AppendInt(b, int64(from+1), 10)
		}
		b = append(b, 'H')
		erase := to >= end && end < len(row)
		for _, c := range row[min(from, end):min(to, end)] {
			if c.Width == 0 {
				continue
			}
			if !penKnown || !pen.Equal(&c.Style) {
				b = appendPen(b, pen, penKnown, c.Style)
				pen, penKnown = c.Style, true
			}
			b = append(b, c.Content...)
		}
		if erase {
			if !penKnown || !pen.IsZero() {
				b = append(b, "\x1b[m"...)
				pen, penKnown = Style{}, true
			}
			b = append(b, ansi.EraseLineRight...)
		}
	}
	if penKnown && !pen.IsZero() {
		b = append(b, "\x1b[m"...)
	}
	if full || drew || prev.CursorX != cur.CursorX || prev.CursorY != cur.CursorY {
		b = append(b, ansi.CursorPosition(cur.CursorX+1, cur.CursorY+1)...)
	}
	if full || prev.CursorVisible != cur.CursorVisible {
		if cur.CursorVisible {
			b = append(b, ansi.ShowCursor...)
		} else {
			b = append(b, ansi.HideCursor...)
		}
	}
	if (full && cur.Title != "") || (!full && prev.Title != cur.Title) {
		b = append(b, "\x1b]0;"...)
		b = appendPrintable(b, cur.Title)
		b = append(b, '\a')
	}
	return b
}

// changed returns the cells of row b that differ from row a, [from, to),
// widened so that neither end cuts a wide grapheme, shown or replaced;
// ok is false when the rows are alike.
func changed(a, b []Cell) (from, to int, ok bool) {
	from = 0
	for from < len(b) && a[from].equal(b[from]) {
		from++
	}
	if from == len(b) {
		return 0, 0, false
	}
	to = len(b)
	for to > from && a[to-1].equal(b[to-1]) {
		to--
	}
	for from > 0 && (a[from].Width == 0 || b[from].Width == 0) {
		from--
	}
	for to < len(b) && (a[to].Width == 0 || b[to].Width == 0) {
		to++
	}
	return from, to, true
}

// appendPen appends the SGR sequence that moves the pen from pen (from a
// reset when the pen is not known) to s: ultraviolet's diff of the two.
func appendPen(b []byte, pen Style, known bool, s Style) []byte {
	if !known {
		b, pen = append(b, ansi.ResetStyle...), Style{}
	}
	return append(b, uv.StyleDiff(&pen, &s)...)
}

// appendPrintable appends s without its control characters (a title
// must not end its own OSC sequence).
func appendPrintable(b []byte, s string) []byte {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			continue
		}
		b = append(b, string(r)...)
	}
	return b
}
