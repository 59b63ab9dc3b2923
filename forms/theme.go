package forms

import (
	"image/color"
	"reflect"

	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
)

// Theme returns the huh theme of tandem's forms: the dark or the light
// palette, or with noColor one without any colour, whose highlighted
// choice is bold beside the "> " selector. The theme ignores the
// background huh guesses: dark is what tandem decided (--theme or the
// terminal's answer).
//
// huh's ThemeCharm is not used: its unselected choices are colour 235
// (#262626) on a dark background and 252 (pale grey) on a light one (huh
// v2.0.3 hands lipgloss.LightDark its pairs dark first), and its help
// text and field border are as faint.
func Theme(dark, noColor bool) huh.Theme {
	return huh.ThemeFunc(func(bool) *huh.Styles {
		switch {
		case noColor:
			return plainStyles()
		case dark:
			return paletteStyles(darkPalette)
		default:
			return paletteStyles(lightPalette)
		}
	})
}

// palette is the colours of a coloured theme. Forms draw no background,
// so every text colour has a WCAG 2.x contrast ratio of at least 4.5:1
// against the terminal backgrounds the variant is for (theme_test.go
// checks it, on the colour itself and on the 256-colour one Bubble Tea
// reduces it to):
//
//   - dark: black #000000 and the dark greys #1e1e1e and #282828 (the
//     lightest is the worst case: a colour needs a luminance ≥ 0.27);
//   - light: white #ffffff and the light grey #f0f0f0 (the worst case: a
//     luminance ≤ 0.155).
//
// A button is text on a background of its own, so its text is measured
// against that.
type palette struct {
	text     color.Color // choices, typed text
	muted    color.Color // descriptions, help, placeholders, the field border
	helpKey  color.Color // the keys in the help line
	accent   color.Color // titles (Charm's indigo)
	selector color.Color // "> ", the input prompt (Charm's fuchsia)
	selected color.Color // the highlighted / checked choice (Charm's green)
	errorFg  color.Color // validation errors

	buttonFg, buttonBg   color.Color // the focused button
	blurredFg, blurredBg color.Color // the other button
}

// darkPalette is for dark backgrounds; the ratios are the least over
// #000000, #1e1e1e and #282828.
var darkPalette = palette{
	text:      lipgloss.Color("#D0D0D0"), // 9.6:1
	muted:     lipgloss.Color("#9E9E9E"), // 5.5:1
	helpKey:   lipgloss.Color("#B2B2B2"), // 7.0:1
	accent:    lipgloss.Color("#8787FF"), // 4.9:1 (ThemeCharm's #7571F9: 3.6)
	selector:  lipgloss.Color("#F780E2"), // 6.4:1
	selected:  lipgloss.Color("#02BF87"), // 5.3:1
	errorFg:   lipgloss.Color("#FF5F87"), // 5.1:1 (ThemeCharm's #ED567A: 4.4)
	buttonFg:  lipgloss.Color("#000000"), // on #F780E2: 9.1:1
	buttonBg:  lipgloss.Color("#F780E2"),
	blurredFg: lipgloss.Color("#D0D0D0"), // on #444444: 6.3:1
	blurredBg: lipgloss.Color("#444444"),
}

// lightPalette is for light backgrounds; the ratios are the least over
// #ffffff and #f0f0f0.
var lightPalette = palette{
	text:      lipgloss.Color("#262626"), // 13.3:1
	muted:     lipgloss.Color("#5F5F5F"), // 5.6:1
	helpKey:   lipgloss.Color("#444444"), // 8.6:1
	accent:    lipgloss.Color("#5F00D7"), // 7.5:1 (ThemeCharm's #5A56E0: 4.5 but 4.49 in 256 colours)
	selector:  lipgloss.Color("#AF0087"), // 5.8:1
	selected:  lipgloss.Color("#0F6B47"), // 5.7:1
	errorFg:   lipgloss.Color("#B91C1C"), // 5.7:1
	buttonFg:  lipgloss.Color("#FFFFFF"), // on #AF0087: 6.6:1
	buttonBg:  lipgloss.Color("#AF0087"),
	blurredFg: lipgloss.Color("#262626"), // on #DADADA: 10.8:1
	blurredBg: lipgloss.Color("#DADADA"),
}

