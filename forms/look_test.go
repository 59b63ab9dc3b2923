package forms

import (
	"charm.land/huh/v2"

	"tandem/model/keys"
)

// testLook is the look the model gives forms: theme and the default
// keymap's form keys.
func testLook(dark, noColor bool) Look { return lookOf(Theme(dark, noColor)) }

func lookOf(t huh.Theme) Look {
	km := keys.Default()
	return Look{Theme: t, Keys: Keys{Huh: km.Huh(), LineUp: km.DiffLineUp, LineDown: km.DiffLineDown, HalfUp: km.DiffHalfUp, HalfDown: km.DiffHalfDown, PageUp: km.DiffPageUp, PageDown: km.DiffPageDown}}
}
