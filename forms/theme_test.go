package forms

import (
	"fmt"
	"image/color"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/internal/lib/contrast"
)

// namedStyle is one lipgloss.Style of a huh.Styles and its field path
// ("Focused.TextInput.Placeholder").
type namedStyle struct {
	path string
	st   lipgloss.Style
}

// allStyles walks s by reflection and returns every lipgloss.Style in it,
// nested structs (FieldStyles, TextInputStyles, help.Styles) included. A
// field that is neither a style nor a struct of them is an error: the
// walk would not see its colours.
func allStyles(t *testing.T, s *huh.Styles) []namedStyle {
	t.Helper()
	var out []namedStyle
	var walk func(path string, v reflect.Value)
	walk = func(path string, v reflect.Value) {
		if st, ok := v.Interface().(lipgloss.Style); ok {
			out = append(out, namedStyle{path, st})
			return
		}
		if v.Kind() != reflect.Struct {
			t.Errorf("%s is a %s, not a lipgloss.Style: the contrast walk does not know it", path, v.Type())
			return
		}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			p := strings.TrimPrefix(path+"."+f.Name, ".")
			if !f.IsExported() {
				t.Errorf("%s is unexported: the contrast walk can't read it", p)
				continue
			}
			walk(p, v.Field(i))
		}
	}
	walk("", reflect.ValueOf(s).Elem())
	return out
}

// colourUse is a colour a style sets: text (or a border) drawn in c,
// over the style's own background on, or the terminal's when on is nil.
type colourUse struct {
	what  string
	c, on color.Color
}

// set is c, or nil when it is no colour.
func set(c color.Color) color.Color {
	if _, none := c.(lipgloss.NoColor); none {
		return nil
	}
	return c
}

// colours lists every colour st sets. A background is listed as the
// "on" of its foreground; a background under no foreground of the
// style's own (the terminal's foreground, unknown) is listed alone, with
// c nil.
func colours(st lipgloss.Style) []colourUse {
	var out []colourUse
	add := func(what string, c, on color.Color) {
		if c, on = set(c), set(on); c != nil || on != nil {
			out = append(out, colourUse{what, c, on})
		}
	}
	add("foreground", st.GetForeground(), st.GetBackground())
	add("border top", st.GetBorderTopForeground(), st.GetBorderTopBackground())
	add("border right", st.GetBorderRightForeground(), st.GetBorderRightBackground())
	add("border bottom", st.GetBorderBottomForeground(), st.GetBorderBottomBackground())
	add("border left", st.GetBorderLeftForeground(), st.GetBorderLeftBackground())
	for i, c := range st.GetBorderForegroundBlend() {
		add(fmt.Sprintf("border blend %d", i), c, nil)
	}
	add("underline", st.GetUnderlineColor(), nil)
	return out
}

// lowContrast returns what in s reads worse than WCAG AA (4.5:1) on any
// of bgs: a colour (or its 256-colour reduction) too close to a
// background, a basic ANSI colour (its value is the terminal's), a
// background under the terminal's own foreground, or Faint (the terminal
// picks how faint). worst holds each style's least ratio.
func lowContrast(t *testing.T, s *huh.Styles, bgs []contrast.Background) (problems []string, worst map[string]float64) {
	t.Helper()
	worst = map[string]float64{}
	for _, ns := range allStyles(t, s) {
		if ns.st.GetFaint() {
			problems = append(problems, ns.path+": Faint, whose contrast is the terminal's")
		}
		for _, u := range colours(ns.st) {
			name := ns.path + " " + u.what
			if u.c == nil {
				problems = append(problems, name+": a background under the terminal's foreground")
				continue
			}
			fgs, err := contrast.Shown(u.c)
			if err != nil {
				problems = append(problems, name+": "+err.Error())
				continue
			}
			under := bgs
			if u.on != nil {
				ons, err := contrast.Shown(u.on)
				if err != nil {
					problems = append(problems, name+" background: "+err.Error())
					continue
				}
				under = nil
				for _, on := range ons {
					under = append(under, contrast.Background{Name: "its background " + colourName(on), Color: on})
				}
			}
			for _, fg := range fgs {
				for _, bg := range under {
					r := contrast.Ratio(fg, bg.Color)
					if w, ok := worst[name]; !ok || r < w {
						worst[name] = r
					}
					if r < contrast.AA {
						problems = append(problems, fmt.Sprintf("%s: %s on %s is %.2f:1", name, colourName(fg), bg.Name, r))
					}
				}
			}
		}
	}
	return problems, worst
}

