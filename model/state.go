package model

import (
	"tandem/backend"
	"tandem/ui"
)

// State is what a program around the model (internal/cli, internal/pair,
// the e2e harness) and the tests read of it: a snapshot, copied when
// State is called; the slices are the model's own and must not be
// changed.
type State struct {
	// Pending are the server requests still waiting for an answer, the
	// shown one first; the program refuses them before it exits.
	Pending []backend.ServerRequest
	// Watched are what a watcher (Options.ReadOnly) knows of the
	// requests that wait for a driver's answer, in arrival order: they
	// cannot be answered here.
	Watched []backend.RequestView
	// Running: a turn is in progress.
	Running bool
	// Composer is the composer's text, large pastes expanded (what Enter
	// would send); Pasting: keys that read as a paste typed without
	// bracketed paste are being held (model/composer).
	Composer string
	Pasting  bool
	// Cells are the session thread's transcript cells.
	Cells []ui.Cell
	// Queued are the prompts queued for the next turns (Tab while a
	// turn runs), first to be sent first.
	Queued []string
	// TurnOptions are the overrides /model and /approvals set for the
	// next turns.
	TurnOptions backend.TurnOptions
	// LastDiff is the thread's last `turn/diff/updated` diff ("" when
	// none came yet): what /diff shows.
	LastDiff string
	// ServerDead: the app-server exited and was not restarted.
	ServerDead bool
	// LoginOpen: the login form is shown; PagerOpen: the transcript
	// pager; MouseReleased: mouse capture is off (terminal selection
	// works).
	LoginOpen, PagerOpen, MouseReleased bool
	// Durable: the session is on the codex daemon (it outlives tandem:
	// quitting leaves its turn running and its requests waiting); Host
	// the machine the daemon runs on ("" when not known); Detached: the
	// link to the daemon is down.
	Durable  bool
	Host     string
	Detached bool
	// Summary is the thread at a glance, for the command center: kept as
	// the events fold, so it costs O(sub-agents + pending requests).
	Summary Summary
}

// State returns the model's state as a program around it reads it.
func (m *Model) State() State {
	return State{
		Pending: m.overlay.Requests(), Watched: m.overlay.Watched(), Running: m.turn.Running(),
		Composer: m.composer.Text(), Pasting: m.composer.Pasting(),
		Cells: m.panes.Cells(), Queued: m.turn.Queued(), TurnOptions: m.turn.TurnOptions(),
		LastDiff: m.panes.Thread().Diff, ServerDead: m.turn.Dead(),
		LoginOpen: m.overlay.LoginOpen(), PagerOpen: m.panes.PagerOpen(), MouseReleased: m.panes.MouseReleased(),
		Durable: m.turn.Durable(), Host: m.turn.Host(), Detached: m.turn.Detached(),
		Summary: summaryOf(m.panes.Digest(), phaseFacts{Ready: m.turn.Ready(), Running: m.turn.Running(),
			Dead: m.turn.Dead(), Failure: m.turn.Failure(), Asking: m.overlay.Asking()}),
	}
}

// live reports a session as it happens, not a replay or an export (a
// shared model with no client): only a live one notifies (model/status).
func (m *Model) live() bool { return m.turn.Client() != nil || !m.env.Role.Shared() }
