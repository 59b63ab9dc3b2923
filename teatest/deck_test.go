package teatest

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"tandem/backend"
	"tandem/internal/testkit/e2e"
	"tandem/model"
)

// The command center tells a thread's pane how many other threads wait
// for an answer (model.DeckInfo): the status line says so, with the key
// that opens the command center, and says no more once none waits.
func TestGoldenDeckWaiting(t *testing.T) {
	u := e2e.NewFrozenTUI(t, model.Options{Now: func() time.Time { return epoch }, FormGrace: time.Millisecond}, 100, 30)
	u.TM.Send(model.SessionReadyMsg{Client: fakeDriver{}, Model: "gpt-test", Cwd: "~/src/tandem", Approval: "on-request", Sandbox: "workspace-write", Peer: "local"})
	u.TM.Send(model.DeckInfo{Waiting: 2, Key: "f4"})
	golden(t, u, "⚑ 2 other threads wait for you · f4")
	u.TM.Send(model.DeckInfo{Waiting: 0, Key: "f4"})
	u.WaitScreen(t, e2e.Patience, "no flag", func(s string) bool { return !e2e.Contains("⚑")(s) && e2e.Contains("gpt-test")(s) })
}

// At 20 columns, with a turn running, the flag is the short one and
// comes first, before the running turn.
func TestGoldenDeckWaitingNarrow(t *testing.T) {
	u := e2e.NewFrozenTUI(t, model.Options{Now: func() time.Time { return epoch }, FormGrace: time.Millisecond}, 20, 8)
	u.TM.Send(model.SessionReadyMsg{Client: fakeDriver{}, Model: "gpt-test", Cwd: "~/src/tandem", Peer: "local"})
	u.TM.Send(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	u.TM.Send(model.DeckInfo{Waiting: 1, Key: "f4"})
	golden(t, u, "⚑ 1 waiting · f4")
}

// With other threads of the command center running or waiting, the first
// Ctrl+C on an idle, empty composer names them and asks for it again
// (the status line's quit notice); the second quits.
func TestGoldenDeckQuitWarns(t *testing.T) {
	u := e2e.NewFrozenTUI(t, model.Options{Now: func() time.Time { return epoch }, FormGrace: time.Millisecond}, 100, 30)
	u.TM.Send(model.SessionReadyMsg{Client: fakeDriver{}, Model: "gpt-test", Cwd: "~/src/tandem", Approval: "on-request", Sandbox: "workspace-write", Peer: "local"})
	u.TM.Send(model.DeckInfo{Waiting: 1, Running: 2, Key: "f4"})
	u.WaitScreen(t, e2e.Patience, "the flag", e2e.Contains("⚑ 1 other thread waits for you"))
	u.Key(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	golden(t, u, "2 other threads still running, 1 waiting for you — press Ctrl+C again to quit")
	u.TM.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}) // not Key: it would wait for an answer of the program gone
	u.TM.WaitFinished(t, teatest.WithFinalTimeout(e2e.Patience))
}

// Ctrl+D on an empty composer quits at once, but while other threads
// run it warns first, as Ctrl+C does; a second Ctrl+D quits.
func TestDeckQuitEmptyWarns(t *testing.T) {
	u := e2e.NewFrozenTUI(t, model.Options{Now: func() time.Time { return epoch }, FormGrace: time.Millisecond}, 100, 30)
	u.TM.Send(model.SessionReadyMsg{Client: fakeDriver{}, Model: "gpt-test", Cwd: "~/src/tandem", Peer: "local"})
	u.TM.Send(model.DeckInfo{Running: 1, Key: "f4"})
	u.WaitScreen(t, e2e.Patience, "the composer", e2e.Contains("gpt-test"))
	u.Key(tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl})
	u.WaitScreen(t, e2e.Patience, "the warning", e2e.Contains("1 other thread still running — press Ctrl+D again to quit"))
	u.TM.Send(tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl})
	u.TM.WaitFinished(t, teatest.WithFinalTimeout(e2e.Patience))
}
