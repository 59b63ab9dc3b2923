package model

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

// Issue 27: a typed line is never lost or doubled.

// Enter before the session is ready queues the message visibly (the
// composer empties, the queue says "sends when the session is ready"); the
// next line is its own message, never glued to it; each is sent once, in
// order, once the session is ready.
func TestEnterBeforeReadyIsQueuedAndSentOnce(t *testing.T) {
	f := newFake()
	m := New(Options{Clock: newPacedClock(time.Unix(1_000_000, 0))})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	typeText(t, m, "msg B")
	press(t, m, tea.KeyEnter, 0)
	if m.State().Composer != "" || !reflect.DeepEqual(m.State().Queued, []string{"msg B"}) {
		t.Fatalf("Enter before ready: composer %q, queued %q", m.State().Composer, m.State().Queued)
	}
	if v := viewText(m); !strings.Contains(v, "queued 1 (sends when the session is ready): msg B") {
		t.Fatalf("the queued message is not shown:\n%s", v)
	}
	typeText(t, m, "msg C")
	press(t, m, tea.KeyEnter, 0)
	if !reflect.DeepEqual(m.State().Queued, []string{"msg B", "msg C"}) {
		t.Fatalf("queued %q", m.State().Queued)
	}
	_, cmd := m.Update(SessionReadyMsg{Client: f, Model: "mock-model", Cwd: "~/w"})
	settle(t, m, cmd)
	if !reflect.DeepEqual(f.turns, []string{"msg B"}) || strings.Contains(noticeText(m), "not ready") {
		t.Fatalf("after ready: turns %q, notice %q", f.turns, noticeText(m))
	}
	_, cmd = m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
	settle(t, m, cmd)
	if !reflect.DeepEqual(f.turns, []string{"msg B", "msg C"}) || len(m.State().Queued) != 0 {
		t.Fatalf("turns %q, queued %q", f.turns, m.State().Queued)
	}
	// Both are in the history, as typed.
	if h := m.composer.History(); len(h) < 2 || h[len(h)-2] != "msg B" || h[len(h)-1] != "msg C" {
		t.Errorf("history %q", h)
	}
}

// Two Enters while the turn is starting (turn/start sent, no turn id
// yet) are queued ("sends when the turn has started"), then steer the turn
// in order, as two messages: never `msg Bmsg C`.
func TestEntersWhileTurnStartsSteerInOrder(t *testing.T) {
	f := newFake()
	f.noTurnID = true
	m := ready(t, f, Options{})
	typeText(t, m, "msg A")
	press(t, m, tea.KeyEnter, 0)
	typeText(t, m, "msg B")
	press(t, m, tea.KeyEnter, 0)
	typeText(t, m, "msg C")
	press(t, m, tea.KeyEnter, 0)
	if m.State().Composer != "" || !reflect.DeepEqual(m.State().Queued, []string{"msg B", "msg C"}) {
		t.Fatalf("composer %q, queued %q", m.State().Composer, m.State().Queued)
	}
	if v := viewText(m); !strings.Contains(v, "(sends when the turn has started): msg C") {
		t.Fatalf("the queue is not shown:\n%s", v)
	}
	f.noTurnID = false
	_, cmd := m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	settle(t, m, cmd)
	if !reflect.DeepEqual(f.steers, []string{"msg B", "msg C"}) || len(m.State().Queued) != 0 || !reflect.DeepEqual(f.turns, []string{"msg A"}) {
		t.Fatalf("steers %q, turns %q, queued %q", f.steers, f.turns, m.State().Queued)
	}
}

