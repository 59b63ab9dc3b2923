package model

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
	"tandem/internal/hub"
	"tandem/model/overlay"
)

// countingDriver counts turn starts.
type countingDriver struct {
	backend.Unavailable
	turns int
}

func (d *countingDriver) StartTurn(context.Context, backend.TurnInput) (backend.Turn, error) {
	d.turns++
	return backend.Turn{ID: "t"}, nil
}
func (d *countingDriver) Interrupt(context.Context) error { return nil }

// screenText is the model's frame without ANSI styling.
func screenText(m *Model) string { return ansi.Strip(m.View().Content) }

// runCmd runs cmd's message back into m when it is a single message.
func runCmd(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	if msg := cmd(); msg != nil {
		if _, isBatch := msg.(tea.BatchMsg); !isBatch {
			m.Update(msg)
		}
	}
}

func typeAsViewer(m *Model, s string) {
	for _, r := range s {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func TestWatcherCannotTypeStartTurnsOrAnswer(t *testing.T) {
	d := &countingDriver{}
	m := New(Options{ReadOnly: true, Shared: true})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 24})
	m.Update(SessionReadyMsg{Client: d})

	typeAsViewer(m, "rm -rf")
	_, cmd := enterNow(m)
	runCmd(m, cmd)
	m.Update(tea.PasteMsg{Content: "pasted"})
	if m.State().Composer != "" || d.turns != 0 {
		t.Fatalf("composer %q, turns %d", m.State().Composer, d.turns)
	}
	if !strings.Contains(screenText(m), "you are watching") {
		t.Fatal("no read-only hint")
	}

	var sent []string
	req, _ := backend.DecodeRequest("item/commandExecution/requestApproval", backend.RequestID("1"),
		json.RawMessage(`{"threadId":"th","turnId":"tu","itemId":"it","command":"touch x"}`),
		func(result any, _ *backend.RPCError) error {
			b, _ := json.Marshal(result)
			sent = append(sent, string(b))
			return nil
		})
	m.Update(hub.PresenceEvent{Who: hub.Participant{Name: "alice", Role: hub.Driver}, Joined: true,
		Present: []hub.Participant{{Name: "alice", Role: hub.Driver}, {Name: "bob", Role: hub.Watcher}}})
	m.Update(req)
	m.Update(overlay.FocusMsg{})
	enterNow(m)
	m.Update(tea.KeyPressMsg{Code: 'y', Text: "y"})
	view := screenText(m)
	if m.overlay.HasForm() || len(sent) != 0 {
		t.Fatalf("watcher got a form (%v) or answered: %v", m.overlay.HasForm(), sent)
	}
	if !strings.Contains(view, "waiting for alice") || !strings.Contains(view, "alice (driver), bob (watcher)") {
		t.Fatalf("view lacks waiting line or presence:\n%s", view)
	}
	m.Update(backend.RequestResolvedEvent{RequestID: backend.RequestID("1")})
	if strings.Contains(screenText(m), "waiting for") {
		t.Fatal("waiting line stayed after the request was resolved")
	}

	// q leaves (this viewer only).
	_, cmd = m.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	if cmd == nil {
		t.Fatal("q did not quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("q did not quit")
	}
}

func TestSharedDriverDrawsPromptFromItemsAndRefusesThreadSwitch(t *testing.T) {
	d := &countingDriver{}
	m := New(Options{Shared: true})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Update(SessionReadyMsg{Client: d})
	typeAsViewer(m, "/new")
	m.Update(tea.KeyPressMsg{Code: tea.KeyEscape}) // close the popup
	enterNow(m)
	if !strings.Contains(screenText(m), "not available in a shared session") {
		t.Fatalf("/new was not refused:\n%s", screenText(m))
	}
	// Another driver's prompt arrives as items: it is drawn.
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "t1"}})
	m.Update(backend.ItemCompletedEvent{Item: backend.Item{ID: "u1", Type: "userMessage", Content: []backend.UserContent{{Type: "text", Text: "from the other driver"}}}})
	if !strings.Contains(screenText(m), "from the other driver") {
		t.Fatalf("shared prompt not drawn:\n%s", screenText(m))
	}
}
