package picture

import (
	"image"
	"image/color"
	"unicode/utf8"
)

// boxArms are the box-drawing characters drawn as lines: their arms up,
// right, down and left, each 0 (none), 1 (light) or 2 (heavy). Dashed
// lines are drawn solid, rounded corners square.
var boxArms = map[rune][4]int{
	'─': {0, 1, 0, 1}, '╌': {0, 1, 0, 1}, '┄': {0, 1, 0, 1},
	'━': {0, 2, 0, 2},
	'│': {1, 0, 1, 0}, '╎': {1, 0, 1, 0}, '┆': {1, 0, 1, 0},
	'┃': {2, 0, 2, 0},
	'┌': {0, 1, 1, 0}, '╭': {0, 1, 1, 0},
	'┐': {0, 0, 1, 1}, '╮': {0, 0, 1, 1},
	'└': {1, 1, 0, 0}, '╰': {1, 1, 0, 0},
	'┘': {1, 0, 0, 1}, '╯': {1, 0, 0, 1},
	'├': {1, 1, 1, 0},
	'┤': {1, 0, 1, 1},
	'┬': {0, 1, 1, 1},
	'┴': {1, 1, 0, 1},
	'┼': {1, 1, 1, 1},
}

// drawn returns a mask for the characters a terminal draws itself rather
// than from its font, and that tandem's screens use: box-drawing lines
// and corners (light and heavy), block elements, Braille patterns (the
// spinner), and a few marks Go Mono lacks that tandem draws (✓ ✔ ✗ • ●
// ☰ ✎ ◐ ○). nil for any other
// grapheme. w×h is the cell in pixels.
func drawn(s string, w, h int) *image.Alpha {
	r, n := utf8.DecodeRuneInString(s)
	if n != len(s) {
		return nil
	}
	m := image.NewAlpha(image.Rect(0, 0, w, h))
	on := color.Alpha{A: 0xff}
	rect := func(x0, y0, x1, y1 int) {
		for y := max(y0, 0); y < min(y1, h); y++ {
			for x := max(x0, 0); x < min(x1, w); x++ {
				m.SetAlpha(x, y, on)
			}
		}
	}
	cx, cy := w/2, h/2
	// lines draws the arms of a box-drawing character: up, right, down,
	// left, each 0 (none), 1 (light) or 2 (heavy).
	lines := func(up, right, down, left int) {
		t := func(k int) int { return k } // thickness in pixels
		if up > 0 {
			rect(cx-t(up)/2, 0, cx-t(up)/2+t(up), cy+1)
		}
		if down > 0 {
			rect(cx-t(down)/2, cy, cx-t(down)/2+t(down), h)
		}
		if left > 0 {
			rect(0, cy-t(left)/2, cx+1, cy-t(left)/2+t(left))
		}
		if right > 0 {
			rect(cx, cy-t(right)/2, w, cy-t(right)/2+t(right))
		}
	}
	if a, ok := boxArms[r]; ok {
		lines(a[0], a[1], a[2], a[3])
		return m
	}
	switch {
	case r == '█':
		rect(0, 0, w, h)
	case r == '▀':
		rect(0, 0, w, h/2)
	case r == '▄':
		rect(0, h/2, w, h)
	case r == '▌':
		rect(0, 0, w/2, h)
	case r == '▐':
		rect(w/2, 0, w, h)
	case r >= '▁' && r <= '▇': // lower eighths
		rect(0, h-h*int(r-'▁'+1)/8, w, h)
	case r >= 0x2800 && r <= 0x28ff: // Braille: dots 1-8
		bits := r - 0x2800
		pos := [8][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}, {0, 3}, {1, 3}}
		for i, p := range pos {
			if bits&(1<<i) != 0 {
				x, y := w/4+p[0]*w/2, h/8+p[1]*h/4+1
				rect(x-1, y-1, x+1, y+1)
			}
		}
	case r == '•' || r == '●':
		rad := 2
		if r == '●' {
			rad = 3
		}
		for y := -rad; y <= rad; y++ {
			for x := -rad; x <= rad; x++ {
				if x*x+y*y <= rad*rad+1 {
					m.SetAlpha(cx+x, cy+y, on)
				}
			}
		}
	case r == '✓' || r == '✔':
		th := 1
		if r == '✔' {
			th = 2
		}
		// Two strokes: down-right to the bottom, then up to the top right.
		for i := 0; i <= 3; i++ {
			rect(1+i, cy+i-1, 1+i+th, cy+i-1+th)
		}
		for i := 0; i <= w-5; i++ {
			rect(4+i, cy+2-i*2, 4+i+th, cy+2-i*2+th+1)
		}
	case r == '☰': // three bars
		for _, y := range []int{cy - 4, cy, cy + 4} {
			rect(1, y-1, w-1, y+1)
		}
	case r == '✎' || r == '✏': // a pencil: a diagonal stroke
		for i := 0; i < w-2; i++ {
			y := cy + 4 - i*8/(w-2)
			rect(1+i, y-1, 3+i, y+1)
		}
	case r == '◐' || r == '◑' || r == '○' || r == '◯':
		rad := min(w, h)/2 - 1
		for y := -rad; y <= rad; y++ {
			for x := -rad; x <= rad; x++ {
				d := x*x + y*y
				ring := d <= rad*rad && d >= (rad-1)*(rad-1)
				half := d <= rad*rad && (r == '◐' && x <= 0 || r == '◑' && x >= 0)
				if ring || half {
					m.SetAlpha(cx+x, cy+y, on)
				}
			}
		}
	case r == '✗' || r == '✘':
		for i := 1; i < w-1; i++ {
			y := cy - (w-2)/2 + i - 1
			rect(i, y, i+1, y+1)
			rect(w-1-i, y, w-i, y+1)
		}
	default:
		return nil
	}
	return m
}
