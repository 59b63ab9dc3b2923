// Package contrast measures how readable a colour is on another: the WCAG
// 2.x relative luminance and contrast ratio, and the terminal backgrounds
// tandem's text colours are held to. It knows nothing of tandem and draws
// nothing; the style tests of forms and ui use it.
package contrast

import (
	"fmt"
	"image/color"
	"math"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// AA is the least contrast ratio WCAG 2.x level AA asks of normal text.
const AA = 4.5

// Background is a representative terminal background: tandem draws no
// background of its own, so its text colours must read on the common
// ones.
type Background struct {
	Name  string
	Color color.Color
}

// Dark are the dark backgrounds a dark theme must read on: pure black and
// the usual dark greys of terminal themes (VS Code's #1e1e1e, Gruvbox's
// and many others' #282828, the lightest of the common ones).
var Dark = []Background{
	{"black #000000", hex(0x000000)},
	{"dark grey #1e1e1e", hex(0x1e1e1e)},
	{"dark grey #282828", hex(0x282828)},
}

// Light are the light backgrounds a light theme must read on: white and
// a light grey (#f0f0f0, darker than Solarized Light's #fdf6e3).
var Light = []Background{
	{"white #ffffff", hex(0xffffff)},
	{"light grey #f0f0f0", hex(0xf0f0f0)},
}

func hex(v uint32) color.Color {
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

// Luminance is the WCAG 2.x relative luminance of c, 0 (black) to 1
// (white), from its sRGB channels.
func Luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// Ratio is the WCAG 2.x contrast ratio of a and b, 1 to 21; the order of
// the two does not matter.
func Ratio(a, b color.Color) float64 {
	la, lb := Luminance(a), Luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// Shown is what a terminal may show for c: c itself, and the nearest
// colour of the 256-colour palette Bubble Tea reduces it to on a terminal
// without true colour. It is an error for one of the 16 basic ANSI
// colours, whose values each terminal theme picks, so no contrast can be
// promised for them.
func Shown(c color.Color) ([]color.Color, error) {
	if b, ok := c.(ansi.BasicColor); ok {
		return nil, fmt.Errorf("basic ANSI colour %d: its value is the terminal's", int(b))
	}
	out := []color.Color{c}
	if r := colorprofile.ANSI256.Convert(c); r != nil && r != c {
		out = append(out, r)
	}
	return out, nil
}
