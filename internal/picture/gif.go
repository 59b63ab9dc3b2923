package picture

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"io"
	"time"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/gomonobolditalic"
	"golang.org/x/image/font/gofont/gomonoitalic"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"tandem/internal/lib/screen"
)

// GIF geometry, in pixels.
const (
	gifCellW = 8
	gifCellH = 16
	gifPad   = 10
	gifBar   = 26
)

// GIF writes an animated GIF drawn with Go Mono (bundled, so
// nothing needs installing): a palette from the theme (its colours, the
// xterm 6×6×6 cube and greys; other colours take the nearest), and after
// the first frame each frame carries only the rectangle of cells that
// changed, the cells inside it that didn't left transparent over the
// frame before (disposal "none"). Each frame is compressed by image/gif
// and written as soon as the next one says how long it shows, so memory
// stays with one frame, whatever the session's length. A grapheme Go Mono has no glyph for
// (emoji, CJK) is drawn as an outlined box of its width.
type GIF struct {
	w       io.Writer
	o       Options
	th      *Theme
	pal     color.Palette
	near    map[color.RGBA]uint8
	faces   [4]font.Face
	glyphs  map[glyphKey]*image.Alpha
	ascent  int
	prev    []screen.Cell // the cells drawn so far (Cols×Rows)
	originX int
	originY int
	// The GIF is written as it goes: a frame is held (encoded) until the
	// next one says how long it shows.
	started bool
	pend    []byte
	pendAt  time.Duration
	frames  int
	err     error
}

type glyphKey struct {
	s    string
	face int
}

// transparent is the palette index of "unchanged" pixels.
const transparent = 0

// NewGIF returns an Encoder writing an animated GIF to w.
func NewGIF(w io.Writer, o Options) (*GIF, error) {
	g := &GIF{w: w, o: o, th: o.theme(), near: map[color.RGBA]uint8{}, glyphs: map[glyphKey]*image.Alpha{}}
	for i, ttf := range [][]byte{gomono.TTF, gomonobold.TTF, gomonoitalic.TTF, gomonobolditalic.TTF} {
		f, err := opentype.Parse(ttf)
		if err != nil {
			return nil, err
		}
		// Go Mono's advance is 0.6 em: 8 px at 13.33 px.
		face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: float64(gifCellW) / 0.6, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			return nil, err
		}
		g.faces[i] = face
	}
	m := g.faces[0].Metrics()
	g.ascent = (gifCellH-(m.Ascent+m.Descent).Ceil())/2 + m.Ascent.Ceil()
	g.pal = g.palette()
	g.originX, g.originY = gifPad, gifBar+gifPad
	g.prev = make([]screen.Cell, o.Cols*o.Rows)
	return g, nil
}

// palette: transparent, the theme's background and foreground, its 16
// colours, the 216-colour cube and 21 greys.
func (g *GIF) palette() color.Palette {
	p := color.Palette{color.RGBA{}, g.th.Bg, g.th.Fg}
	for _, c := range g.th.ANSI {
		p = append(p, c)
	}
	steps := []uint8{0, 95, 135, 175, 215, 255}
	for _, r := range steps {
		for _, gr := range steps {
			for _, b := range steps {
				p = append(p, color.RGBA{r, gr, b, 0xff})
			}
		}
	}
	for i := 0; len(p) < 256; i++ {
		v := uint8(8 + 10*i + i/2)
		p = append(p, color.RGBA{v, v, v, 0xff})
	}
	return p
}

// index returns the palette entry nearest c (never the transparent one).
func (g *GIF) index(c color.RGBA) uint8 {
	if i, ok := g.near[c]; ok {
		return i
	}
	best, bestD := 1, -1
	for i := 1; i < len(g.pal); i++ {
		p := g.pal[i].(color.RGBA)
		dr, dg, db := int(p.R)-int(c.R), int(p.G)-int(c.G), int(p.B)-int(c.B)
		if d := dr*dr*3 + dg*dg*4 + db*db*2; bestD < 0 || d < bestD {
			best, bestD = i, d
		}
	}
	g.near[c] = uint8(best)
	return uint8(best)
}

