package turn

import (
	"strconv"

	"tandem/model/act"
	"tandem/ui"
)

// Leaving: what a quit cuts short, and /stop's work (interrupt the
// running turn, then leave). A durable session (the daemon) leaves its
// turn running there.

// QuitNote is the line a quit leaves in the scrollback (--no-alt-screen)
// under what it printed of a turn it cuts short, pending being the
// server requests waiting for an answer: without the daemon the
// app-server stops with tandem, so a running turn ends where it was and
// a request waiting for an answer is refused (shutdown answers it cancel
// or decline, never accept). "" when nothing was cut short, for a
// session on the daemon (both go on there; the exit line says how to
// come back), and for a shared session's guest (the session goes on).
func (t *Turns) QuitNote(pending int) string {
	if t.detach.durable || t.shared() || t.client == nil {
		return ""
	}
	waiting := ""
	switch n := pending; {
	case n == 1:
		waiting = "the request waiting for you is refused (never accepted)"
	case n > 1:
		waiting = "the " + strconv.Itoa(n) + " requests waiting for you are refused (never accepted)"
	}
	switch {
	case t.t.running && waiting != "":
		return "quit mid-turn: " + waiting + ", and the turn stops with the app-server"
	case t.t.running:
		return "quit mid-turn: the turn stops with the app-server, where it is above"
	case waiting != "":
		return "quit: " + waiting
	}
	return ""
}

// stop is /stop's work: interrupt the running turn (turn/interrupt), then
// leave (act.Quit); with no turn running, or no link to interrupt it
// through, it only leaves. (The command refuses first where it must.)
func (t *Turns) stop() {
	c := t.client
	if !t.t.running || c == nil {
		t.out().Want(act.Quit{})
		return
	}
	t.notice(act.NoticeInterrupting, "interrupting the turn, then leaving…")
	t.t.interruptSent = t.now()
	t.out().Call(act.ToTurn, act.Interrupt{Stop: true})
}

// onStopped follows /stop's interrupt: a failed one says why and stays.
func (t *Turns) onStopped(err error) {
	if err != nil {
		t.out().Clear(act.NoticeInterrupting)
		t.banner(ui.BannerError, "/stop could not interrupt the turn: "+act.OneLine(err)+" — tandem stays", nil)
		return
	}
	t.t.running = false // interrupted: nothing goes on after tandem
	t.out().Want(act.Quit{})
}
