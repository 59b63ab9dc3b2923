package contrast

import (
	"image/color"
	"math"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Ratio agrees with WCAG 2.x's published and commonly quoted values.
func TestRatio(t *testing.T) {
	cases := []struct {
		a, b color.Color
		want float64
	}{
		{hex(0x000000), hex(0xffffff), 21},
		{hex(0xffffff), hex(0x000000), 21}, // order does not matter
		{hex(0x777777), hex(0x777777), 1},
		{hex(0x777777), hex(0xffffff), 4.48}, // the classic "just fails AA" grey
		{hex(0x767676), hex(0xffffff), 4.54}, // the lightest grey that passes on white
		{hex(0x262626), hex(0x000000), 1.39}, // ThemeCharm's unselected choice on black
		{hex(0x0000ff), hex(0xffffff), 8.59},
	}
	for _, tc := range cases {
		if got := Ratio(tc.a, tc.b); math.Abs(got-tc.want) > 0.01 {
			t.Errorf("Ratio(%v, %v) = %.3f; want %.2f", tc.a, tc.b, got, tc.want)
		}
	}
}

// Shown adds the 256-colour reduction of a true colour, keeps a palette
// colour as it is, and refuses the 16 basic colours.
func TestShown(t *testing.T) {
	if got, err := Shown(hex(0x9696a0)); err != nil || len(got) != 2 || got[1] != ansi.IndexedColor(103) {
		t.Errorf("Shown(#9696a0) = %v, %v; want it and palette 103 (#8787af)", got, err)
	}
	if got, err := Shown(ansi.IndexedColor(247)); err != nil || len(got) != 1 {
		t.Errorf("Shown(palette 247) = %v, %v; want it alone", got, err)
	}
	if _, err := Shown(ansi.BasicColor(7)); err == nil {
		t.Error("Shown(basic colour 7) gave no error")
	}
}
