package commands

import (
	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
)

// The notices of a Ctrl+Z that does not suspend, by why.
const (
	// suspendGuest: a guest's program runs inside the host's tandem serve;
	// stopping it would stop the host and every other guest.
	suspendGuest = "not suspended (it would stop the host) — ssh's Enter ~ Ctrl+Z suspends ssh"
	// suspendServe: the host of tandem serve carries the guests' links.
	suspendServe = "not suspended: the guests would freeze — /quit ends the session"
	// suspendNoJobs: no shell with job control would resume tandem.
	suspendNoJobs = "not suspended: no job control (start tandem from an interactive shell)"
)

// Suspend is Ctrl+Z (and an outside SIGTSTP, model.SuspendMsg): Bubble
// Tea's suspend gives the terminal back as it was (cooked, the main
// screen) and stops tandem's process group; fg or SIGCONT restores raw
// mode, the alternate screen and a full redraw. A guest, a viewer of
// tandem serve and a terminal with no job control only get a notice
// saying why not.
func (c *Commands) Suspend() {
	switch {
	case c.env.Role.Guest():
		c.out().Notice(act.NoticeInfo, suspendGuest)
	case c.env.Role.Shared() && !c.opts.Suspend:
		c.out().Notice(act.NoticeInfo, suspendServe)
	case !c.opts.Suspend:
		c.out().Notice(act.NoticeInfo, suspendNoJobs)
	default:
		c.out().Cmd(tea.Suspend)
	}
}
