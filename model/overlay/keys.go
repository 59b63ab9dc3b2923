package overlay

import (
	tea "charm.land/bubbletea/v2"
)

// The root asks the overlay for keys: every key while the form is full
// screen (Key), every key while a picker or the login form is open and
// the shown form does not have the keyboard (Takes, then Key); a form
// that has the keyboard inline gets its keys after the view's keys,
// Ctrl+C and scrolling (FormKey); a paste goes through Paste.

// Takes reports whether k is the overlay's (Key): the form is full
// screen, or a picker or the login form is open and the shown form does
// not have the keys. A watcher's keys are never a picker's.
func (o *Overlay) Takes(k tea.KeyPressMsg) bool {
	if o.FullScreen() {
		return true
	}
	return o.Open() && !o.q.hasKeys() && !o.env.Role.Watches()
}

// Key handles a key Takes said was the overlay's. It reports false for a
// key that is the root's after all: Ctrl+C over a full-screen form (it
// refuses and interrupts, or arms quitting, as anywhere).
func (o *Overlay) Key(k tea.KeyPressMsg) bool {
	switch {
	case o.FullScreen():
		return o.fullKey(k) // whole.go
	case o.login != nil:
		o.loginKey(k) // login.go
	case o.pick != nil:
		if p := o.pick; p.key(k, o.keys) {
			o.closePicker(p)
		}
	}
	return true
}

// WindowKey scrolls the window of the form drawn inline (an approval's
// diff) when k is one of the window's keys — shift+↑/↓, ctrl+u/d,
// PgUp/PgDn — whether or not the form has the keyboard yet: reading it
// decides nothing. It comes before the transcript's scrolling, which
// shares PgUp/PgDn. It reports whether the key was used up; a form not
// drawn (not whole) scrolls nothing, as nothing of it is on screen.
func (o *Overlay) WindowKey(k tea.KeyPressMsg) bool {
	q := &o.q
	if q.form == nil || q.full || !q.whole || o.env.Role.Watches() {
		return false
	}
	if s, ok := q.form.(scroller); ok && s.Scroll(k) {
		q.dirty = true
		return true
	}
	return false
}

// FormKey handles a key that reached the shown form inline, after the
// root's view keys, Ctrl+C and scrolling; it reports whether the key was
// used up. A form with the keyboard takes what it wants; text it doesn't
// take makes it yield the keyboard (Yield) and goes on to the composer.
// A form still in its grace period swallows an Esc meant for it, which
// must not interrupt the turn instead.
func (o *Overlay) FormKey(k tea.KeyPressMsg) bool {
	if o.q.hasKeys() {
		if o.q.form.Wants(k) {
			o.formUpdate(k)
			o.settle()
			return true
		}
		o.Yield() // typed text goes to the composer
	}
	return o.graceKey(k) // grace.go
}

// Wants reports whether the shown form has the keyboard and takes msg (a
// key or a paste): key timing asks it, since a key a form takes decides
// nothing when it is text for a text field.
func (o *Overlay) Wants(msg tea.Msg) bool { return o.q.hasKeys() && o.q.form.Wants(msg) }

// Paste takes a paste when it is the overlay's: into the login form's key
// field, or into the form that has the keys and wants it. A form with the
// keys that doesn't want it yields them (the paste goes to the composer).
// It reports whether the paste was used up.
func (o *Overlay) Paste(text string) bool {
	if o.login != nil && o.login.stage == loginAPIKey {
		o.login.paste(text)
		return true
	}
	if o.q.hasKeys() {
		paste := tea.PasteMsg{Content: text}
		if o.q.form.Wants(paste) {
			o.formUpdate(paste)
			return true
		}
		o.Yield()
	}
	return false
}
