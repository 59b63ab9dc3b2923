package act

// The slash commands' intents (model/commands): what a command asks of
// the rewind, the overlay and the composer. What it asks of the turn
// machine is the turn's (intents_turn.go: NewThread, Fork, Archive,
// Review, Send, Stop, Restart, SwitchMode, Goal, PickThread), of the
// panes Echo; a command that quits asks for Quit, one that opens a list
// Pick.

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

// CheckAccount reads the account again (`account/read`) and opens the
// login form when one is needed: after /logout (the root, for the
// overlay).
type CheckAccount struct{}

// ClosePopup closes the composer's popup: a command's question takes its
// place (the root, for the composer).
type ClosePopup struct{}

// ReopenPopup shows the composer's popup for the draft again, also after
// an Esc closed it: a refused command names its matches, Tab completes
// (the root, for the composer).
type ReopenPopup struct{}

// RunQueued is a queued line that reads as a slash command, its turn come
// (the turn machine asks; the root hands it to the commands, and to the
// turn machine as a message when it is none): it runs as the command, as
// Codex's TUI runs a queued slash command, never as text for the model.
type RunQueued struct{ Raw string }

// ShowPage shows Markdown full screen in the pager, Title in its footer,
// until Esc closes it: a side question's answer (/side, /recap; the
// root, for the panes). The transcript is not touched.
type ShowPage struct{ Title, Markdown string }
