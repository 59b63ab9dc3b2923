package picture

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"tandem/internal/lib/screen"
)

// SVG geometry, in pixels: a cell, the window frame's padding and bar.
const (
	svgCellW  = 8.4 // 0.6 em of a 14 px monospace font
	svgCellH  = 17
	svgFont   = 14
	svgBase   = 13 // the baseline within a row
	svgPad    = 12
	svgBar    = 30
	svgRadius = 8
)

// SVG writes one self-contained animated SVG in the style of svg-term:
// every distinct row is defined once (<defs>), each frame is a group of
// <use> references to its rows, the frames are stacked, and one CSS
// animation moves the stack a frame at a time (steps, keyframes at each
// frame's time). The text is real text. It keeps the rows and the frame
// list in memory, not the frames' cells.
type SVG struct {
	w      io.Writer
	o      Options
	th     *Theme
	rows   map[string]int // a row's drawing → its id
	defs   bytes.Buffer
	frames []svgFrame
	fg     map[color.RGBA]int // colour → class number
	bg     map[color.RGBA]int
	b      strings.Builder
}

type svgFrame struct {
	at   time.Duration
	rows []int // row id per screen row; -1 blank
}

// NewSVG returns an Encoder writing an animated SVG to w.
func NewSVG(w io.Writer, o Options) *SVG {
	return &SVG{w: w, o: o, th: o.theme(), rows: map[string]int{}, fg: map[color.RGBA]int{}, bg: map[color.RGBA]int{}}
}

// Frames implements Encoder.
func (s *SVG) Frames() int { return len(s.frames) }

// Add implements Encoder.
func (s *SVG) Add(at time.Duration, f *screen.Frame) error {
	fr := svgFrame{at: at, rows: make([]int, s.o.Rows)}
	for y := range fr.rows {
		fr.rows[y] = -1
		if y < f.Rows {
			fr.rows[y] = s.row(f, y)
		}
	}
	s.frames = append(s.frames, fr)
	return nil
}

// row returns the id of row y's drawing, defining it on first use.
func (s *SVG) row(f *screen.Frame, y int) int {
	s.b.Reset()
	cells := f.Row(y)
	if len(cells) > s.o.Cols {
		cells = cells[:s.o.Cols]
	}
	// Backgrounds: one rect per run of one colour that isn't the
	// default.
	for x := 0; x < len(cells); {
		lk := s.th.look(cells[x].Style)
		end := x + 1
		for end < len(cells) && s.th.look(cells[end].Style).bg == lk.bg {
			end++
		}
		if lk.bg != s.th.Bg {
			fmt.Fprintf(&s.b, `<rect x="%s" width="%s" height="%d" class="b%d"/>`, num(float64(x)*svgCellW), num(float64(end-x)*svgCellW), svgCellH, s.class(s.bg, lk.bg))
		}
		x = end
	}
	// Text: one <text> per run of one look; a wide grapheme is a run of
	// its own, so the text after it starts at its column whatever the
	// font's width for it. Blank runs are left out.
	for x := 0; x < len(cells); {
		c := cells[x]
		lk := s.th.look(c.Style)
		lined := lk.under || lk.strike // its blanks show
		if c.Width == 0 || c.Content == " " && !lined {
			x++
			continue
		}
		end := x + max(c.Width, 1)
		var text strings.Builder
		text.WriteString(c.Content)
		for c.Width == 1 && end < len(cells) {
			n := cells[end]
			if n.Width != 1 || s.th.look(n.Style) != lk {
				break
			}
			text.WriteString(n.Content)
			end++
		}
		str := text.String()
		if !lined {
			str = strings.TrimRight(str, " ")
		}
		fmt.Fprintf(&s.b, `<text x="%s" y="%d" class="%s">`, num(float64(x)*svgCellW), svgBase, s.textClass(lk))
		_ = xml.EscapeText(&s.b, []byte(str))
		s.b.WriteString(`</text>`)
		x = end
	}
	d := s.b.String()
	if d == "" {
		return -1
	}
	if id, ok := s.rows[d]; ok {
		return id
	}
	id := len(s.rows)
	s.rows[d] = id
	fmt.Fprintf(&s.defs, `<g id="r%s">%s</g>`, strconv.FormatInt(int64(id), 36), d)
	s.defs.WriteByte('\n')
	return id
}

func (s *SVG) class(m map[color.RGBA]int, c color.RGBA) int {
	if n, ok := m[c]; ok {
		return n
	}
	n := len(m)
	m[c] = n
	return n
}

func (s *SVG) textClass(lk look) string {
	cl := "f" + strconv.Itoa(s.class(s.fg, lk.fg))
	if lk.bold {
		cl += " B"
	}
	if lk.italic {
		cl += " I"
	}
	switch {
	case lk.under && lk.strike:
		cl += " US"
	case lk.under:
		cl += " U"
	case lk.strike:
		cl += " S"
	}
	return cl
}

