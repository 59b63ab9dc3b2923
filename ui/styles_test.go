package ui

import (
	"testing"

	"charm.land/lipgloss/v2"

	"tandem/internal/lib/contrast"
)

// The styles an approval form shows its diff in (forms draw them as they
// are), and Italic, Dim's italic twin, read at WCAG AA (4.5:1) on the
// representative backgrounds of their kind, also as reduced to 256
// colours.
func TestDiffStylesContrast(t *testing.T) {
	for _, tc := range []struct {
		name string
		dark bool
		bgs  []contrast.Background
	}{{"dark", true, contrast.Dark}, {"light", false, contrast.Light}} {
		t.Run(tc.name, func(t *testing.T) {
			st := NewStyles(tc.dark)
			for name, s := range map[string]lipgloss.Style{
				"Dim": st.Dim, "Italic": st.Italic, "DiffAdd": st.DiffAdd, "DiffDel": st.DiffDel,
				"DiffHunk": st.DiffHunk, "DiffHeader": st.DiffHeader,
			} {
				if s.GetFaint() {
					t.Errorf("%s is Faint: its contrast is the terminal's", name)
				}
				shown, err := contrast.Shown(s.GetForeground())
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				for _, fg := range shown {
					for _, bg := range tc.bgs {
						if r := contrast.Ratio(fg, bg.Color); r < contrast.AA {
							r8, g8, b8, _ := fg.RGBA()
							t.Errorf("%s: #%02x%02x%02x on %s is %.2f:1", name, r8>>8, g8>>8, b8>>8, bg.Name, r)
						}
					}
				}
			}
		})
	}
}
