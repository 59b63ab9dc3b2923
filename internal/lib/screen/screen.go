// Package screen keeps the picture a terminal program draws: its output
// goes through a terminal emulator (github.com/charmbracelet/x/vt), and
// Snapshot hands out the screen as rows of styled cells with every secret
// masked, found in the text as a person reads it (mask.go). What is drawn
// is redacted, not the bytes that drew it, so a key typed one character
// at a time, or wrapped at the right edge, is still seen whole, one
// still being typed is masked from its first few characters on, and the
// rest of a long one stays masked when its first row scrolls away.
//
// `tandem record` writes its asciicast from these frames (AppendDiff,
// used by sessions.CastWriter); a renderer to SVG or GIF can draw the same
// frames.
//
// It imports tandem/internal/lib/redact and nothing else from tandem.
package screen

import (
	"io"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// Style is how a cell is drawn: the emulator's own cell style
// (ultraviolet's), so a frame keeps what vt parsed and its SGR sequences
// are ultraviolet's (uv.StyleDiff). A nil colour is the terminal's
// default.
type Style = uv.Style

// Cell is one column of a frame.
type Cell struct {
	// Content is the grapheme drawn: " " when blank, "" in the column
	// that a wide grapheme to its left also covers.
	Content string
	// Width is the columns Content takes: 1, 2 for a wide grapheme, 0
	// for the column it covers.
	Width int
	Style Style
}

func (c Cell) equal(o Cell) bool {
	return c.Content == o.Content && c.Width == o.Width && c.Style.Equal(&o.Style)
}

// blank reports whether c shows nothing: a space without a background,
// underline, reverse video or strike-through.
func (c Cell) blank() bool {
	return c.Content == " " && c.Style.Bg == nil && c.Style.Underline == 0 && c.Style.Attrs&(uv.AttrReverse|uv.AttrStrikethrough) == 0
}

// Frame is a picture of the screen: Rows rows of Cols cells, row-major in
// Cells, the cursor (0-based column and row) and the window title, with
// secrets masked.
type Frame struct {
	Cols, Rows       int
	Cells            []Cell
	CursorX, CursorY int
	CursorVisible    bool
	Title            string
}

// Row returns row y (0-based) of f: Cols cells.
func (f *Frame) Row(y int) []Cell { return f.Cells[y*f.Cols : (y+1)*f.Cols] }

// Text returns row y's characters with trailing blanks removed (styles
// dropped), as a person would read it.
func (f *Frame) Text(y int) string {
	row := f.Row(y)
	end := len(row)
	for end > 0 && (row[end-1].Content == " " || row[end-1].Content == "") {
		end--
	}
	b := make([]byte, 0, end)
	for _, c := range row[:end] {
		b = append(b, c.Content...)
	}
	return string(b)
}

// Screen is a terminal emulator fed with a program's output. It is not
// safe for concurrent use. Close stops it.
type Screen struct {
	emu     *vt.Emulator
	title   string
	sync    bool
	alt     bool // on the alternate screen
	wasAlt  bool // it was on the alternate screen at some point
	closed  bool
	drained chan struct{}
	cells   []int32 // mask's reused buffers (mask.go)
	reads   [2]reading
}

// New returns a screen of cols×rows cells (each at least 1).
func New(cols, rows int) *Screen {
	emu := vt.NewEmulator(max(cols, 1), max(rows, 1))
	// Frames are drawn from the visible screen only: no scrollback (the
	// default keeps 10,000 lines, each cloned as it scrolls off; 0 would
	// leave the default, so 1).
	emu.SetScrollbackSize(1)
	s := &Screen{emu: emu, drained: make(chan struct{})}
	emu.SetCallbacks(vt.Callbacks{
		Title: func(t string) { s.title = t },
		EnableMode: func(m ansi.Mode) {
			switch m {
			case ansi.ModeSynchronizedOutput:
				s.sync = true
			case ansi.ModeAltScreen, ansi.ModeAltScreenSaveCursor:
				s.alt, s.wasAlt = true, true
			}
		},
		DisableMode: func(m ansi.Mode) {
			switch m {
			case ansi.ModeSynchronizedOutput:
				s.sync = false
			case ansi.ModeAltScreen, ansi.ModeAltScreenSaveCursor:
				s.alt = false
			}
		},
	})
	// The emulator answers terminal queries (cursor position, colours,
	// modes) on its input pipe, and blocks until they are read: nobody
	// is asking, so they are dropped. Close ends this copy.
	go func() {
		defer close(s.drained)
		_, _ = io.Copy(io.Discard, emu)
	}()
	return s
}

// Write feeds p, output of the program, to the emulator. It never fails.
func (s *Screen) Write(p []byte) (int, error) {
	if !s.closed {
		_, _ = s.emu.Write(p)
	}
	return len(p), nil
}

// Resize changes the screen to cols×rows cells (each at least 1); the
// program is expected to redraw.
func (s *Screen) Resize(cols, rows int) { s.emu.Resize(max(cols, 1), max(rows, 1)) }

// Size returns the screen's columns and rows.
func (s *Screen) Size() (cols, rows int) { return s.emu.Width(), s.emu.Height() }

// Synchronized reports whether the program is between the start and the
// end of a synchronized update (DEC mode 2026): the picture is half drawn.
func (s *Screen) Synchronized() bool { return s.sync }

// Alt reports whether the program is on the alternate screen now.
func (s *Screen) Alt() bool { return s.alt }

// LeftAltScreen reports whether the program used the alternate screen
// and has left it: a full-screen program that quit, whose last picture
// is the main screen it left behind.
func (s *Screen) LeftAltScreen() bool { return s.wasAlt && !s.alt }

// Snapshot returns the screen as it is now, secrets masked (see mask.go).
// It fills into, reusing its cells, when into is not nil.
func (s *Screen) Snapshot(into *Frame) *Frame {
	f := into
	if f == nil {
		f = new(Frame)
	}
	w, h := s.emu.Width(), s.emu.Height()
	f.Cols, f.Rows = w, h
	if cap(f.Cells) < w*h {
		f.Cells = make([]Cell, w*h)
	}
	f.Cells = f.Cells[:w*h]
	for y := 0; y < h; y++ {
		row := f.Cells[y*w : (y+1)*w]
		wide := 0 // columns still covered by a wide grapheme
		for x := range row {
			c := s.emu.CellAt(x, y)
			if c == nil {
				row[x] = Cell{Content: " ", Width: 1}
				continue
			}
			st := c.Style
			switch {
			case wide > 0:
				row[x] = Cell{Width: 0, Style: st}
				wide--
			case c.Content == "" || c.Width <= 0:
				row[x] = Cell{Content: " ", Width: 1, Style: st}
			default:
				row[x] = Cell{Content: c.Content, Width: c.Width, Style: st}
				wide = c.Width - 1
			}
		}
		// A wide grapheme cut by the right edge: blank its first column.
		if wide > 0 {
			for x := w - 1; x >= 0; x-- {
				if row[x].Width > 1 {
					row[x] = Cell{Content: " ", Width: 1, Style: row[x].Style}
					break
				}
				row[x] = Cell{Content: " ", Width: 1, Style: row[x].Style}
			}
		}
	}
	pos := s.emu.CursorPosition()
	f.CursorX, f.CursorY = min(max(pos.X, 0), w-1), min(max(pos.Y, 0), h-1)
	f.CursorVisible = !s.emu.CursorHidden()
	f.Title = MaskString(s.title)
	s.mask(f)
	return f
}

// Close stops the screen. Later writes are dropped.
func (s *Screen) Close() error {
	s.closed = true
	if c, ok := s.emu.InputPipe().(io.Closer); ok {
		_ = c.Close() // ends the copy in New
	}
	<-s.drained
	return nil
}
