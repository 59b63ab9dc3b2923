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

// stopDoneMsg is the outcome of /stop's turn/interrupt.
type stopDoneMsg struct{ err error }

// stopTurn interrupts the running turn for /stop (act.Stop,
// model/commands): once it is interrupted tandem leaves (onStopDone).
func (m *Model) stopTurn() tea.Cmd {
	c := m.client
	if c == nil {
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
