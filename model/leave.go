package model

// Leaving a durable session (the daemon): /quit and /detach leave the
// turn running there, /stop interrupts it first (model/commands asks,
// model/turn does it: act.Stop).

// Durable reports whether the session is on the daemon (it outlives
// tandem): quitting leaves its turn running and its requests waiting.
func (m *Model) Durable() bool { return m.turn.Durable() }

// Host is the machine the daemon runs on ("" when not known).
func (m *Model) Host() string { return m.turn.Host() }

// Detached reports whether the link to the daemon is down.
func (m *Model) Detached() bool { return m.turn.Detached() }
