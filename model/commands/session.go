package commands

import (
	tea "charm.land/bubbletea/v2"

	"tandem/internal/lib/termsafe"
	"tandem/model/act"
)

// The commands of this viewer's session: the overlay's pickers (/model,
// /approvals, /resume, /agents), /copy, and leaving (/detach, /stop).

// model is /model: the models (`model/list`) in the overlay's picker, the
// one the next turns use marked; the choice (act.SetModel) applies from
// the next turn.
func (c *Commands) model(string) {
	st := c.world.Status()
	current := st.Info.Model
	if st.Next.Model != "" {
		current = st.Next.Model
	}
	c.out().Want(act.PickModel{Current: current})
}

// approvals is /approvals: the approval policy and sandbox, in the
// overlay's picker; the choice (act.SetPolicy) applies from the next turn.
func (c *Commands) approvals(string) {
	info := c.world.Status().Info
	c.out().Want(act.PickPolicy{Approval: info.Approval, Sandbox: info.Sandbox})
}

// resume is /resume: the resume picker, the daemon's threads for a
// session on it (act.PickThread).
func (c *Commands) resume(string) {
	c.out().Want(act.PickThread{Durable: c.world.Server().Durable})
}

// Agents opens the list of the thread's sub-agents, live and finished
// (/agents and its key): choosing one shows it (act.ShowAgent), "back to
// the thread" returns.
func (c *Commands) Agents() {
	if c.world.FormShown() {
		// The form has the keys: the list would look open while they
		// answered the request.
		c.out().Notice(act.NoticeRequestWaiting, "a request is waiting — answer it first (ctrl+t shows all of it)")
		return
	}
	agents := c.world.Agents()
	if len(agents) == 0 {
		c.out().Notice(act.NoticeNoAgents, "no sub-agents in this thread yet")
		return
	}
	items := make([]act.PickItem, 0, len(agents))
	for _, a := range agents {
		items = append(items, act.PickItem{Label: a.Name, Detail: a.Detail, Choose: act.ShowAgent{ID: a.ID}})
	}
	c.out().Want(act.Pick{Title: "Sub-agents", Hint: "enter to open · esc to close", Items: items})
}

// Copy copies the last agent message to the clipboard (/copy and its
// key): by OSC 52 (works over SSH) and, where one exists and the viewer
// is no guest, the native clipboard. The status line says either way.
//
// What is copied is the text as the transcript shows it
// (termsafe.Controls, tabs kept): an escape sequence, a control, a bidi
// control or an invisible character in the answer is its visible marker
// ("\x1b[201~" → "␛[201~"), so a paste can't end the terminal's
// bracketed paste and run what follows, or do what the screen did not
// show. "\n" and tabs are kept, "\r\n" becomes "\n".
func (c *Commands) Copy() {
	text := termsafe.Controls(c.world.LastAnswer())
	if text == "" {
		c.out().Notice(act.NoticeInfo, "nothing to copy yet")
		return
	}
	c.out().Notice(act.NoticeInfo, "copied the last answer")
	if c.env.Role.Guest() { // the host's clipboard is not the guest's
		c.out().Cmd(tea.SetClipboard(text))
		return
	}
	native := func() tea.Msg {
		_ = c.opts.Clipboard(text) // no native clipboard: OSC 52 alone
		return nil
	}
	c.out().Cmd(tea.Batch(tea.SetClipboard(text), native))
}

// detachBlocked says why /detach can't leave: it is for a session on the
// daemon, which a shared session's viewer does not own.
func (c *Commands) detachBlocked() string {
	switch {
	case !c.world.Server().Durable:
		return "/detach is for a session on the codex daemon (--daemon): here the agent stops with tandem — /quit leaves"
	case c.env.Role.Shared():
		return "/detach is not available in a shared session — /quit leaves"
	}
	return ""
}

// stopQuestion is what /stop asks before it interrupts a running turn;
// "" when it would not interrupt one: no turn runs (it only quits), or
// it refuses (a shared session, the daemon's link down).
func (c *Commands) stopQuestion() string {
	if c.env.Role.Shared() || !c.world.Turn().Running || !c.world.Server().Online {
		return ""
	}
	return "a turn is running: /stop interrupts it and quits — Enter again to confirm, Esc to keep it"
}

// stopBlocked says why /stop can't run: a shared session's viewer does
// not own the turn, and with the daemon's link down it can't be
// interrupted.
func (c *Commands) stopBlocked() string {
	if c.env.Role.Shared() {
		return "/stop is not available in a shared session — esc interrupts, /quit leaves"
	}
	if s := c.world.Server(); c.world.Turn().Running && !s.Online && s.Detached {
		return "/stop needs the link to the daemon to interrupt the turn — wait for the re-attach, or /detach to leave it running"
	}
	return ""
}

// stop is /stop: interrupt the running turn, then leave (act.Stop); with
// no turn running it only leaves.
func (c *Commands) stop(string) {
	if c.world.Turn().Running && c.world.Server().Online {
		c.out().Want(act.Stop{})
		return
	}
	c.out().Want(act.Quit{})
}
