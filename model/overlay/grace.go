package overlay

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
)

// A form for a server request takes the keyboard only once the user has
// stopped typing: keys already in flight (the rest of a message, its
// Enter) keep going to the composer and can never answer the form. The
// form takes focus when both of these hold:
//
//   - it has been shown whole (whole.go: the whole request and the
//     highlighted choice on screen) for at least Options.Grace (400 ms);
//   - no key was pressed (or text pasted) for Options.Quiet (500 ms).
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

// FormWaitNotice is the status hint while keys keep a form unfocused.
const FormWaitNotice = "a request is waiting — stop typing for a moment to answer it"

// FormDraftNotice is the status hint while a message typed since the form
// appeared keeps it unfocused.
const FormDraftNotice = "a request is waiting — send or delete your message to answer it"

// graceState is what decides when the shown form takes focus.
type graceState struct {
	lastKey time.Time // the last key press or paste
	draft   string    // the composer's text when the form was shown
}

// formCheckMsg asks whether form seq may take focus now (onFormCheck).
type formCheckMsg struct{ seq int }

func (formCheckMsg) overlayMsg() {}

func (o *Overlay) now() time.Time { return o.env.Clock.Now() }

// NoteInput records user input (a key press or a paste, before it is
// routed) for the quiet period; input that comes after the form may take
// focus goes to the form.
func (o *Overlay) NoteInput(msg tea.Msg) {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		q := &o.q
		now := o.now()
		if q.form != nil && !q.ready && q.whole && !now.Before(o.focusDue()) && !o.draftHoldsKeys() {
			o.focusForm()
		}
		q.grace.lastKey = now
	}
}

// focusDue is when the shown form may take focus, once it is whole.
func (o *Overlay) focusDue() time.Time {
	q := &o.q
	due := q.wholeAt.Add(o.opts.Grace)
	if quiet := q.grace.lastKey.Add(o.opts.Quiet); quiet.After(due) {
		due = quiet
	}
	return due
}

// draftHoldsKeys reports whether the composer holds text typed since the
// shown form appeared: the form waits until it is sent or cleared.
func (o *Overlay) draftHoldsKeys() bool {
	v := o.opts.World.Draft()
	return v != "" && v != o.q.grace.draft
}

func (o *Overlay) focusForm() {
	o.q.ready = true
	o.out().Clear(act.NoticeFormWait)
}

// startGrace starts the grace period of a form just shown: it runs from
// when the form is first whole (refit).
func (o *Overlay) startGrace() {
	o.q.grace.draft = o.opts.World.Draft()
	o.q.whole, o.q.full = false, false
	o.Refit(true)
}

// Reshow is the form shown to a person again: the command center
// brought its lane on screen (the lane waited off screen, where its
// grace ran out with no one looking). Its grace starts over, as for a
// form just shown, and the quiet period from now: the key that brought
// it (Enter on the inbox's row) and the keys right after it are not its
// answer.
func (o *Overlay) Reshow() {
	q := &o.q
	if q.form == nil {
		return
	}
	q.ready = false
	q.grace.lastKey = o.now()
	o.startGrace()
}

func (o *Overlay) checkAfter(d time.Duration) {
	seq := o.q.seq
	o.out().Cmd(o.env.Clock.After(d, func(time.Time) tea.Msg { return formCheckMsg{seq: seq} }))
}

// onFormCheck gives the shown form focus if the user has been quiet long
// enough; otherwise it checks again when that may be.
func (o *Overlay) onFormCheck(msg formCheckMsg) {
	q := &o.q
	if q.form == nil || msg.seq != q.seq || q.ready || !q.whole {
		return // not whole: refit checks again once it is
	}
	now := o.now()
	if due := o.focusDue(); now.Before(due) {
		o.checkAfter(due.Sub(now))
		return
	}
	if o.draftHoldsKeys() {
		o.out().Notice(act.NoticeFormWait, FormDraftNotice)
		o.checkAfter(o.opts.Quiet)
		return
	}
	o.focusForm()
}

// Yield takes the keyboard back from a focused form that was sent text it
// doesn't take (a choice list): the text goes to the composer, and the
// form waits until that message is sent or cleared (and a pause) before
// it has the keys again, so the Enter that ends a typed message can't
// answer it.
func (o *Overlay) Yield() {
	o.q.ready = false
	o.out().Notice(act.NoticeFormWait, FormDraftNotice)
	o.checkAfter(o.opts.Quiet)
}

// graceKey handles a key pressed while a form is shown but not focused;
// it reports whether the key was used up (an Esc is swallowed).
func (o *Overlay) graceKey(k tea.KeyPressMsg) bool {
	if o.q.form == nil || o.q.ready {
		return false
	}
	if key.Matches(k, o.keys.FormAbort) {
		o.out().Notice(act.NoticeFormWait, FormWaitNotice)
		return true
	}
	return false
}
