package forms

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
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
	// Whole reports whether the form, as last laid out, shows everything a
	// person must read before answering: the whole request (command,
	// reason, question, message — nothing cut to fit) and the highlighted
	// choice. The model lets no key answer a form that is not whole
	// (docs/KEYS.md "No blind answer"); a diff may still scroll.
	Whole() bool
	// SetFull lays the form out for the full screen (true) or inline: full
	// screen, a request too long for the rows it has scrolls instead of
	// being cut, and is whole once its end has been shown.
	SetFull(full bool)
	// Wants reports whether msg (a key press or a paste) is the form's to
	// handle. Typed text and pastes are only when the focused field takes
	// text (an input, or Space in a multi-select): a form never turns a
	// typed letter into a choice, so a message typed while an approval
	// waits can't answer it.
	Wants(msg tea.Msg) bool
}

// base wraps a *huh.Form with the Form bookkeeping.
type base struct {
	form *huh.Form
	// keys is the keymap the form was given (Look.Keys.Huh); lists are
	// the single-choice lists tandem built (choices.go).
	keys  *huh.KeyMap
	lists map[*huh.Select[int]]choiceList
	// hold is set by a choosing key until huh has acted on it: keys that
	// come meanwhile are dropped (choices.go).
	hold    bool
	onDone  func()
	settled bool
	// cut is set by a layout that had to hide part of what is asked (a
	// question's text cut to one row): Whole is false then.
	cut bool
}

// Whole implements Form for the forms whose only cut is a choice field's
// tight layout (fit.go).
func (b *base) Whole() bool { return !b.cut }

// SetFull implements Form: only an approval scrolls its text full screen;
// the others are laid out by the rows Resize gives them.
func (b *base) SetFull(bool) {}

func (b *base) Init() tea.Cmd { return b.form.Init() }

// Update forwards msg to huh, but for what a choice list must not do
// (choices.go): wrap round at an end, answer other than the highlighted
// choice, or take a key while the choosing key is on its way.
func (b *base) Update(msg tea.Msg) tea.Cmd {
	if b.settled {
		return nil
	}
	focused := b.form.GetFocusedField()
	sel, list := b.list(focused)
	_, isKey := msg.(tea.KeyPressMsg)
	choosing := false
	if k, ok := msg.(tea.KeyPressMsg); ok || isPaste(msg) {
		if b.hold || (ok && list != nil && b.pastEnd(sel, *list, k)) {
			return nil
		}
		choosing = ok && list != nil && key.Matches(k, b.keys.Select.Next, b.keys.Select.Submit)
	}
	m, cmd := b.form.Update(msg)
	if f, ok := m.(*huh.Form); ok {
		b.form = f
	}
	if list != nil {
		list.sync(sel)
	}
	switch {
	case choosing:
		b.hold = true
	case b.hold && !isKey && (cmd == nil || b.form.GetFocusedField() != focused):
		b.hold = false // huh moved on, or turned the choice down
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

// Wants implements Form: keys that aren't text (arrows, Enter, Esc, Tab,
// Ctrl+…) are the form's; text and pastes are only when the focused
// field is a text input, and Space when it is a multi-select.
func (b *base) Wants(msg tea.Msg) bool {
	var text string
	switch msg := msg.(type) {
	case tea.PasteMsg:
		text = msg.Content
	case tea.KeyPressMsg:
		if msg.Text == "" || msg.Mod&^tea.ModShift != 0 {
			return true
		}
		text = msg.Text
	default:
		return true
	}
	switch b.form.GetFocusedField().(type) {
	case *huh.Input, *huh.Text:
		return true
	case *huh.MultiSelect[string]:
		return text == " "
	}
	return false
}

func (b *base) Done() bool    { return b.form.State != huh.StateNormal }
func (b *base) Aborted() bool { return b.form.State == huh.StateAborted }

// Look is how a form looks and which keys it takes: the theme (Theme)
// and the keys (the keymap's, model/keys).
type Look struct {
	Theme huh.Theme
	Keys  Keys
}

// Keys are a form's key bindings: huh's keymap for its fields (no letter
// picks a choice, no filter, no half page, Tab never submits a choice:
// keys.Map.Huh) and the keys that scroll a request's window.
type Keys struct {
	Huh                                                  *huh.KeyMap
	LineUp, LineDown, HalfUp, HalfDown, PageUp, PageDown key.Binding
}

// newForm builds the huh form of groups with look at width, and keeps
// its keymap (Update asks it).
func (b *base) newForm(look Look, width int, groups ...*huh.Group) *huh.Form {
	b.keys = look.Keys.Huh
	if b.keys == nil {
		b.keys = huh.NewDefaultKeyMap()
	}
	f := huh.NewForm(groups...).WithKeyMap(b.keys).WithShowHelp(true).WithWidth(width)
	if look.Theme != nil {
		f = f.WithTheme(look.Theme)
	}
	return f
}