func (g *GIF) size() (w, h int) {
	return g.o.Cols*gifCellW + 2*gifPad, g.o.Rows*gifCellH + 2*gifPad + gifBar
}

// Frames implements Encoder.
func (g *GIF) Frames() int { return g.frames }

// Add implements Encoder.
func (g *GIF) Add(at time.Duration, f *screen.Frame) error {
	if g.err != nil {
		return g.err
	}
	first := g.frames == 0
	var img *image.Paletted
	if first {
		w, h := g.size()
		img = image.NewPaletted(image.Rect(0, 0, w, h), g.pal)
		g.frame(img)
	}
	// The rectangle of cells that changed.
	x0, y0, x1, y1 := g.o.Cols, g.o.Rows, -1, -1
	cur := make([]screen.Cell, len(g.prev))
	for y := 0; y < g.o.Rows; y++ {
		for x := 0; x < g.o.Cols; x++ {
			c := screen.Cell{Content: " ", Width: 1}
			if y < f.Rows && x < f.Cols {
				c = f.Cells[y*f.Cols+x]
			}
			cur[y*g.o.Cols+x] = c
			p := g.prev[y*g.o.Cols+x]
			if first || p.Content != c.Content || p.Width != c.Width || !p.Style.Equal(&c.Style) {
				x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			}
		}
	}
	if x1 < 0 {
		return nil // nothing changed: the frame before is shown longer
	}
	// A wide grapheme whose second column changed redraws from its first.
	if x0 > 0 {
		for y := y0; y <= y1; y++ {
			if cur[y*g.o.Cols+x0].Width == 0 || g.prev[y*g.o.Cols+x0].Width == 0 {
				x0--
				break
			}
		}
	}
	if !first {
		r := image.Rect(g.originX+x0*gifCellW, g.originY+y0*gifCellH, g.originX+(x1+1)*gifCellW, g.originY+(y1+1)*gifCellH)
		img = image.NewPaletted(r, g.pal) // all transparent
	}
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			i := y*g.o.Cols + x
			c, p := cur[i], g.prev[i]
			if !first && p.Content == c.Content && p.Width == c.Width && p.Style.Equal(&c.Style) && c.Width != 0 {
				continue
			}
			if c.Width == 0 {
				continue // drawn by the wide grapheme to its left
			}
			g.cell(img, x, y, c)
		}
	}
	g.prev = cur
	w, h := g.size()
	block, err := frameBlock(img, w, h)
	if err != nil {
		g.err = err
		return err
	}
	if !g.started {
		g.started = true
		g.writeHeader()
	} else {
		g.writeFrame(g.pend, g.pendAt, at)
	}
	g.pend, g.pendAt = block, at
	g.frames++
	return g.err
}

// frameBlock encodes img (a frame of a w×h picture) with image/gif and
// returns its image descriptor and LZW data: what follows a graphic control extension in
// an animated GIF. Its colours index the global table (the palette).
func frameBlock(img *image.Paletted, w, h int) ([]byte, error) {
	var b bytes.Buffer
	// EncodeAll keeps the image's position (Encode would move it to 0,0).
	one := &gif.GIF{Image: []*image.Paletted{img}, Delay: []int{0}, Config: image.Config{ColorModel: img.Palette, Width: w, Height: h}}
	if err := gif.EncodeAll(&b, one); err != nil {
		return nil, err
	}
	d := b.Bytes()
	i := 13 // header and logical screen descriptor
	if d[10]&0x80 != 0 {
		i += 3 << ((d[10] & 7) + 1) // the global colour table
	}
	for i < len(d) && d[i] == 0x21 { // extensions (the graphic control one)
		i += 2
		for i < len(d) && d[i] != 0 {
			i += int(d[i]) + 1
		}
		i++
	}
	if i >= len(d) || d[i] != 0x2c || d[len(d)-1] != 0x3b {
		return nil, errors.New("gif: unexpected encoding")
	}
	return append([]byte(nil), d[i:len(d)-1]...), nil
}

