package model

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

// A server that owes an answer and says nothing for UnresponsiveAfter is
// named on the status line of the running turn (measured on the clock at
// each frame); F5 on a server that answers says so instead of doing
// nothing, and on the silent one restarts it.
func TestSilentServerOnTheStatusLine(t *testing.T) {
	clock := newPacedClock(time.Unix(1_000_000, 0))
	restarts := 0
	f := newFake()
	m := ready(t, f, Options{Clock: clock, UnresponsiveAfter: 30 * time.Second, Restart: func(string) (RestartInfo, error) {
		restarts++
		return RestartInfo{ThreadID: "t-first"}, nil
	}})
	press(t, m, tea.KeyF5, 0)
	if v := viewText(m); !strings.Contains(v, "codex app-server is answering") || restarts != 0 {
		t.Fatalf("F5 on a server that answers: %d restarts, view:\n%s", restarts, v)
	}
	typeText(t, m, "long job")
	press(t, m, tea.KeyEnter, 0)
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	f.mu.Lock()
	f.since = clock.Now()
	f.mu.Unlock()
	clock.Add(42 * time.Second)
	m.Update(m.stat.NextTick())
	if v := viewText(m); !strings.Contains(v, "codex has not answered for 42 s") {
		t.Fatalf("the silent server is not named:\n%s", v)
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyF5})
	if cmd == nil {
		t.Fatal("F5 on a silent server did nothing")
	}
	cmd()
	if restarts != 1 {
		t.Errorf("F5 on a silent server: %d restarts", restarts)
	}
}

// The app-server dies while a command runs and a file is being edited:
// neither reads as running afterwards, nor after F5.
func TestDeadServerEndsOpenCells(t *testing.T) {
	m := ready(t, newFake(), Options{Restart: func(string) (RestartInfo, error) { return RestartInfo{ThreadID: "t-first"}, nil }})
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	m.Update(backend.ItemStartedEvent{Item: backend.Item{Type: "commandExecution", ID: "cmd-1", Command: "make test", Status: "inProgress"}})
	m.Update(backend.ItemStartedEvent{Item: backend.Item{Type: "fileChange", ID: "fc-1", Status: "inProgress",
		Changes: []backend.FileChange{{Path: "b.txt", Kind: backend.PatchChangeKind{Type: "update"}, Diff: "@@ -1 +1 @@\n-a\n+b\n"}}}})
	v := viewText(m)
	if !strings.Contains(v, "running") || !strings.Contains(v, "Editing b.txt") {
		t.Fatalf("before: no running command and edit:\n%s", v)
	}
	m.Update(backend.ServerExitedEvent{Status: "killed by signal 9 (killed)"})
	check := func(when string) {
		t.Helper()
		v := viewText(m)
		if strings.Contains(v, "(running") || strings.Contains(v, "Editing b.txt") {
			t.Errorf("%s: a cell still reads running:\n%s", when, v)
		}
		if !strings.Contains(v, "outcome unknown") || !strings.Contains(v, "Edit (outcome unknown) of b.txt") {
			t.Errorf("%s: the cells do not say their outcome is unknown:\n%s", when, v)
		}
	}
	check("after the death")
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyF5})
	msg := cmd()
	_, rc := m.Update(SessionReadyMsg{Client: newFake(), Model: "mock-model"})
	settle(t, m, rc)
	m.Update(msg)
	check("after F5")
}

// A turn that ends interrupted (Esc, or Ctrl+C refusing its approval
// first) with a command never completed: the command reads interrupted,
// not running.
func TestInterruptedTurnEndsOpenCells(t *testing.T) {
	m := ready(t, newFake(), Options{})
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	m.Update(notif(t, "item/started", `{"turnId":"turn-1","item":{"type":"commandExecution","id":"cmd-1","command":"rm -rf build","status":"inProgress"}}`))
	m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnInterrupted}})
	v := viewText(m)
	if strings.Contains(v, "(running") || !strings.Contains(v, "rm -rf build  (interrupted)") {
		t.Errorf("the command of the interrupted turn:\n%s", v)
	}
}
