package picture

import (
	"fmt"
	"image/color"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"tandem/internal/lib/screen"
)

// Theme is a picture's colours: the terminal's default foreground and
// background, its 16 ANSI colours, and the window frame around the
// screen (its bar, the title's colour and the three dots).
type Theme struct {
	Name      string
	Fg, Bg    color.RGBA
	ANSI      [16]color.RGBA
	Bar       color.RGBA
	TitleFg   color.RGBA
	Dots      [3]color.RGBA
	DarkStyle bool // the theme is dark (tandem draws its dark styles)
}

func hex(s string) color.RGBA {
	var r, g, b uint8
	_, _ = fmt.Sscanf(s, "#%02x%02x%02x", &r, &g, &b)
	return color.RGBA{r, g, b, 0xff}
}

func palette16(s ...string) (p [16]color.RGBA) {
	for i := range p {
		p[i] = hex(s[i])
	}
	return p
}

var dots = [3]color.RGBA{hex("#ff5f57"), hex("#febc2e"), hex("#28c840")}

// Dark and Light are the themes of --theme dark|light.
var (
	Dark = &Theme{
		Name: "dark", Fg: hex("#c0caf5"), Bg: hex("#1a1b26"),
		ANSI: palette16("#15161e", "#f7768e", "#9ece6a", "#e0af68", "#7aa2f7", "#bb9af7", "#7dcfff", "#a9b1d6",
			"#414868", "#ff899d", "#9fe044", "#faba4a", "#8db0ff", "#c7a9ff", "#a4daff", "#c0caf5"),
		Bar: hex("#24283b"), TitleFg: hex("#a9b1d6"), Dots: dots, DarkStyle: true,
	}
	Light = &Theme{
		Name: "light", Fg: hex("#3760bf"), Bg: hex("#f4f4f6"),
		ANSI: palette16("#b4b5b9", "#f52a65", "#587539", "#8c6c3e", "#2e7de9", "#9854f1", "#007197", "#6172b0",
			"#a1a6c5", "#ff4774", "#5c8524", "#a27629", "#358aff", "#a463ff", "#007ea8", "#3760bf"),
		Bar: hex("#e1e2e7"), TitleFg: hex("#6172b0"), Dots: dots,
	}
)

// ThemeNamed returns the theme called name ("dark" or "light"); ok is
// false for any other name.
func ThemeNamed(name string) (t *Theme, ok bool) {
	switch name {
	case "dark":
		return Dark, true
	case "light":
		return Light, true
	}
	return nil, false
}

// rgb resolves a cell colour: nil is def, the 16 ANSI colours are the
// theme's, everything else its own value.
func (t *Theme) rgb(c color.Color, def color.RGBA) color.RGBA {
	switch c := c.(type) {
	case nil:
		return def
	case ansi.BasicColor:
		if c < 16 {
			return t.ANSI[c]
		}
	case ansi.IndexedColor:
		if c < 16 {
			return t.ANSI[c]
		}
	}
	r, g, b, _ := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff}
}

// look is how one cell is drawn: its colours after reverse video, faint
// and conceal are applied, and the attributes a glyph needs.
type look struct {
	fg, bg                      color.RGBA
	bold, italic, under, strike bool
}

func (t *Theme) look(st screen.Style) look {
	fg, bg := t.rgb(st.Fg, t.Fg), t.rgb(st.Bg, t.Bg)
	if st.Attrs&uv.AttrReverse != 0 {
		fg, bg = bg, fg
	}
	if st.Attrs&uv.AttrFaint != 0 {
		fg = mix(fg, bg)
	}
	if st.Attrs&uv.AttrConceal != 0 {
		fg = bg
	}
	return look{
		fg: fg, bg: bg,
		bold:   st.Attrs&uv.AttrBold != 0,
		italic: st.Attrs&uv.AttrItalic != 0,
		under:  st.Underline != 0,
		strike: st.Attrs&uv.AttrStrikethrough != 0,
	}
}

// mix is the colour halfway between a and b.
func mix(a, b color.RGBA) color.RGBA {
	return color.RGBA{uint8((int(a.R) + int(b.R)) / 2), uint8((int(a.G) + int(b.G)) / 2), uint8((int(a.B) + int(b.B)) / 2), 0xff}
}