// writeHeader writes the GIF header, the logical screen with the global
// colour table (the palette, 256 entries) and, for a looping picture,
// the NETSCAPE2.0 extension (loop forever).
func (g *GIF) writeHeader() {
	w, h := g.size()
	b := []byte("GIF89a")
	b = binary.LittleEndian.AppendUint16(b, uint16(w))
	b = binary.LittleEndian.AppendUint16(b, uint16(h))
	b = append(b, 0xf7, 0, 0) // a 256-colour global table; background 0
	for _, c := range g.pal {
		r, gr, bl, _ := c.RGBA()
		b = append(b, uint8(r>>8), uint8(gr>>8), uint8(bl>>8))
	}
	if g.o.Loop {
		b = append(b, 0x21, 0xff, 0x0b)
		b = append(b, "NETSCAPE2.0"...)
		b = append(b, 3, 1, 0, 0, 0)
	}
	g.write(b)
}

// writeFrame writes a held frame: its graphic control extension (shown
// from at until next, disposal "none", index 0 transparent), then its
// block.
func (g *GIF) writeFrame(block []byte, at, next time.Duration) {
	cs := func(d time.Duration) int { return int(d.Round(10*time.Millisecond) / (10 * time.Millisecond)) }
	delay := min(max(cs(next)-cs(at), 2), 0xffff) // 16 bits of 1/100 s
	b := []byte{0x21, 0xf9, 4, 1<<2 | 1}
	b = binary.LittleEndian.AppendUint16(b, uint16(delay))
	b = append(b, transparent, 0)
	g.write(b)
	g.write(block)
}

func (g *GIF) write(b []byte) {
	if g.err == nil {
		_, g.err = g.w.Write(b)
	}
}

// frame draws the window frame and an empty screen into the first image.
func (g *GIF) frame(img *image.Paletted) {
	b := img.Bounds()
	bg, bar := g.index(g.th.Bg), g.index(g.th.Bar)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			img.SetColorIndex(x, y, bg)
			if y < gifBar {
				img.SetColorIndex(x, y, bar)
			}
		}
	}
	for i, c := range g.th.Dots {
		cx, cy, ci := gifPad+6+i*18, gifBar/2, g.index(c)
		for y := -5; y <= 5; y++ {
			for x := -5; x <= 5; x++ {
				if x*x+y*y <= 25 {
					img.SetColorIndex(cx+x, cy+y, ci)
				}
			}
		}
	}
	if g.o.Title != "" {
		fg, bar := g.index(g.th.TitleFg), g.index(g.th.Bar)
		// The title's graphemes, as many as fit, centred; wide ones take
		// two cells.
		room := (b.Dx() - 2*gifPad - 70) / gifCellW
		var gs []string
		cells := 0
		for rest := g.o.Title; rest != ""; {
			cl, w := ansi.FirstGraphemeCluster(rest, ansi.GraphemeWidth)
			rest = rest[len(cl):]
			if cells+max(w, 1) > room {
				break
			}
			gs = append(gs, cl)
			cells += max(w, 1)
		}
		x := (b.Dx() - cells*gifCellW) / 2
		for _, cl := range gs {
			w := max(ansi.StringWidth(cl), 1)
			g.glyph(img, x, gifBar/2-gifCellH/2, cl, w, 0, fg, bar)
			x += w * gifCellW
		}
	}
}

