package model

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
	"tandem/internal/testkit/reqtest"
	"tandem/internal/testkit/teadrive"
	"tandem/model/overlay"
)

// The request tests that need the whole model: a form with the composer,
// the status line's notification. The overlay's own are in
// model/overlay.

// replies records what requests send (reqtest.Replies).
type replies = reqtest.Replies

func decodeReq(t *testing.T, method, id, params string, rep *replies) backend.ServerRequest {
	t.Helper()
	return reqtest.Decode(t, method, id, params, rep)
}

// drive runs cmds the way the program would, feeding their messages back
// into m; timers that don't fire within 60 ms (blinks, ticks) are
// dropped, every other command is waited for (teadrive.Drive).
func drive(t *testing.T, m *Model, cmds ...tea.Cmd) {
	t.Helper()
	update := func(msg tea.Msg) tea.Cmd { _, next := m.Update(msg); return next }
	if err := teadrive.Drive(update, 60*time.Millisecond, nil, cmds...); err != nil {
		t.Fatal("drive:", err)
	}
}

// hitKey presses a key (a rune, or a tea.Key* code) and runs what
// follows; a key the composer holds acts at once (release), as one
// pressed alone.
func hitKey(t *testing.T, m *Model, code rune, mod tea.KeyMod) {
	t.Helper()
	pace(m)
	msg := tea.KeyPressMsg{Code: code, Mod: mod}
	if code >= ' ' && code < tea.KeyExtended && mod == 0 {
		msg.Text = string(code)
	}
	_, cmd := m.Update(msg)
	drive(t, m, cmd, release(m))
}

func typeKeys(t *testing.T, m *Model, s string) {
	t.Helper()
	for _, r := range s {
		hitKey(t, m, r, 0)
	}
}

// deliver hands req to the model and ends the form's grace period.
func deliver(t *testing.T, m *Model, req backend.ServerRequest) tea.Cmd {
	t.Helper()
	_, cmd := m.Update(req)
	drive(t, m, cmd)
	m.Update(overlay.FocusMsg{})
	return cmd
}

func newReqModel() *Model {
	m := New(Options{NoColor: true, FormGrace: time.Hour})
	m.Update(tea.WindowSizeMsg{Width: 110, Height: 40})
	return m
}

func plain(m *Model) string { return ansi.Strip(m.View().Content) }

const (
	cmdReq    = reqtest.CmdReq
	permReq   = reqtest.PermReq
	inputReq  = reqtest.InputReq
	elicitReq = reqtest.ElicitReq
	urlReq    = reqtest.URLReq
	execReq   = reqtest.ExecReq
)

// Text typed or pasted while a choice form has the keys never picks a
// choice: no letter moves the cursor, "/" does not filter, and the text
// goes to the composer while the form waits for a pause again, so the
// Enter that ends the message can't answer it either. (Before: "just run
// it"+Enter moved down with the j and picked "don't ask again".)
func TestTypedTextNeverAnswersAChoiceForm(t *testing.T) {
	cases := []struct {
		name, method, params string
		typed                string
		paste                bool
	}{
		{"j and Enter", "item/commandExecution/requestApproval", cmdReq, "just run it", false},
		{"filter no", "item/commandExecution/requestApproval", cmdReq, "/no", false},
		{"vim keys", "item/commandExecution/requestApproval", cmdReq, "jjjkG", false},
		{"legacy exec", "execCommandApproval", execReq, "jj", false},
		{"permissions", "item/permissions/requestApproval", permReq, "jx ", false},
		{"elicitation action", "mcpServer/elicitation/request", elicitReq, "j/decline", false},
		{"pasted text", "item/commandExecution/requestApproval", cmdReq, "jj\n", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep := &replies{}
			m := newReqModel()
			deliver(t, m, decodeReq(t, tc.method, `"id-1"`, tc.params, rep))
			if !m.overlay.HasKeys() {
				t.Fatal("form did not take the keys")
			}
			if tc.paste {
				_, cmd := m.Update(tea.PasteMsg{Content: tc.typed})
				drive(t, m, cmd)
			} else {
				typeKeys(t, m, tc.typed)
			}
			if v := plain(m); !strings.Contains(v, overlay.FormDraftNotice) {
				t.Errorf("no hint that the form waits for the message:\n%s", v)
			}
			if got := m.composer.Value(); got != tc.typed {
				t.Errorf("composer %q; the typed text %q should be there", got, tc.typed)
			}
			hitKey(t, m, tea.KeyEnter, 0) // the composer's Enter (no app-server here: nothing is sent)
			if got := rep.All(); len(got) != 0 {
				t.Fatalf("typing %q answered the form: %q", tc.typed, got)
			}
			if !m.overlay.HasForm() || m.overlay.HasKeys() {
				t.Fatalf("form gone (%v) or still focused (%v) after typing", !m.overlay.HasForm(), m.overlay.HasKeys())
			}
			// After the pause the form answers arrow keys as before.
			m.Update(overlay.FocusMsg{})
			hitKey(t, m, tea.KeyEscape, 0)
			if got := rep.All(); len(got) != 1 {
				t.Fatalf("Esc after the pause: replies %q; want one", got)
			}
		})
	}
}

