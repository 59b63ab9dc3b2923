package composer

import (
	"strings"
	"testing"
)

// The draft follows the background: on a light one the row under the
// cursor and the prompt are drawn in the light styles (the dark ones put
// white on black there), and back on a dark one as New drew it.
func TestSetDarkRestyles(t *testing.T) {
	for _, draft := range []string{"", "hello"} {
		r := newRig(t, Options{})
		r.typeText(draft)
		dark := r.c.View()
		r.c.SetDark(false)
		light := r.c.View()
		if light == dark {
			t.Fatalf("draft %q: the light background drew the dark styles:\n%q", draft, light)
		}
		if strings.Contains(light, "48;5;0m") || strings.Contains(light, "\x1b[40m") || strings.Contains(light, ";40m") {
			t.Errorf("draft %q: a black background on a light one: %q", draft, light)
		}
		r.c.SetDark(true)
		if again := r.c.View(); draft != "" && again != dark {
			t.Errorf("draft %q: dark again differs:\n%q\n%q", draft, again, dark)
		}
	}
}
