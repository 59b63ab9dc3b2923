package screen

import (
	"image/color"
	"strconv"

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
			if !penKnown || !pen.Equal(c.Style) {
				b = appendSGR(b, pen, penKnown, c.Style)
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

// appendSGR appends one SGR sequence that changes the pen from from to
// s: only what differs, or everything after a reset ("0;…") when from is
// not known or s drops an attribute from's has.
func appendSGR(b []byte, from Style, known bool, s Style) []byte {
	reset := !known || from.Attrs&^s.Attrs != 0 || (from.Underline != 0 && s.Underline == 0)
	if reset && s.IsZero() {
		return append(b, ansi.ResetStyle...)
	}
	if reset {
		from = Style{}
		b = append(b, "\x1b[0"...)
	} else {
		b = append(b, "\x1b["...)
	}
	first := !reset
	sep := func() {
		if !first {
			b = append(b, ';')
		}
		first = false
	}
	for i, code := range [...]string{"1", "2", "3", "5", "6", "7", "8", "9"} {
		if bit := Attr(1 << i); s.Attrs&bit != 0 && from.Attrs&bit == 0 {
			sep()
			b = append(b, code...)
		}
	}
	if s.Underline != from.Underline {
		sep()
		switch s.Underline {
		case ansi.UnderlineSingle:
			b = append(b, '4')
		default:
			b = append(b, "4:"...)
			b = strconv.AppendInt(b, int64(s.Underline), 10)
		}
	}
	for _, k := range [...]struct {
		from, to     color.Color
		base, bright int
		ext, none    string
	}{
		{from.Fg, s.Fg, 30, 90, "38", "39"},
		{from.Bg, s.Bg, 40, 100, "48", "49"},
		{from.UnderlineColor, s.UnderlineColor, -1, -1, "58", "59"},
	} {
		if colorEqual(k.from, k.to) {
			continue
		}
		sep()
		if k.to == nil {
			b = append(b, k.none...)
			continue
		}
		b = appendColor(b, k.to, k.base, k.bright, k.ext)
	}
	return append(b, 'm')
}

// appendColor appends the SGR parameters for c (not nil): base+n (or
// bright+n-8) for the 16 basic colours where the kind has such codes,
// else ext;5;n or ext;2;r;g;b.
func appendColor(b []byte, c color.Color, base, bright int, ext string) []byte {
	switch c := c.(type) {
	case ansi.BasicColor:
		if base >= 0 {
			if c < 8 {
				return strconv.AppendInt(b, int64(base)+int64(c), 10)
			}
			return strconv.AppendInt(b, int64(bright)+int64(c)-8, 10)
		}
		b = append(b, ext...)
		b = append(b, ";5;"...)
		return strconv.AppendInt(b, int64(c), 10)
	case ansi.IndexedColor:
		b = append(b, ext...)
		b = append(b, ";5;"...)
		return strconv.AppendInt(b, int64(c), 10)
	}
	r, g, bl, _ := c.RGBA()
	b = append(b, ext...)
	b = append(b, ";2;"...)
	b = strconv.AppendInt(b, int64(r>>8), 10)
	b = append(b, ';')
	b = strconv.AppendInt(b, int64(g>>8), 10)
	b = append(b, ';')
	return strconv.AppendInt(b, int64(bl>>8), 10)
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
