package model

import (
	"tandem/model/rewind"
	"tandem/thread"
)

// The rewind (model/rewind): Esc Esc on an empty composer, /undo, and the
// snapshots of the files the agent changed. The root builds it, routes
// Esc to it (keys.go), Enter through the turn machine (act.RunRewind),
// the items the fold changed (events.go) and its calls' results
// (model.go), and carries out what it asks of the turn machine
// (apply.go).

// newRewind builds m's rewind.
func newRewind(m *Model) *rewind.Rewind {
	return rewind.New(m.env, rewind.Options{World: rewindWorld{m}})
}

// rewindWorld is what the rewind reads of the model (rewind.World).
type rewindWorld struct{ m *Model }

func (w rewindWorld) Thread() *thread.State { return w.m.panes.Thread() }
func (w rewindWorld) ThreadCwd() string     { return w.m.panes.Cwd() }
func (w rewindWorld) Facts() rewind.Facts {
	m := w.m
	f := rewind.Facts{AgentShown: m.panes.AgentShown(), Ready: m.turn.Client() != nil && m.turn.Ready(),
		Busy: m.turn.Busy() || m.turn.Switching(), Asking: m.overlay.HasForm()}
	if c := m.turn.Client(); c != nil {
		f.Thread = c.ThreadID()
	}
	return f
}
