package model

import (
	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
)

// Leaving a durable session (the daemon): /quit and /detach leave the
// turn running there, /stop interrupts it first (its work is the turn
// machine's, model/turn: act.Stop).

// Durable reports whether the session is on the daemon (it outlives
// tandem): quitting leaves its turn running and its requests waiting.
func (m *Model) Durable() bool { return m.turn.Durable() }

// Host is the machine the daemon runs on ("" when not known).
func (m *Model) Host() string { return m.turn.Host() }

// Detached reports whether the link to the daemon is down.
func (m *Model) Detached() bool { return m.turn.Detached() }

// cmdDetach is /detach: leave a session on the daemon on purpose; its
// turn, its requests and the thread stay there.
func (m *Model) cmdDetach(string) tea.Cmd {
	if !m.turn.Durable() {
		m.refuse("/detach is for a session on the codex daemon (--daemon): here the agent stops with tandem — /quit leaves")
		return nil
	}
	if m.opts.Shared {
		m.refuse("/detach is not available in a shared session — /quit leaves")
		return nil
	}
	return m.quit()
}

// stopQuestion is what /stop asks before it interrupts a running turn
// (slash.go); "" when it would not interrupt one: no turn runs (it only
// quits), or it refuses (a shared session, the daemon's link down).
func (m *Model) stopQuestion() string {
	if m.opts.Shared || !m.turn.Running() || m.turn.Client() == nil {
		return ""
	}
	return "a turn is running: /stop interrupts it and quits — Enter again to confirm, Esc to keep it"
}

// cmdStop is /stop: interrupt the running turn, then leave (act.Stop,
// model/turn); with no turn running it only leaves. A failed interrupt
// says why and stays.
func (m *Model) cmdStop(string) tea.Cmd {
	if m.opts.Shared {
		m.refuse("/stop is not available in a shared session — esc interrupts, /quit leaves")
		return nil
	}
	if !m.turn.Running() || m.turn.Client() == nil {
		if m.turn.Running() && m.turn.Detached() {
			m.refuse("/stop needs the link to the daemon to interrupt the turn — wait for the re-attach, or /detach to leave it running")
			return nil
		}
		return m.quit()
	}
	m.out.Want(act.Stop{})
	return nil
}
