package act

import (
	"tandem/backend"
	"tandem/ui"
)

// The slash commands' intents (model/commands): what a command asks of
// the turn machine, the rewind, the overlay, the panes and the composer.
// (A command that quits asks for Quit; one that opens a list, Pick.)

// NewThread starts a new thread (`thread/start`): /new (the root, for
// the turn machine: turns wait while it opens).
type NewThread struct{}

// ForkThread forks the open thread into a new one (`thread/fork`): /fork
// (the root, for the turn machine).
type ForkThread struct{}

// ArchiveThread archives the open thread (`thread/archive`) and starts a
// new one: /archive (the root, for the turn machine).
type ArchiveThread struct{}

// StartReview runs a review of the uncommitted changes
// (`review/start`) as a turn: /review (the root, for the turn machine).
type StartReview struct{}

// SendPrompt sends Text as a turn, the transcript showing Shown for it:
// /init sends Codex's /init prompt (the root, for the turn machine).
type SendPrompt struct{ Shown, Text string }

// Stop interrupts the running turn (`turn/interrupt`), then quits once
// it is interrupted; a failed interrupt stays: /stop, confirmed (the
// root, for the turn machine).
type Stop struct{}

// Restart restarts the app-server and resumes the thread: /restart (the
// root, for the recovery).
type Restart struct{}

// SetGoal makes Goal the thread's goal (nil: none), as an answer to /goal
// gave it (the root, for the turn machine: the goal it keeps and the
// status line shows).
type SetGoal struct{ Goal *backend.ThreadGoal }

// TogglePlan turns plan mode on, or off again: /plan (the root, for the
// turn machine's collaboration modes).
type TogglePlan struct{}

// Undo offers to take back the last turn and its file changes: /undo
// (the root, for the rewind; model/commands asked World.UndoBlocked
// first).
type Undo struct{}

// PickModel opens /model's picker, Current marked (the root, for the
// overlay).
type PickModel struct{ Current string }

// PickPolicy opens /approvals' picker, the approval policy and sandbox
// in force marked (the root, for the overlay).
type PickPolicy struct{ Approval, Sandbox string }

// PickThread opens the resume picker: /resume (the root, for the overlay:
// a durable session lists the daemon's threads).
type PickThread struct{}

// CheckAccount reads the account again (`account/read`) and opens the
// login form when one is needed: after /logout (the root, for the
// overlay).
type CheckAccount struct{}

// Echo adds Cell, this viewer's own, to the session thread's transcript
// and follows it: /diff's diff (panes).
type Echo struct{ Cell ui.Cell }

// ClosePopup closes the composer's popup: a command's question takes its
// place (the root, for the composer).
type ClosePopup struct{}

// ReopenPopup shows the composer's popup for the draft again, also after
// an Esc closed it: a refused command names its matches, Tab completes
// (the root, for the composer).
type ReopenPopup struct{}
