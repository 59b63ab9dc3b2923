package act

import "tandem/backend"

// The rewind's intents (model/rewind): the choices of its pickers, which
// come back to it, and what it asks of the turn machine.

// RewindPicked is the message chosen in the rewind picker (model/rewind):
// Turn is its turn's index among the turns the picker was opened with.
type RewindPicked struct{ Turn int }

// RewindChosen is how to rewind, chosen in the rewind's second picker
// (model/rewind): Code takes back the agent's file changes too.
type RewindChosen struct{ Code bool }

// Rewinding says a rewind's call started (On) or came back (the root,
// for the turn machine): while it runs, a prompt waits as it does while a
// thread is being opened.
type Rewinding struct{ On bool }

// OpenRewound switches to Response, the fork a rewind made of the thread
// cut before turn Before (the root, for the turn machine): the
// transcript is the fork's, marked as a rewind to that turn's message
// (model/rewind's Rewind.Note).
type OpenRewound struct {
	Response backend.ThreadResponse
	Before   string
}

// SendEdited starts a turn with Text, the edited message of a rewind just
// done (the root, for the turn machine: `turn/start`, the message drawn).
type SendEdited struct{ Text string }