// A paste over codex's limit is refused before it is drawn as sent, and
// kept in the composer; the notice names the limit and the length.
func TestPasteOverLimitIsKept(t *testing.T) {
	f := newFake()
	m := ready(t, f, Options{})
	big := strings.Repeat("x", backend.MaxUserInputChars+10)
	m.Update(tea.PasteMsg{Content: big})
	press(t, m, tea.KeyEnter, 0)
	if f.turnCount() != 0 || m.State().Running {
		t.Fatal("the paste over the limit was sent")
	}
	if strings.Contains(viewText(m), "xxxxxxxxxxxxxxxx") {
		t.Fatal("the paste over the limit was drawn as sent")
	}
	if got := m.composer.Expand(m.State().Composer); got != big {
		t.Fatalf("the draft was not kept (%d characters)", len(got))
	}
	if n := noticeText(m); !strings.Contains(n, "1,048,586 characters") || !strings.Contains(n, "1,048,576") {
		t.Fatalf("notice %q", n)
	}
}

// Esc while a Tab-queued prompt waits interrupts the turn and puts the
// prompt back in the composer instead of starting it at once.
func TestEscPutsQueuedPromptBack(t *testing.T) {
	f := newFake()
	m := ready(t, f, Options{})
	typeText(t, m, "first")
	press(t, m, tea.KeyEnter, 0)
	typeText(t, m, "queued one")
	press(t, m, tea.KeyTab, 0)
	press(t, m, tea.KeyEscape, 0)
	_, cmd := m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnInterrupted}})
	settle(t, m, cmd)
	if f.turnCount() != 1 || m.State().Composer != "queued one" || len(m.State().Queued) != 0 {
		t.Fatalf("turns %q, composer %q, queued %q", f.turns, m.State().Composer, m.State().Queued)
	}
	if n := noticeText(m); !strings.Contains(n, "back in the composer") {
		t.Errorf("notice %q", n)
	}
}

// The command line's prompt is in the history (↑).
func TestCommandLinePromptIsInHistory(t *testing.T) {
	f := newFake()
	m := ready(t, f, Options{Prompt: "fix the tests"})
	if !reflect.DeepEqual(f.turns, []string{"fix the tests"}) {
		t.Fatalf("turns %q", f.turns)
	}
	_, cmd := m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
	settle(t, m, cmd)
	press(t, m, tea.KeyUp, 0)
	if m.State().Composer != "fix the tests" {
		t.Fatalf("↑ shows %q", m.State().Composer)
	}
}

// A slash command queued with Tab runs as the command when its turn
// comes (Codex's TUI does the same), never as text for the model.
func TestQueuedSlashCommandRuns(t *testing.T) {
	f := newFake()
	m := ready(t, f, Options{})
	typeText(t, m, "first")
	press(t, m, tea.KeyEnter, 0)
	typeText(t, m, "/quit")
	press(t, m, tea.KeyEscape, 0) // the popup closes (its Tab completes)
	press(t, m, tea.KeyTab, 0)
	if !reflect.DeepEqual(m.State().Queued, []string{"/quit"}) {
		t.Fatalf("queued %q", m.State().Queued)
	}
	_, cmd := m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
	settle(t, m, cmd)
	if f.turnCount() != 1 || !m.quitting {
		t.Fatalf("queued /quit: turns %q, quitting %v", f.turns, m.quitting)
	}
}

// /mcp login of a server that does not exist: refused by the server
// after the composer emptied; the line comes back, with a notice.
func TestRefusedCommandComesBack(t *testing.T) {
	f := newFake()
	f.errs["mcpServer/oauth/login"] = errors.New("no MCP server named nosuchserver")
	m := ready(t, f, Options{})
	typeText(t, m, "/mcp login nosuchserver")
	press(t, m, tea.KeyEnter, 0)
	if m.State().Composer != "/mcp login nosuchserver" || !strings.Contains(noticeText(m), "back in the composer") {
		t.Fatalf("composer %q, notice %q", m.State().Composer, noticeText(m))
	}
	// /new during a turn is refused at once; the draft stays.
	m.composer.SetDraft("")
	typeText(t, m, "hello")
	press(t, m, tea.KeyEnter, 0)
	typeText(t, m, "/new")
	press(t, m, tea.KeyEnter, 0)
	if m.State().Composer != "/new" || !strings.Contains(noticeText(m), "can't run while a turn is running") {
		t.Fatalf("/new during a turn: composer %q, notice %q", m.State().Composer, noticeText(m))
	}
}