func colourName(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// Every colour of the dark and the light theme reads at WCAG AA on the
// representative backgrounds of its kind.
func TestThemeContrast(t *testing.T) {
	cases := []struct {
		name string
		dark bool
		bgs  []contrast.Background
	}{
		{"dark", true, contrast.Dark},
		{"light", false, contrast.Light},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, huhDark := range []bool{true, false} { // huh's own guess must not matter
				s := Theme(tc.dark, false).Theme(huhDark)
				problems, worst := lowContrast(t, s, tc.bgs)
				for _, p := range problems {
					t.Error(p)
				}
				// The walk reaches the styles the bug was in, and the
				// theme colours them.
				for _, want := range []string{"Focused.UnselectedOption foreground", "Blurred.UnselectedOption foreground",
					"Focused.SelectedOption foreground", "Focused.SelectSelector foreground", "Focused.Title foreground",
					"Focused.Description foreground", "Help.ShortKey foreground", "Help.ShortDesc foreground",
					"Focused.TextInput.Placeholder foreground", "Focused.Base border left", "Focused.FocusedButton foreground"} {
					if _, ok := worst[want]; !ok {
						t.Errorf("%s: no colour measured", want)
					}
				}
				if huhDark && testing.Verbose() {
					names := make([]string, 0, len(worst))
					for n := range worst {
						names = append(names, n)
					}
					slices.Sort(names)
					for _, n := range names {
						t.Logf("%-45s %.2f:1", n, worst[n])
					}
				}
			}
		})
	}
}

// The check fails where it should: on ThemeCharm as tandem used it (the
// unselected choices, the help, the border), and on a colour, a basic
// ANSI colour, a bare background or Faint put into tandem's own theme.
func TestThemeContrastCheckFails(t *testing.T) {
	dark := func(edit func(s *huh.Styles)) *huh.Styles {
		s := Theme(true, false).Theme(true)
		edit(s)
		return s
	}
	cases := []struct {
		name   string
		styles *huh.Styles
		bgs    []contrast.Background
		want   []string // paths that must be reported
	}{
		{"ThemeCharm dark", huh.ThemeCharm(true), contrast.Dark,
			[]string{"Focused.UnselectedOption foreground", "Focused.Option foreground", "Help.ShortDesc foreground", "Focused.Base border left"}},
		{"ThemeCharm light", huh.ThemeCharm(false), contrast.Light,
			[]string{"Focused.UnselectedOption foreground", "Focused.SelectedOption foreground", "Focused.SelectSelector foreground", "Focused.TextInput.Placeholder foreground"}},
		{"dark grey description", dark(func(s *huh.Styles) {
			s.Blurred.Description = s.Blurred.Description.Foreground(lipgloss.Color("#444444"))
		}), contrast.Dark, []string{"Blurred.Description foreground"}},
		{"256-colour reduction", dark(func(s *huh.Styles) {
			// #9696A0 is 4.6:1 on #282828, but Bubble Tea shows #8787af on a
			// 256-colour terminal: 4.3.
			s.Help.FullDesc = s.Help.FullDesc.Foreground(lipgloss.Color("#9696A0"))
		}), contrast.Dark, []string{"Help.FullDesc foreground"}},
		{"basic ANSI colour", dark(func(s *huh.Styles) {
			s.Focused.TextInput.Prompt = s.Focused.TextInput.Prompt.Foreground(lipgloss.Color("5"))
		}), contrast.Dark, []string{"Focused.TextInput.Prompt foreground"}},
		{"button text on its background", dark(func(s *huh.Styles) {
			s.Focused.FocusedButton = s.Focused.FocusedButton.Foreground(lipgloss.Color("#FFFDF5"))
		}), contrast.Dark, []string{"Focused.FocusedButton foreground"}},
		{"bare background", dark(func(s *huh.Styles) {
			s.Group.Title = s.Group.Title.UnsetForeground().Background(lipgloss.Color("#444444"))
		}), contrast.Dark, []string{"Group.Title foreground"}},
		{"faint", dark(func(s *huh.Styles) { s.Focused.NoteTitle = s.Focused.NoteTitle.Faint(true) }),
			contrast.Dark, []string{"Focused.NoteTitle"}},
		{"dark theme on a light background", Theme(true, false).Theme(true), contrast.Light,
			[]string{"Focused.UnselectedOption foreground"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			problems, _ := lowContrast(t, tc.styles, tc.bgs)
			for _, w := range tc.want {
				if !slices.ContainsFunc(problems, func(p string) bool { return strings.HasPrefix(p, w+":") }) {
					t.Errorf("%s not reported; reported:\n%s", w, strings.Join(problems, "\n"))
				}
			}
		})
	}
}

