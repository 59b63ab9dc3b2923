package model

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// A form for a server request takes the keyboard only once the user has
// stopped typing: keys already in flight (the rest of a message, its
// Enter) keep going to the composer and can never answer the form. The
// form takes focus when all of these hold:
//
//   - it has been shown for at least Options.FormGrace (400 ms);
//   - no key was pressed (or text pasted) for Options.FormQuiet (500 ms);
//   - it has been drawn at least once.
//
// A tick checks this when the periods may have passed; a key press checks
// it too (against the key before it), so a form drawn after its tick
// still takes the first key typed after a pause. Until then an Esc is
// swallowed: meant for the form, it must not interrupt the turn instead.

// formWaitNotice is the status hint while keys keep a form unfocused.
const formWaitNotice = "a request is waiting — stop typing for a moment to answer it"

// graceState is what decides when the shown form takes focus.
type graceState struct {
	shown   time.Time // when the form was shown
	lastKey time.Time // the last key press or paste
	drawn   bool      // the form has been drawn
}

// formCheckMsg asks whether form seq may take focus now (onFormCheck).
type formCheckMsg struct{ seq int }

// noteInput records user input for the quiet period; input that comes
// after the form may take focus goes to the form.
func (m *Model) noteInput(msg tea.Msg) {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		now := m.opts.GraceNow()
		if m.form != nil && !m.formReady && m.grace.drawn && !now.Before(m.focusDue()) {
			m.focusForm()
		}
		m.grace.lastKey = now
	}
}

// focusDue is when the shown form may take focus, as far as time goes.
func (m *Model) focusDue() time.Time {
	due := m.grace.shown.Add(m.opts.FormGrace)
	if q := m.grace.lastKey.Add(m.opts.FormQuiet); q.After(due) {
		due = q
	}
	return due
}

func (m *Model) focusForm() {
	m.formReady = true
	if m.status.Notice == formWaitNotice {
		m.status.Notice = ""
	}
}

// startGrace starts the grace period of a form just shown.
func (m *Model) startGrace() tea.Cmd {
	m.grace.shown, m.grace.drawn = m.opts.GraceNow(), false
	return m.formCheckAfter(m.opts.FormGrace)
}

func (m *Model) formCheckAfter(d time.Duration) tea.Cmd {
	seq := m.formSeq
	return tea.Tick(d, func(time.Time) tea.Msg { return formCheckMsg{seq: seq} })
}

// onFormCheck gives the shown form focus if the user has been quiet long
// enough and it was drawn; otherwise it checks again when that may be.
func (m *Model) onFormCheck(msg formCheckMsg) tea.Cmd {
	if m.form == nil || msg.seq != m.formSeq || m.formReady {
		return nil
	}
	now := m.opts.GraceNow()
	if due := m.focusDue(); now.Before(due) {
		return m.formCheckAfter(due.Sub(now))
	}
	if m.grace.drawn { // else the next key press decides (noteInput)
		m.focusForm()
	}
	return nil
}

// graceKey handles a key pressed while a form is shown but not focused;
// it reports whether the key was used up (an Esc is swallowed).
func (m *Model) graceKey(key string) bool {
	if m.form == nil || m.formReady {
		return false
	}
	if key == "esc" {
		m.status.Notice = formWaitNotice
		return true
	}
	return false
}
