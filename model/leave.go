package model

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/ui"
)

// Leaving a durable session (the daemon): /quit and /detach leave the
// turn running there, /stop interrupts it first.

// Durable reports whether the session is on the daemon (it outlives
// tandem): quitting leaves its turn running and its requests waiting.
func (m *Model) Durable() bool { return m.detach.durable }

// Host is the machine the daemon runs on ("" when not known).
func (m *Model) Host() string { return m.detach.host }

// Detached reports whether the link to the daemon is down.
func (m *Model) Detached() bool { return m.detach.detached }

// quitNote is the line a quit leaves in the scrollback (--no-alt-screen)
// under what it printed of a turn it cuts short: without the daemon the
// app-server stops with tandem, so a running turn ends where it was and
// a request waiting for an answer is refused (shutdown answers it cancel
// or decline, never accept). "" when nothing was cut short, for a
// session on the daemon (both go on there; the exit line says how to
// come back), and for a shared session's guest (the session goes on).
func (m *Model) quitNote() string {
	if m.detach.durable || m.opts.Shared || m.client == nil {
		return ""
	}
	waiting := ""
	switch n := len(m.Pending()); {
	case n == 1:
		waiting = "the request waiting for you is refused (never accepted)"
	case n > 1:
		waiting = "the " + itoa(n) + " requests waiting for you are refused (never accepted)"
	}
	switch {
	case m.turn.running && waiting != "":
		return "quit mid-turn: " + waiting + ", and the turn stops with the app-server"
	case m.turn.running:
		return "quit mid-turn: the turn stops with the app-server, where it is above"
	case waiting != "":
		return "quit: " + waiting
	}
	return ""
}

// cmdDetach is /detach: leave a session on the daemon on purpose; its
// turn, its requests and the thread stay there.
func (m *Model) cmdDetach(string) tea.Cmd {
	if !m.detach.durable {
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
	if m.opts.Shared || !m.turn.running || m.client == nil {
		return ""
	}
	return "a turn is running: /stop interrupts it and quits — Enter again to confirm, Esc to keep it"
}

// stopDoneMsg is the outcome of /stop's turn/interrupt.
type stopDoneMsg struct{ err error }

// cmdStop is /stop: interrupt the running turn (turn/interrupt), then
// leave; with no turn running it only leaves. A failed interrupt says
// why and stays.
func (m *Model) cmdStop(string) tea.Cmd {
	if m.opts.Shared {
		m.refuse("/stop is not available in a shared session — esc interrupts, /quit leaves")
		return nil
	}
	c := m.client
	if !m.turn.running || c == nil {
		if m.turn.running && m.detach.detached {
			m.refuse("/stop needs the link to the daemon to interrupt the turn — wait for the re-attach, or /detach to leave it running")
			return nil
		}
		return m.quit()
	}
	m.setNotice(noticeInterrupting, "interrupting the turn, then leaving…")
	m.turn.interruptSent = m.now()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return stopDoneMsg{err: c.Interrupt(ctx)}
	}
}

func (m *Model) onStopDone(msg stopDoneMsg) tea.Cmd {
	if msg.err != nil {
		m.clearNotice(noticeInterrupting)
		m.banner(ui.BannerError, "/stop could not interrupt the turn: "+oneLine(msg.err)+" — tandem stays", nil)
		return nil
	}
	m.turn.running = false // interrupted: nothing goes on after tandem
	return m.quit()
}