// paletteStyles is huh's base theme coloured with p, laid out as
// ThemeCharm is (the same selector and prefixes, so the text drawn is the
// same); the highlighted or checked choice is bold besides.
func paletteStyles(p palette) *huh.Styles {
	t := huh.ThemeBase(true)
	fg := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }

	f := &t.Focused
	f.Base = f.Base.BorderForeground(p.muted)
	f.Card = f.Base
	f.Title = f.Title.Foreground(p.accent).Bold(true)
	f.NoteTitle = f.NoteTitle.Foreground(p.accent).Bold(true).MarginBottom(1)
	f.Directory = f.Directory.Foreground(p.accent)
	f.File = f.File.Foreground(p.text)
	f.Description = f.Description.Foreground(p.muted)
	f.ErrorIndicator = f.ErrorIndicator.Foreground(p.errorFg)
	f.ErrorMessage = f.ErrorMessage.Foreground(p.errorFg)
	f.SelectSelector = f.SelectSelector.Foreground(p.selector)
	f.NextIndicator = f.NextIndicator.Foreground(p.selector)
	f.PrevIndicator = f.PrevIndicator.Foreground(p.selector)
	f.Option = f.Option.Foreground(p.text)
	f.MultiSelectSelector = f.MultiSelectSelector.Foreground(p.selector)
	// Bold as well: the highlighted choice must not rely on hue alone.
	f.SelectedOption = f.SelectedOption.Foreground(p.selected).Bold(true)
	f.SelectedPrefix = fg(p.selected).SetString("✓ ")
	f.UnselectedOption = f.UnselectedOption.Foreground(p.text)
	f.UnselectedPrefix = fg(p.muted).SetString("• ")
	f.FocusedButton = f.FocusedButton.Foreground(p.buttonFg).Background(p.buttonBg)
	f.Next = f.FocusedButton
	f.BlurredButton = f.BlurredButton.Foreground(p.blurredFg).Background(p.blurredBg)
	f.TextInput.Cursor = f.TextInput.Cursor.Foreground(p.selected)
	f.TextInput.Placeholder = f.TextInput.Placeholder.Foreground(p.muted)
	f.TextInput.Prompt = f.TextInput.Prompt.Foreground(p.selector)
	f.TextInput.Text = f.TextInput.Text.Foreground(p.text)

	t.Blurred = t.Focused
	t.Blurred.Base = t.Focused.Base.BorderStyle(lipgloss.HiddenBorder())
	t.Blurred.Card = t.Blurred.Base
	t.Blurred.NextIndicator = lipgloss.NewStyle()
	t.Blurred.PrevIndicator = lipgloss.NewStyle()

	t.Group.Title = t.Focused.Title
	t.Group.Description = t.Focused.Description

	h := &t.Help
	h.ShortKey, h.FullKey = fg(p.helpKey), fg(p.helpKey)
	h.ShortDesc, h.FullDesc = fg(p.muted), fg(p.muted)
	h.ShortSeparator, h.FullSeparator, h.Ellipsis = fg(p.muted), fg(p.muted), fg(p.muted)
	return t
}

// plainStyles is huh's base theme with every colour taken out (NO_COLOR):
// titles and the highlighted or checked choice are bold, placeholders
// italic (so they don't read as typed text), and the focused button is
// reversed.
func plainStyles() *huh.Styles {
	t := huh.ThemeBase(true)
	uncolour(reflect.ValueOf(t).Elem())
	for _, f := range []*huh.FieldStyles{&t.Focused, &t.Blurred} {
		f.Title = f.Title.Bold(true)
		f.NoteTitle = f.NoteTitle.Bold(true)
		f.SelectedOption = f.SelectedOption.Bold(true)
		f.TextInput.Placeholder = f.TextInput.Placeholder.Italic(true)
		f.FocusedButton = f.FocusedButton.Reverse(true).Bold(true)
		f.Next = f.FocusedButton
	}
	t.Group.Title = t.Focused.Title
	return t
}

// uncolour unsets every colour of every lipgloss.Style in v, a struct of
// styles (nested structs included).
func uncolour(v reflect.Value) {
	if v.Kind() != reflect.Struct {
		return
	}
	if st, ok := v.Addr().Interface().(*lipgloss.Style); ok {
		*st = st.UnsetForeground().UnsetBackground().
			UnsetBorderForeground().UnsetBorderBackground().UnsetBorderForegroundBlend().
			UnsetMarginBackground()
		return
	}
	for i := range v.NumField() {
		if v.Type().Field(i).IsExported() {
			uncolour(v.Field(i))
		}
	}
}
