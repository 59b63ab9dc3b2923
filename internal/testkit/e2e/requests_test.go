package e2e

// Server requests answered through the model, against the real
// app-server: the command approval's decline and cancel.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
	"tandem/internal/testkit/teadrive"
	"tandem/model"
)

// driveModel runs cmds the way the program would, feeding their messages
// back into m; timers that don't fire within 200 ms (cursor blinks) are
// dropped, every other command is waited for (teadrive.Drive).
func driveModel(t *testing.T, m *model.Model, cmds ...tea.Cmd) {
	t.Helper()
	update := func(msg tea.Msg) tea.Cmd { _, next := m.Update(msg); return next }
	if err := teadrive.Drive(update, 200*time.Millisecond, nil, cmds...); err != nil {
		t.Fatal("driveModel:", err)
	}
}

// approvalThroughModel starts a turn whose command needs approval, shows
// the real request in a model and presses keys on its form. It returns
// the session's channel for the rest of the turn.
func approvalThroughModel(t *testing.T, e *Env, seen func(view string), keys ...tea.KeyPressMsg) (<-chan any, *backend.CommandApprovalRequest) {
	t.Helper()
	s, ch := e.Session(t, "untrusted", "workspace-write")
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	if _, err := s.StartTurn(ctx, backend.TurnInput{Text: "make the file"}); err != nil {
		t.Fatal(err)
	}
	req := Await[*backend.CommandApprovalRequest](t, ch, Patience, nil)
	m := model.New(model.Options{NoColor: true, FormGrace: time.Millisecond})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, cmd := m.Update(req)
	driveModel(t, m, cmd)
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, "Run this command?") || !strings.Contains(v, "made.txt") {
		t.Fatalf("no approval form for the real request:\n%s", v)
	}
	if seen != nil {
		seen(v)
	}
	for _, k := range keys {
		_, cmd := m.Update(k)
		driveModel(t, m, cmd)
	}
	if !req.Answered() {
		t.Fatalf("the form did not answer:\n%s", ansi.Strip(m.View().Content))
	}
	if len(m.State().Pending) != 0 {
		t.Fatal("the request is still pending in the model")
	}
	return ch, req
}

// codex 0.169.0 offers "accept", the execpolicy amendment and "cancel"
// for this command (availableDecisions); "decline" is still a valid
// answer on the wire. Sent, it leaves the file absent and the command item
// declined, and the turn goes on to its final answer.
func TestCommandApprovalDecline(t *testing.T) {
	e := NewEnv(t, approvalScript()...)
	s, ch := e.Session(t, "untrusted", "workspace-write")
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	if _, err := s.StartTurn(ctx, backend.TurnInput{Text: "make the file"}); err != nil {
		t.Fatal(err)
	}
	req := Await[*backend.CommandApprovalRequest](t, ch, Patience, nil)
	if err := req.Answer(backend.Decline); err != nil {
		t.Fatal(err)
	}
	var item backend.Item
	Await[backend.TurnCompletedEvent](t, ch, Patience, func(v any) {
		if ev, ok := v.(backend.ItemCompletedEvent); ok && ev.Item.ID == req.Params.ItemID {
			item = ev.Item
		}
	})
	if item.Status != "declined" {
		t.Errorf("command item status %q, want declined", item.Status)
	}
	if _, err := os.Stat(filepath.Join(e.Dir, "made.txt")); !os.IsNotExist(err) {
		t.Fatalf("declined command ran: made.txt exists (err=%v)", err)
	}
	if n := len(e.Mock.Requests()); n != 2 {
		t.Errorf("the mock saw %d model rounds; want 2 (the turn continues after a decline)", n)
	}
}

// The model offers exactly the decisions the real server lists, and its
// "don't ask again for commands starting with …" choice sends the
// execpolicy amendment, which the server accepts: the command runs.
func TestCommandApprovalExecpolicyThroughModel(t *testing.T) {
	e := NewEnv(t, approvalScript()...)
	var view string
	ch, req := approvalThroughModel(t, e, func(v string) { view = v },
		tea.KeyPressMsg{Code: tea.KeyDown}, tea.KeyPressMsg{Code: tea.KeyEnter})
	for _, want := range []string{"Yes, run it", "don't ask again for commands starting with", "No, and stop the turn"} {
		if !strings.Contains(view, want) {
			t.Errorf("form lacks %q:\n%s", want, view)
		}
	}
	var item backend.Item
	Await[backend.TurnCompletedEvent](t, ch, Patience, func(v any) {
		if ev, ok := v.(backend.ItemCompletedEvent); ok && ev.Item.ID == req.Params.ItemID {
			item = ev.Item
		}
	})
	if item.Status != "completed" {
		t.Errorf("command item status %q, want completed", item.Status)
	}
	if _, err := os.Stat(filepath.Join(e.Dir, "made.txt")); err != nil {
		t.Fatalf("command approved with an execpolicy amendment did not run: %v", err)
	}
}

// Esc on the form answers cancel: the command does not run and the turn
// ends.
func TestCommandApprovalCancelEndsTurn(t *testing.T) {
	e := NewEnv(t, approvalScript()...)
	ch, _ := approvalThroughModel(t, e, nil, tea.KeyPressMsg{Code: tea.KeyEscape})
	Await[backend.TurnCompletedEvent](t, ch, Patience, nil)
	if _, err := os.Stat(filepath.Join(e.Dir, "made.txt")); !os.IsNotExist(err) {
		t.Fatalf("cancelled command ran: made.txt exists (err=%v)", err)
	}
	reqs := e.Mock.Requests()
	if len(reqs) != 1 {
		t.Errorf("the mock saw %d model rounds after cancel; want 1 (the turn stops, no follow-up round)", len(reqs))
	}
}