// clockedReqModel is a model whose forms' grace and quiet periods (100 ms
// each) run on the returned clock.
func clockedReqModel() (*Model, *pacedClock) {
	now := newPacedClock(time.Unix(1000, 0))
	m := New(Options{NoColor: true, FormGrace: 100 * time.Millisecond, FormQuiet: 100 * time.Millisecond, Clock: now})
	m.Update(tea.WindowSizeMsg{Width: 110, Height: 40})
	return m, now
}

// A message typed while a form is up keeps the keyboard however long the
// user pauses: the form takes it once the message is sent or cleared.
// (Before: "no, wait, dont", a 0.8 s pause, Enter — and "Yes, run it"
// was chosen.) The overlay's own test checks the focus checks' timing and
// hint; here the draft is the composer's, typed.
func TestDraftKeepsKeysFromForm(t *testing.T) {
	m, clk := clockedReqModel()
	rep := &replies{}
	_, cmd := m.Update(decodeReq(t, "item/commandExecution/requestApproval", `"id-1"`, cmdReq, rep))
	drive(t, m, cmd)
	typeKeys(t, m, "no, wait, dont")
	clk.Add(2 * time.Second)      // a long pause
	hitKey(t, m, tea.KeyEnter, 0) // meant for the message
	if m.overlay.HasKeys() {
		t.Fatal("the form took the keys from a message being typed")
	}
	if got := rep.All(); len(got) != 0 {
		t.Fatalf("Enter after a pause answered the form: %q", got)
	}
	// Deleted: after a pause the form has the keys.
	for range len("no, wait, dont") {
		m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace}) // key() would give it text
	}
	if m.composer.Value() != "" {
		t.Fatalf("backspace left %q", m.composer.Value())
	}
	clk.Add(time.Second)
	hitKey(t, m, tea.KeyEscape, 0) // the first key after the pause is the form's
	if !m.overlay.HasForm() && len(rep.All()) == 0 {
		t.Fatal("the form closed unanswered")
	}
	if got := rep.All(); len(got) != 1 || !strings.Contains(got[0], "cancel") {
		t.Errorf("replies %q; want the cancel", got)
	}
}

// A blocking request rings the terminal through the program (tea.Raw);
// an automatic one does not.
func TestRequestRingsTerminal(t *testing.T) {
	rep := &replies{}
	m := newReqModel()
	_, cmd := m.Update(decodeReq(t, "item/commandExecution/requestApproval", `1`, cmdReq, rep))
	if !hasRaw(cmd, "\a") {
		t.Error("command approval did not ring")
	}
	_, cmd = m.Update(decodeReq(t, "item/permissions/requestApproval", `2`, permReq, rep))
	if !hasRaw(cmd, "\a") {
		t.Error("a queued request did not ring")
	}
	_, cmd = m.Update(decodeReq(t, "attestation/generate", `3`, `{}`, rep))
	if hasRaw(cmd, "") {
		t.Error("an automatic answer rang")
	}
}

func hasRaw(cmd tea.Cmd, want string) bool {
	if cmd == nil {
		return false
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	wait := patience // a command that answers is never dropped for being slow
	if teadrive.IsTimer(cmd) {
		wait = 30 * time.Millisecond
	}
	var msg tea.Msg
	select {
	case msg = <-ch:
	case <-time.After(wait):
		return false
	}
	switch msg := msg.(type) {
	case tea.RawMsg:
		return strings.Contains(fmt.Sprint(msg.Msg), want)
	case tea.BatchMsg:
		for _, c := range msg {
			if hasRaw(c, want) {
				return true
			}
		}
	}
	return false
}
