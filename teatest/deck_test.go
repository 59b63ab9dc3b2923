package teatest

import (
	"testing"
	"time"

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
