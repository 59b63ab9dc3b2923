package model

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

// interruptCounter is a driver that counts interrupts.
type interruptCounter struct {
	backend.Unavailable
	n atomic.Int32
}

func (d *interruptCounter) StartTurn(context.Context, backend.TurnInput) (backend.Turn, error) {
	return backend.Turn{ID: "t"}, nil
}
func (d *interruptCounter) Interrupt(context.Context) error { d.n.Add(1); return nil }

// graceModel is a model with a running turn and a clock the test moves.
func graceModel(t *testing.T) (*Model, *pacedClock, *interruptCounter) {
	t.Helper()
	now := newPacedClock(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	d := &interruptCounter{}
	m := New(Options{NoColor: true, Now: now.Now, Clock: now})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.Update(SessionReadyMsg{Client: d, Model: "m", Cwd: "/w"})
	startTurn(m)
	return m, now, d
}

// Someone typing a message at 50 ms a key while an approval arrives: the
// form never takes a key while the typing goes on, however long after its
// arrival; the Enter stays with the composer, the text is whole, and no
// reply is sent. Once the user pauses with that message cleared, the
// next key is the form's. (The overlay's own test fires the focus checks'
// ticks too.)
func TestFormWaitsUntilTypingStops(t *testing.T) {
	m, now, _ := graceModel(t)
	rep := &replies{}
	text := "hello there, please also check the logs and rerun the tests"
	for i, r := range text {
		if i == 6 {
			_, cmd := m.Update(decodeReq(t, "item/commandExecution/requestApproval", `1`, cmdReq, rep))
			drive(t, m, cmd)
			m.View() // the form is on screen
		}
		now.Add(50 * time.Millisecond)
		hitKey(t, m, r, 0)
		if m.overlay.HasKeys() {
			t.Fatalf("form took focus after %q while typing went on", text[:i+1])
		}
	}
	now.Add(50 * time.Millisecond)
	hitKey(t, m, tea.KeyEnter, 0)
	if m.overlay.HasKeys() || !m.overlay.HasForm() {
		t.Fatal("the Enter typed for the message answered the form")
	}
	if got := rep.All(); len(got) != 0 {
		t.Fatalf("a reply was sent while typing: %q", got)
	}
	// The turn is starting: the message is queued whole (issue 27), or
	// still in the composer.
	if got, q := m.State().Composer, m.State().Queued; got != text && !(got == "" && len(q) == 1 && q[0] == text) {
		t.Fatalf("composer %q, queued %q, want the whole message %q", got, q, text)
	}
	// Once it is deleted, a pause gives the form the next key.
	for range len(text) {
		m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace}) // key() would give it text
	}
	now.Add(600 * time.Millisecond)
	hitKey(t, m, tea.KeyEnter, 0)
	if got := rep.All(); len(got) != 1 || got[0] != `{"result":{"decision":"accept"}}` {
		t.Fatalf("replies %q after answering the focused form", got)
	}
}

// An Esc pressed while the form is shown but not focused yet neither
// interrupts the turn nor answers the form.
func TestEscDuringGraceDoesNotInterrupt(t *testing.T) {
	m, now, d := graceModel(t)
	rep := &replies{}
	typeKeys(t, m, "draft")
	_, cmd := m.Update(decodeReq(t, "item/commandExecution/requestApproval", `1`, cmdReq, rep))
	drive(t, m, cmd)
	m.View()
	now.Add(100 * time.Millisecond)
	hitKey(t, m, tea.KeyEscape, 0)
	if n := d.n.Load(); n != 0 {
		t.Fatalf("Esc during the grace period interrupted the turn (%d interrupts)", n)
	}
	if got := rep.All(); len(got) != 0 || !m.overlay.HasForm() {
		t.Fatalf("Esc during the grace period answered the form: %q", got)
	}
	if !m.State().Running || m.State().Composer != "draft" {
		t.Fatalf("running %v, composer %q", m.State().Running, m.State().Composer)
	}
	if !strings.Contains(noticeText(m), "request is waiting") {
		t.Errorf("no hint why Esc did nothing: %q", noticeText(m))
	}
	// Once focused (the first key after a pause, the draft older than the
	// form), Esc is the form's: it cancels the request, and still does not
	// interrupt through the composer.
	now.Add(time.Second)
	hitKey(t, m, tea.KeyEscape, 0)
	if got := rep.All(); len(got) != 1 || got[0] != `{"result":{"decision":"cancel"}}` {
		t.Fatalf("replies %q after Esc on the focused form", got)
	}
	if n := d.n.Load(); n != 0 {
		t.Fatalf("Esc on the focused form interrupted the turn (%d)", n)
	}
}

// A form whose tick never comes (nothing drives it) still takes the first
// key pressed after a pause, and only such a key.
func TestFormWithoutTickTakesKeyAfterPause(t *testing.T) {
	m, now, _ := graceModel(t)
	rep := &replies{}
	_, cmd := m.Update(decodeReq(t, "item/commandExecution/requestApproval", `1`, cmdReq, rep))
	drive(t, m, cmd)
	now.Add(time.Second + 100*time.Millisecond)
	hitKey(t, m, tea.KeyEnter, 0)
	if got := rep.All(); len(got) != 1 || got[0] != `{"result":{"decision":"accept"}}` {
		t.Fatalf("replies %q; want the Enter after the pause to answer", got)
	}
}

// Ctrl+C mid-turn with an approval up (shown or still in its grace
// period) refuses it — cancel, never accept — and interrupts the turn;
// the draft stays.
func TestCtrlCWithFormInterrupts(t *testing.T) {
	m, _, d := graceModel(t)
	rep := &replies{}
	typeKeys(t, m, "draft")
	_, cmd := m.Update(decodeReq(t, "item/commandExecution/requestApproval", `1`, cmdReq, rep))
	drive(t, m, cmd)
	m.View()
	hitKey(t, m, 'c', tea.ModCtrl)
	if n := d.n.Load(); n != 1 {
		t.Fatalf("Ctrl+C with a form up sent %d interrupts; want 1", n)
	}
	got := rep.All()
	if len(got) != 1 || !strings.Contains(got[0], `"decision":"cancel"`) {
		t.Fatalf("reply = %q; want one cancel", got)
	}
	if m.overlay.HasForm() || m.State().Composer != "draft" {
		t.Fatalf("form %v, composer %q", m.overlay.HasForm(), m.State().Composer)
	}
	// Then Ctrl+C works as without a form: the draft goes to history,
	// then quit is armed; no second interrupt is sent.
	hitKey(t, m, 'c', tea.ModCtrl)
	hitKey(t, m, 'c', tea.ModCtrl)
	if !strings.Contains(noticeText(m), "again to quit") || d.n.Load() != 1 {
		t.Errorf("later Ctrl+C: notice %q, %d interrupts", noticeText(m), d.n.Load())
	}
}