// cell draws c at column x, row y of the screen.
func (g *GIF) cell(img *image.Paletted, x, y int, c screen.Cell) {
	lk := g.th.look(c.Style)
	fg, bg := g.index(lk.fg), g.index(lk.bg)
	face := 0
	if lk.bold {
		face |= 1
	}
	if lk.italic {
		face |= 2
	}
	w := max(c.Width, 1)
	px, py := g.originX+x*gifCellW, g.originY+y*gifCellH
	g.glyph(img, px, py, c.Content, w, face, fg, bg)
	if lk.under {
		g.hline(img, px, py+g.ascent+2, w*gifCellW, fg)
	}
	if lk.strike {
		g.hline(img, px, py+gifCellH/2, w*gifCellW, fg)
	}
}

func (g *GIF) hline(img *image.Paletted, x, y, n int, ci uint8) {
	for i := 0; i < n; i++ {
		img.SetColorIndex(x+i, y, ci)
	}
}

// glyph draws the grapheme s, w cells wide, at pixel (px, py): the
// background, then its glyph (the mask's pixels at least half covered),
// or a box when the face has no glyph for it.
func (g *GIF) glyph(img *image.Paletted, px, py int, s string, w, face int, fg, bg uint8) {
	cw := w * gifCellW
	for y := 0; y < gifCellH; y++ {
		for x := 0; x < cw; x++ {
			img.SetColorIndex(px+x, py+y, bg)
		}
	}
	if s == " " || s == "" {
		return
	}
	mask := g.mask(s, w, face)
	if mask == nil { // no glyph: a box
		for x := 1; x < cw-1; x++ {
			img.SetColorIndex(px+x, py+2, fg)
			img.SetColorIndex(px+x, py+gifCellH-3, fg)
		}
		for y := 2; y < gifCellH-2; y++ {
			img.SetColorIndex(px+1, py+y, fg)
			img.SetColorIndex(px+cw-2, py+y, fg)
		}
		return
	}
	// Anti-aliased in three steps of coverage, each the palette colour
	// nearest its blend of fg over bg.
	var shades [4]uint8
	shades[0], shades[3] = bg, fg
	fgc, bgc := g.pal[fg].(color.RGBA), g.pal[bg].(color.RGBA)
	shades[1] = g.index(blend(fgc, bgc, 1, 3))
	shades[2] = g.index(blend(fgc, bgc, 2, 3))
	for y := 0; y < gifCellH; y++ {
		for x := 0; x < cw; x++ {
			if a := mask.AlphaAt(x, y).A; a >= 0x30 {
				img.SetColorIndex(px+x, py+y, shades[min(3, (int(a)*3+0x7f)/0xff)])
			}
		}
	}
}

// blend is n/d of a over b.
func blend(a, b color.RGBA, n, d int) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8((int(x)*n + int(y)*(d-n)) / d) }
	return color.RGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 0xff}
}

// mask returns the glyph of s in face as a cell-sized alpha mask, cached;
// nil when the face lacks a glyph for any rune of s.
func (g *GIF) mask(s string, w, face int) *image.Alpha {
	k := glyphKey{s, face}
	if m, ok := g.glyphs[k]; ok {
		return m
	}
	if m := drawn(s, w*gifCellW, gifCellH); m != nil {
		g.glyphs[k] = m
		return m
	}
	f := g.faces[face]
	for _, r := range s {
		if r == 0xfe0f || r == 0x200d { // variation selector, joiner
			continue
		}
		if _, ok := f.GlyphAdvance(r); !ok {
			g.glyphs[k] = nil
			return nil
		}
	}
	m := image.NewAlpha(image.Rect(0, 0, w*gifCellW, gifCellH))
	d := font.Drawer{Dst: m, Src: image.Opaque, Face: f, Dot: fixed.P(0, g.ascent)}
	d.DrawString(s)
	g.glyphs[k] = m
	return m
}

// Close implements Encoder: it writes the last frame, held until end,
// and the trailer.
func (g *GIF) Close(end time.Duration) error {
	if !g.started {
		return errors.New("gif: no frames")
	}
	g.writeFrame(g.pend, g.pendAt, end)
	g.write([]byte{0x3b})
	return g.err
}
