package act

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/ui"
)

// The turn machine's intents (model/turn): what others ask of it — the
// slash commands' work on the turn and the thread, a prompt to send, a
// thread another component opened — and what it asks of the panes, the
// status line, the composer, the overlay, a rewind and the root.

// Asked of the turn machine (the root routes them to model/turn).

// NewThread starts a new thread: /new (turn).
type NewThread struct{}

// Fork forks the open thread into a new one: /fork (turn).
type Fork struct{}

// Archive archives the open thread and starts a new one: /archive
// (turn).
type Archive struct{}

// Review starts a review of the uncommitted changes as a turn: /review
// (turn).
type Review struct{}

// Restart restarts the app-server and resumes the thread, or re-attaches
// a durable session at once: F5 and /restart (turn).
type Restart struct{}

// Stop interrupts the running turn, then leaves (act.Quit) once it is
// interrupted: /stop's work (turn).
type Stop struct{}

// SwitchMode switches the collaboration mode of the next turns: to the
// next preset (Shift+Tab), or with Plan plan mode on or off again (/plan)
// (turn).
type SwitchMode struct{ Plan bool }

// Goal is /goal on the open thread: Action is GoalShow, GoalSet (with
// Objective) or GoalClear (turn).
type Goal struct{ Action, Objective string }

// Send starts a turn with Text now, drawn as Shown ("" draws Text): /init
// (Codex's prompt, drawn "/init"), or a rewind's edited message (turn).
type Send struct{ Shown, Text string }

// FlushQueue sends the next queued prompt if a turn may start now: after
// a queued command ran (turn).
type FlushQueue struct{}

// Switching says a thread is being opened by another component (a
// rewind's fork): while On, turns and thread commands wait (turn).
type Switching struct{ On bool }

// OpenThread makes Response's thread the open one, as How opened it
// (HowRewound: a rewind's fork, Note its banner; or a replay's HowNew,
// HowResumed, HowForked): its history replaces the transcript (turn).
type OpenThread struct {
	Response backend.ThreadResponse
	How      string
	From     string
	Note     string
}

// Unfinished is the choice for Thread, whose rollout has tool calls that
// never got an output: Do is "fork", "new" or "resume" (turn).
type Unfinished struct{ Thread, Do string }

// Asked of the panes (model/transcript).

// Echo adds Cell, a cell of this viewer's own (the user's prompt as
// sent), to the thread's pane and follows its bottom (panes).
type Echo struct{ Cell ui.Cell }

// ClearHeader drops the running turn's header (its plan step): the turn
// ended (panes).
type ClearHeader struct{}

// MarkGaps marks the messages streaming when the link to the daemon
// dropped (panes).
type MarkGaps struct{}

// EndGaps marks the messages a drop cut as cut for good: the turn they
// were in has ended (panes).
type EndGaps struct{}

// MergeHistory folds a re-attach's history, Turns, into the thread's
// pane: items shown are completed in place, the others added, but for
// Dropped's user messages unless Shared (panes).
type MergeHistory struct {
	Turns   []backend.Turn
	Dropped string
	Shared  bool
}

// LoadHistory draws a thread's history, Turns, in the thread's pane;
// with Failures a turn that failed says so (panes).
type LoadHistory struct {
	Turns    []backend.Turn
	Failures bool
}

// BeginOlder follows Thread's earlier turns from Cursor (none when "")
// (panes).
type BeginOlder struct{ Thread, Cursor string }

// SetThread names the open thread ID (kept when "") and its workspace on
// the server, Cwd (kept when ""); Name is its name and Created its
// createdAt (Unix seconds), as thread/start or thread/resume said ("" and
// 0 keep what is known) (panes).
type SetThread struct {
	ID, Cwd, Name string
	Created       int64
}

// SwitchPane replaces the thread's pane by Thread's, empty, with its
// workspace Cwd: How says how it opened, From the thread a fork was made
// of, Running whether a turn ran in the thread left (its last cells are
// printed with --no-alt-screen) (panes).
type SwitchPane struct {
	How, From, Cwd string
	Thread         backend.Thread
	Running        bool
}

// Opened says the switched-to thread's history is drawn; How and From as
// in SwitchPane (panes).
type Opened struct{ How, From string }

// ForgetPeek drops the newest turns drawn of a thread that did not open
// (panes).
type ForgetPeek struct{}

// ReadEarlier reads what a resumed Thread had before: its sub-agents,
// and its earlier turns when its top is in view (panes).
type ReadEarlier struct{ Thread string }

// Asked of the status line (model/status) with the root.

// TurnEnded says this viewer's turn ended as Turn says after Took: the
// title and a notification (the root, for status).
type TurnEnded struct {
	Turn backend.Turn
	Took time.Duration
}

// Asked of the composer (model/composer).

// FetchSkills lists the workspace's skills again for the $ popup (Force:
// scanned again) (composer).
type FetchSkills struct{ Force bool }

// PrunePastes drops the pastes no draft, queued prompt or history entry
// holds any more (composer).
type PrunePastes struct{}

// Asked of the overlay (model/overlay).

// DropRequests drops the server requests shown, unanswered: the server
// that asked is gone, or the daemon asks again once re-attached
// (overlay).
type DropRequests struct{}

// RefuseRequests refuses every server request waiting for an answer,
// never accepting one, and then runs Then (nil: nothing), whose messages
// come after the refusals: the interrupt or the restart that follows
// them (the root, for the overlay).
type RefuseRequests struct{ Then tea.Cmd }

// PickThread opens the resume picker: Fresh when no thread is open yet
// (Esc then starts one), Durable for a session on the daemon (overlay).
type PickThread struct{ Fresh, Durable bool }

// Asked of a rewind (model/rewind).

// RunRewind sends Text (Hist, as the history keeps it) after the pending
// rewind: fork, take the code back when chosen, then send (rewind).
type RunRewind struct{ Text, Hist string }

// DropRewind drops a pending rewind: the thread it was chosen in was
// left (rewind).
type DropRewind struct{}

// Asked of the root.

// StartFrames starts the frame ticks and the spinner of a running turn
// (the root).
type StartFrames struct{}

// EndOpen ends the open commands, file changes and tool calls (running,
// or waiting for their approval) with Status (thread.StatusInterrupted,
// thread.StatusUnknown) so none reads "running" once nothing can complete
// it: of Turn ("" every turn), or with All of every pane, the
// sub-agents' too (the app-server went away) (panes).
type EndOpen struct {
	Turn, Status string
	All          bool
}