// num formats a pixel value rounded to two decimals.
func num(v float64) string {
	v = math.Round(v*100) / 100
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// Close implements Encoder: it writes the SVG, the last frame held until
// end.
func (s *SVG) Close(end time.Duration) error {
	bw := bufio.NewWriter(s.w)
	screenW, screenH := float64(s.o.Cols)*svgCellW, float64(s.o.Rows*svgCellH)
	bar := svgBar
	totalW, totalH := screenW+2*svgPad, screenH+2*svgPad+float64(bar)
	th := s.th
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="%s" height="%s" viewBox="0 0 %s %s" font-size="%d" xml:space="preserve">`+"\n",
		num(totalW), num(totalH), num(totalW), num(totalH), svgFont)
	if s.o.Title != "" {
		bw.WriteString("<title>")
		_ = xml.EscapeText(bw, []byte(s.o.Title))
		bw.WriteString("</title>\n")
	}
	bw.WriteString("<style>\n")
	fmt.Fprintf(bw, "text{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,\"DejaVu Sans Mono\",\"Liberation Mono\",monospace;white-space:pre}\n")
	fmt.Fprintf(bw, ".B{font-weight:bold}.I{font-style:italic}.U{text-decoration:underline}.S{text-decoration:line-through}.US{text-decoration:underline line-through}\n")
	for _, n := range sortedClasses(s.fg) {
		fmt.Fprintf(bw, ".f%d{fill:%s}", n.n, rgbHex(n.c))
	}
	for _, n := range sortedClasses(s.bg) {
		fmt.Fprintf(bw, ".b%d{fill:%s}", n.n, rgbHex(n.c))
	}
	bw.WriteString("\n")
	total := max(end, time.Millisecond)
	iter := "infinite"
	if !s.o.Loop {
		iter = "1 forwards"
	}
	fmt.Fprintf(bw, ".a{animation:k %ss steps(1,end) %s}\n", strconv.FormatFloat(total.Seconds(), 'f', 3, 64), iter)
	bw.WriteString("@keyframes k{")
	for i, fr := range s.frames {
		pct := 100 * float64(fr.at) / float64(total)
		if i == 0 {
			pct = 0
		}
		fmt.Fprintf(bw, "%s%%{transform:translateY(%spx)}", strconv.FormatFloat(pct, 'f', 3, 64), num(-float64(i)*screenH))
	}
	fmt.Fprintf(bw, "100%%{transform:translateY(%spx)}}\n", num(-float64(len(s.frames)-1)*screenH))
	bw.WriteString("</style>\n")
	// The window frame.
	fmt.Fprintf(bw, `<rect width="%s" height="%s" rx="%d" fill="%s"/>`+"\n", num(totalW), num(totalH), svgRadius, rgbHex(th.Bg))
	fmt.Fprintf(bw, `<path d="M0 %d a%d %d 0 0 1 %d -%d h%s a%d %d 0 0 1 %d %d v%d h-%s z" fill="%s"/>`+"\n",
		svgRadius, svgRadius, svgRadius, svgRadius, svgRadius, num(totalW-2*svgRadius), svgRadius, svgRadius, svgRadius, svgRadius, bar-svgRadius, num(totalW), rgbHex(th.Bar))
	for i, c := range th.Dots {
		fmt.Fprintf(bw, `<circle cx="%d" cy="%d" r="6" fill="%s"/>`, svgPad+8+i*20, bar/2, rgbHex(c))
	}
	bw.WriteString("\n")
	if s.o.Title != "" {
		fmt.Fprintf(bw, `<text x="%s" y="%d" text-anchor="middle" fill="%s" font-size="13">`, num(totalW/2), bar/2+5, rgbHex(th.TitleFg))
		_ = xml.EscapeText(bw, []byte(s.o.Title))
		bw.WriteString("</text>\n")
	}
	fmt.Fprintf(bw, "<defs>\n%s</defs>\n", s.defs.Bytes())
	fmt.Fprintf(bw, `<svg x="%d" y="%d" width="%s" height="%s" overflow="hidden"><g class="a" fill="%s">`+"\n", svgPad, bar+svgPad, num(screenW), num(screenH), rgbHex(th.Fg))
	for i, fr := range s.frames {
		fmt.Fprintf(bw, `<g transform="translate(0 %s)">`, num(float64(i)*screenH))
		for y, id := range fr.rows {
			if id >= 0 {
				fmt.Fprintf(bw, `<use xlink:href="#r%s" y="%d"/>`, strconv.FormatInt(int64(id), 36), y*svgCellH)
			}
		}
		bw.WriteString("</g>\n")
	}
	bw.WriteString("</g></svg>\n</svg>\n")
	return bw.Flush()
}

type classColor struct {
	n int
	c color.RGBA
}

// sortedClasses lists a class map by class number, so the output is the
// same every time.
func sortedClasses(m map[color.RGBA]int) []classColor {
	out := make([]classColor, len(m))
	for c, n := range m {
		out[n] = classColor{n, c}
	}
	return out
}

func rgbHex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }
