package overlay

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/testkit/reqtest"
	"tandem/model/act"
)

// graceRig is a driver's overlay whose forms keep the default grace
// (400 ms) and quiet (500 ms) periods, on the rig's clock.
func graceRig(t *testing.T) *rig {
	r := newRig(t, 100, 30, 0, act.Role{})
	r.o.opts.Grace, r.o.opts.Quiet = 400*time.Millisecond, 500*time.Millisecond
	return r
}

// Someone typing a message at 50 ms a key while an approval arrives: the
// form never takes a key while the typing goes on, however long after its
// arrival; no key is the form's, the Enter included, and no reply is
// sent. Once the user pauses with that message sent or cleared, the form
// takes focus.
func TestFormWaitsUntilTypingStops(t *testing.T) {
	r := graceRig(t)
	text := "hello there, please also check the logs and rerun the tests"
	for i, c := range text {
		if i == 6 {
			r.do(func() { r.o.Request(r.decode("item/commandExecution/requestApproval", `1`, reqtest.CmdReq)) })
		}
		r.now = r.now.Add(50 * time.Millisecond)
		if r.hit(c, 0) {
			t.Fatalf("the form took %q", c)
		}
		r.w.draft = text[:i+1] // the key went to the composer
		r.check()              // the grace tick, as late as it may come
		if r.o.HasKeys() {
			t.Fatalf("form took focus after %q while typing went on", text[:i+1])
		}
	}
	r.now = r.now.Add(50 * time.Millisecond)
	if r.hit(tea.KeyEnter, 0) {
		t.Fatal("the form took the Enter typed for the message")
	}
	r.check()
	if r.o.HasKeys() || !r.o.HasForm() {
		t.Fatal("the Enter typed for the message answered the form")
	}
	if got := r.rep.All(); len(got) != 0 {
		t.Fatalf("a reply was sent while typing: %q", got)
	}
	// A pause shorter than the quiet period is not enough …
	r.now = r.now.Add(300 * time.Millisecond)
	r.check()
	if r.o.HasKeys() {
		t.Fatal("form took focus 300 ms after the last key")
	}
	// … and nor is a full one while the message typed since the form
	// came is still in the composer (its Enter must stay its own) …
	r.now = r.now.Add(250 * time.Millisecond)
	r.check()
	if r.o.HasKeys() {
		t.Fatal("form took focus with the message typed since it came still in the composer")
	}
	if n := r.notice(); n != FormDraftNotice {
		t.Errorf("notice %q; want %q", n, FormDraftNotice)
	}
	// … but once it is deleted, a pause is.
	r.w.draft = ""
	r.now = r.now.Add(600 * time.Millisecond)
	r.check()
	if !r.o.HasKeys() {
		t.Fatal("form did not take focus after the user stopped typing and cleared the message")
	}
	r.hit(tea.KeyEnter, 0)
	if got := r.rep.All(); len(got) != 1 || got[0] != `{"result":{"decision":"accept"}}` {
		t.Fatalf("replies %q after answering the focused form", got)
	}
}

// A form shown while nobody types still waits its grace period.
func TestFormFocusNeedsGrace(t *testing.T) {
	r := graceRig(t)
	r.do(func() { r.o.Request(r.decode("item/commandExecution/requestApproval", `1`, reqtest.CmdReq)) })
	r.now = r.now.Add(200 * time.Millisecond)
	r.check()
	if r.o.HasKeys() {
		t.Fatal("focus before the grace period")
	}
	r.now = r.now.Add(time.Second)
	r.check()
	if !r.o.HasKeys() {
		t.Fatal("no focus once the grace period passed and nobody typed")
	}
}

// A message typed while a form is up keeps the keyboard however long the
// user pauses: the form takes it once the message is sent or cleared.
// (Before: "no, wait, dont", a 0.8 s pause, Enter — and "Yes, run it"
// was chosen.)
func TestDraftKeepsKeysFromForm(t *testing.T) {
	r := newRig(t, 110, 40, 100*time.Millisecond, act.Role{})
	r.do(func() { r.o.Request(r.decode("item/commandExecution/requestApproval", `"id-1"`, reqtest.CmdReq)) })
	r.typeText("no, wait, dont")
	r.w.draft = "no, wait, dont"
	r.now = r.now.Add(2 * time.Second) // a long pause
	r.check()
	if r.o.HasKeys() {
		t.Fatal("the form took the keys from a message being typed")
	}
	if n := r.notice(); n != FormDraftNotice {
		t.Errorf("no hint: notice %q", n)
	}
	if r.hit(tea.KeyEnter, 0) { // meant for the message
		t.Fatal("the form took the Enter after a pause")
	}
	if got := r.rep.All(); len(got) != 0 {
		t.Fatalf("Enter after a pause answered the form: %q", got)
	}
	// Deleted: after a pause the form has the keys.
	r.w.draft = ""
	r.now = r.now.Add(time.Second)
	r.check()
	if !r.o.HasKeys() {
		t.Fatal("the form did not take the keys once the message was cleared")
	}
	r.hit(tea.KeyEscape, 0)
	if got := r.rep.All(); len(got) != 1 || !strings.Contains(got[0], "cancel") {
		t.Errorf("replies %q; want the cancel", got)
	}
}

// A draft from before the form appeared does not hold it off.
func TestOldDraftLetsFormFocus(t *testing.T) {
	r := newRig(t, 110, 40, 100*time.Millisecond, act.Role{})
	r.w.draft = "half a thought"
	r.now = r.now.Add(time.Second)
	r.do(func() { r.o.Request(r.decode("item/commandExecution/requestApproval", `"id-1"`, reqtest.CmdReq)) })
	r.now = r.now.Add(time.Second)
	r.check()
	if !r.o.HasKeys() {
		t.Fatal("a draft older than the form kept it from the keys")
	}
}

// Text sent to a focused choice form is not its: the form yields the
// keys, says why, and waits for a pause again.
func TestTextYieldsTheKeys(t *testing.T) {
	r := reqRig(t)
	r.request(r.decode("item/commandExecution/requestApproval", `1`, reqtest.CmdReq))
	if !r.o.HasKeys() {
		t.Fatal("the form did not take the keys granted")
	}
	if r.hit('j', 0) {
		t.Fatal("a choice form took a letter")
	}
	if r.o.HasKeys() || r.notice() != FormDraftNotice {
		t.Fatalf("the form kept the keys (%v) or said nothing (%q)", r.o.HasKeys(), r.notice())
	}
	r.send(FocusMsg{})
	if r.paste("jj\n") || r.o.HasKeys() {
		t.Fatal("a choice form took a paste, or kept the keys")
	}
	if got := r.rep.All(); len(got) != 0 {
		t.Fatalf("text answered the form: %q", got)
	}
}

// An Esc pressed while the form is shown but not focused is used up (it
// must not interrupt the turn) and says why nothing happened.
func TestEscDuringGraceIsSwallowed(t *testing.T) {
	r := graceRig(t)
	r.do(func() { r.o.Request(r.decode("item/commandExecution/requestApproval", `1`, reqtest.CmdReq)) })
	r.now = r.now.Add(100 * time.Millisecond)
	if !r.hit(tea.KeyEscape, 0) {
		t.Fatal("Esc during the grace period was not used up")
	}
	if got := r.rep.All(); len(got) != 0 || !r.o.HasForm() {
		t.Fatalf("Esc during the grace period answered the form: %q", got)
	}
	if n := r.notice(); n != FormWaitNotice {
		t.Errorf("notice %q; want %q", n, FormWaitNotice)
	}
}

// A form that waited off screen (a lane of the command center) until its
// grace ran out takes no key the moment it is shown again: Reshow starts
// the grace and the quiet period over, and the form takes keys only once
// they have passed with it on screen.
func TestReshownFormGraceStartsOver(t *testing.T) {
	r := graceRig(t)
	r.do(func() { r.o.Request(r.decode("item/commandExecution/requestApproval", `1`, reqtest.CmdReq)) })
	r.now = r.now.Add(time.Minute) // long off screen: the form took focus there
	r.check()
	if !r.o.HasKeys() {
		t.Fatal("the form never took focus")
	}
	r.do(r.o.Reshow) // the inbox's Enter brings it on screen
	if r.hit(tea.KeyEnter, 0) {
		t.Fatal("the Enter right after it came on screen answered it")
	}
	r.now = r.now.Add(100 * time.Millisecond)
	r.check()
	if r.hit(tea.KeyEnter, 0) || r.o.HasKeys() {
		t.Fatal("a second Enter 100 ms later reached the form")
	}
	if got := r.rep.All(); len(got) != 0 {
		t.Fatalf("answered: %q", got)
	}
	r.now = r.now.Add(time.Second) // on screen, quiet, read
	r.check()
	if !r.o.HasKeys() {
		t.Fatal("shown and quiet for a second, the form has no keys")
	}
}
