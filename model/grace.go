package model

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// A form for a server request takes the keyboard only once the user has
// stopped typing: keys already in flight (the rest of a message, its
// Enter) keep going to the composer and can never answer the form. The
// form takes focus when both of these hold:
//
//   - it has been shown whole (formwhole.go: the whole request and the
//     highlighted choice on screen) for at least Options.FormGrace
//     (400 ms);
//   - no key was pressed (or text pasted) for Options.FormQuiet (500 ms).
//
// and, third, the composer holds no text typed since the form appeared:
// a message being written keeps the keyboard until it is sent or cleared
// (a draft from before the form came doesn't count), so an Enter meant to
// send it can never answer the form, however long the user paused.
//
// A tick checks this when the periods may have passed; a key press checks
// it too (against the key before it), so the first key typed after a
// pause goes to the form even when its tick is late. Until then an Esc is
// swallowed: meant for the form, it must not interrupt the turn instead.
// (Bubble Tea draws the view after every Update, so by the time any key
// is handled the form is on screen.)

// formWaitNotice is the status hint while keys keep a form unfocused.
const formWaitNotice = "a request is waiting — stop typing for a moment to answer it"

// formDraftNotice is the status hint while a message typed since the form
// appeared keeps it unfocused.
const formDraftNotice = "a request is waiting — send or delete your message to answer it"

// graceState is what decides when the shown form takes focus.
type graceState struct {
	lastKey time.Time // the last key press or paste
	draft   string    // the composer's text when the form was shown
}

// formCheckMsg asks whether form seq may take focus now (onFormCheck).
type formCheckMsg struct{ seq int }

// formFocusMsg gives form seq the keyboard at once, without the checks of
// formCheckMsg; tests use it to skip the grace period.
type formFocusMsg struct{ seq int }

// noteInput records user input for the quiet period; input that comes
// after the form may take focus goes to the form.
func (q *requestQueue) noteInput(m *Model, msg tea.Msg) {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		now := m.opts.GraceNow()
		if q.form != nil && !q.ready && q.whole && !now.Before(q.focusDue(m)) && !m.draftHoldsKeys() {
			m.focusForm()
		}
		q.grace.lastKey = now
	}
}

// focusDue is when the shown form may take focus, once it is whole.
func (q *requestQueue) focusDue(m *Model) time.Time {
	due := q.wholeAt.Add(m.opts.FormGrace)
	if quiet := q.grace.lastKey.Add(m.opts.FormQuiet); quiet.After(due) {
		due = quiet
	}
	return due
}

// draftHoldsKeys reports whether the composer holds text typed since the
// shown form appeared: the form waits until it is sent or cleared.
func (m *Model) draftHoldsKeys() bool {
	v := m.composer.Value()
	return v != "" && v != m.requests.grace.draft
}

func (m *Model) focusForm() {
	m.requests.ready = true
	m.clearNotice(noticeFormWait)
}

// startGrace starts the grace period of a form just shown: it runs from
// when the form is first whole (refitForm).
func (m *Model) startGrace() tea.Cmd {
	m.requests.grace.draft = m.composer.Value()
	m.requests.whole, m.requests.full = false, false
	return m.refitForm(true)
}

func (m *Model) formCheckAfter(d time.Duration) tea.Cmd {
	seq := m.requests.seq
	return tea.Tick(d, func(time.Time) tea.Msg { return formCheckMsg{seq: seq} })
}

// onFormCheck gives the shown form focus if the user has been quiet long
// enough; otherwise it checks again when that may be.
func (m *Model) onFormCheck(msg formCheckMsg) tea.Cmd {
	q := &m.requests
	if q.form == nil || msg.seq != q.seq || q.ready || !q.whole {
		return nil // not whole: refitForm checks again once it is
	}
	now := m.opts.GraceNow()
	if due := q.focusDue(m); now.Before(due) {
		return m.formCheckAfter(due.Sub(now))
	}
	if m.draftHoldsKeys() {
		m.setNotice(noticeFormWait, formDraftNotice)
		return m.formCheckAfter(m.opts.FormQuiet)
	}
	m.focusForm()
	return nil
}

// yieldForm takes the keyboard back from a focused form that was sent
// text it doesn't take (a choice list): the text goes to the composer,
// and the form waits until that message is sent or cleared (and a pause)
// before it has the keys again, so the Enter that ends a typed message
// can't answer it.
func (m *Model) yieldForm() tea.Cmd {
	m.requests.ready = false
	m.setNotice(noticeFormWait, formDraftNotice)
	return m.formCheckAfter(m.opts.FormQuiet)
}

func (m *Model) onFormFocus(msg formFocusMsg) {
	if m.requests.form != nil && msg.seq == m.requests.seq && m.requests.whole {
		m.requests.ready = true
	}
}

// graceKey handles a key pressed while a form is shown but not focused;
// it reports whether the key was used up (an Esc is swallowed).
func (q *requestQueue) graceKey(m *Model, k tea.KeyPressMsg) bool {
	if q.form == nil || q.ready {
		return false
	}
	if key.Matches(k, m.keys.FormAbort) {
		m.setNotice(noticeFormWait, formWaitNotice)
		return true
	}
	return false
}