// With NO_COLOR no style sets a colour, and what's drawn has none.
func TestThemeNoColorHasNoColour(t *testing.T) {
	for _, dark := range []bool{true, false} {
		s := Theme(dark, true).Theme(dark)
		for _, ns := range allStyles(t, s) {
			for _, u := range colours(ns.st) {
				t.Errorf("dark=%v: %s %s sets a colour", dark, ns.path, u.what)
			}
		}
	}
	for name, view := range sampleViews(Theme(true, true)) {
		if c := sgrs(view); c.colour > 0 {
			t.Errorf("%s: %d colour codes drawn:\n%q", name, c.colour, view)
		}
	}
}

// With NO_COLOR the highlighted choice still stands out: bold, beside
// the "> " selector, the others plain.
func TestThemeNoColorHighlight(t *testing.T) {
	spec := ApprovalSpec{Title: "Run this command?", Command: "ls", Choices: []Choice{
		{Label: "Yes", Value: "accept"}, {Label: "No", Value: "decline"}, {Label: "Stop", Value: "cancel"},
	}}
	a := NewApproval(spec, testLook(true, true), 60)
	a.Init()
	a.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	bold := lipgloss.NewStyle().Bold(true)
	v := a.View()
	if !strings.Contains(v, bold.Render("No")) || !strings.Contains(ansi.Strip(v), "> No") {
		t.Errorf("the highlighted choice is not bold after \"> \":\n%q", v)
	}
	for _, other := range []string{"Yes", "Stop"} {
		if strings.Contains(v, bold.Render(other)) {
			t.Errorf("%s is bold though not highlighted:\n%q", other, v)
		}
	}
}

// The diff window's position line is drawn in the theme's measured
// description colour, not Faint.
func TestDiffPositionLineNotFaint(t *testing.T) {
	for _, dark := range []bool{true, false} {
		diff := strings.Split(strings.Repeat("+line\n", 30), "\n")
		a := NewApproval(ApprovalSpec{Title: "Apply?", Choices: []Choice{{Label: "Yes", Value: "accept"}}, Diff: diff, DiffHeight: 5}, testLook(dark, false), 80)
		a.Init()
		var line string
		for _, l := range strings.Split(a.View(), "\n") {
			if strings.Contains(ansi.Strip(l), "lines 1–5 of") {
				line = l
			}
		}
		c := sgrs(line)
		if line == "" || c.faint || c.colour == 0 {
			t.Errorf("dark=%v: position line faint=%v, %d colour codes: %q", dark, c.faint, c.colour, line)
		}
	}
}

// sampleViews draws an approval with a diff, questions with an input and
// a multi-select, and an elicitation's confirm in theme.
func sampleViews(theme huh.Theme) map[string]string {
	out := map[string]string{}
	a := NewApproval(ApprovalSpec{Title: "Apply?", Reason: "why", Choices: []Choice{{Label: "Yes", Value: "accept"}, {Label: "No", Value: "decline"}},
		Diff: []string{"+a", "-b"}}, lookOf(theme), 60)
	a.Init()
	out["approval"] = a.View()
	q := NewQuestions(QuestionsSpec{Title: "Release", Description: "Pick.", Questions: []Question{
		{ID: "n", Question: "Name?", Placeholder: "a name"},
		{ID: "p", Question: "Which?", Multiple: true, Options: opts("p1", "p2")}}}, lookOf(theme), 60)
	runCmds(q, q.Init())
	out["questions input"] = q.View()
	press(q, tea.KeyEnter)
	press(q, tea.KeySpace)
	out["questions multi-select"] = q.View()
	e := NewElicitation(ElicitationSpec{Server: "srv", Message: "Tell me", Fields: []ElicitField{
		{Name: "ok", Title: "OK?", Kind: FieldBoolean}}}, lookOf(theme), 60)
	runCmds(e, e.Init())
	out["elicitation"] = e.View()
	press(e, tea.KeyEnter)
	out["elicitation confirm"] = e.View()
	return out
}

var sgrRe = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// sgrCount is what the SGR sequences of a drawn string set.
type sgrCount struct {
	colour int // foreground, background or underline colours
	faint  bool
}

// sgrs reads the SGR sequences of s.
func sgrs(s string) sgrCount {
	var c sgrCount
	for _, m := range sgrRe.FindAllStringSubmatch(s, -1) {
		ps := strings.Split(m[1], ";")
		for i := 0; i < len(ps); i++ {
			n, _ := strconv.Atoi(strings.SplitN(ps[i], ":", 2)[0])
			switch {
			case n == 38 || n == 48 || n == 58:
				c.colour++
				if strings.Contains(ps[i], ":") {
					continue
				}
				if i+1 < len(ps) && ps[i+1] == "5" {
					i += 2
				} else if i+1 < len(ps) && ps[i+1] == "2" {
					i += 4
				}
			case n >= 30 && n <= 37, n >= 40 && n <= 47, n >= 90 && n <= 97, n >= 100 && n <= 107:
				c.colour++
			case n == 2:
				c.faint = true
			}
		}
	}
	return c
}
