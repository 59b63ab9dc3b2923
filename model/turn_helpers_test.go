package model

import (
	"tandem/backend"
	"tandem/model/act"
)

// startTurn shows a turn as running, as the server's turn/started does
// for a turn this viewer did not start (model/turn follows it).
func startTurn(m *Model) {
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-other"}})
}

// switched is a thread opened, as the turn machine's call for it answers
// (model/turn).
func switched(sw act.ThreadSwitched) act.Done { return act.Done{For: act.ToTurn, Msg: sw} }
