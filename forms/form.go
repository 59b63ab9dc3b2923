package forms

import (
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
)

// Form is an embeddable huh form with a result. The model forwards
// messages to Update, draws View, and reads the result once Done.
type Form interface {
	Init() tea.Cmd
	Update(msg tea.Msg) tea.Cmd
	View() string
	// Resize re-fits the form to a new terminal: the width (huh keeps the
	// last one set) and the most rows it may take (0 = unlimited).
	Resize(width, maxHeight int)
	// Done reports whether the user completed or aborted the form.
	Done() bool
	// Aborted reports whether the user aborted (Esc / Ctrl+C in the form).
	Aborted() bool
}

// Theme picks the huh theme; dark selects the dark variant. With noColor
// the base theme without colours is used.
func Theme(dark, noColor bool) huh.Theme {
	if noColor {
		return huh.ThemeFunc(func(bool) *huh.Styles { return plainStyles() })
	}
	return huh.ThemeFunc(func(bool) *huh.Styles { return huh.ThemeCharm(dark) })
}

func plainStyles() *huh.Styles {
	s := huh.ThemeBase(true)
	strip := func(st lipgloss.Style) lipgloss.Style {
		return st.UnsetForeground().UnsetBackground()
	}
	for _, fs := range []*huh.FieldStyles{&s.Focused, &s.Blurred} {
		fs.Title = strip(fs.Title)
		fs.Description = strip(fs.Description)
		fs.SelectSelector = strip(fs.SelectSelector)
		fs.SelectedOption = strip(fs.SelectedOption)
		fs.UnselectedOption = strip(fs.UnselectedOption)
		fs.Option = strip(fs.Option)
		fs.MultiSelectSelector = strip(fs.MultiSelectSelector)
		fs.SelectedPrefix = strip(fs.SelectedPrefix)
		fs.UnselectedPrefix = strip(fs.UnselectedPrefix)
		fs.ErrorIndicator = strip(fs.ErrorIndicator)
		fs.ErrorMessage = strip(fs.ErrorMessage)
		fs.Base = fs.Base.UnsetBorderForeground()
	}
	return s
}

// base wraps a *huh.Form with the Form bookkeeping.
type base struct {
	form    *huh.Form
	onDone  func()
	settled bool
}

func (b *base) Init() tea.Cmd { return b.form.Init() }

func (b *base) Update(msg tea.Msg) tea.Cmd {
	if b.settled {
		return nil
	}
	m, cmd := b.form.Update(msg)
	if f, ok := m.(*huh.Form); ok {
		b.form = f
	}
	if b.form.State != huh.StateNormal {
		b.settled = true
		if b.onDone != nil {
			b.onDone()
		}
		// An embedded form's own quit command must not end the program.
		return nil
	}
	return cmd
}

func (b *base) View() string {
	if b.settled {
		return ""
	}
	return b.form.View()
}

// Resize applies w and redraws: huh's group draws its fields into a
// viewport on Update only, so a message no field knows makes it draw the
// new layout now rather than at the next key. The base form has no row
// budget of its own.
func (b *base) Resize(w, _ int) {
	b.form = b.form.WithWidth(w)
	if b.settled {
		return
	}
	if m, _ := b.form.Update(refitMsg{}); m != nil {
		if f, ok := m.(*huh.Form); ok {
			b.form = f
		}
	}
}

// refitMsg asks a huh form to redraw its group after a layout change.
type refitMsg struct{}

func (b *base) Done() bool    { return b.form.State != huh.StateNormal }
func (b *base) Aborted() bool { return b.form.State == huh.StateAborted }

func newForm(theme huh.Theme, width int, groups ...*huh.Group) *huh.Form {
	km := huh.NewDefaultKeyMap()
	// Esc aborts a form (the model answers decline/cancel); Ctrl+C is
	// handled by the model before the form sees it.
	km.Quit.SetKeys("esc")
	f := huh.NewForm(groups...).WithKeyMap(km).WithShowHelp(true).WithWidth(width)
	if theme != nil {
		f = f.WithTheme(theme)
	}
	return f
}
