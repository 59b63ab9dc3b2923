package act

import "tandem/backend"

// The overlay's intents (model/overlay): a picker's choice, the login
// form's outcome, and what a waiting request asks of the screen.

// SetModel makes Model, with reasoning Effort ("" for the model's
// default), the model of the next turns: /model's choice (the root, for
// the turn machine).
type SetModel struct{ Model, Effort string }

// SetPolicy makes Approval and Sandbox the approval policy and sandbox
// of the next turns: /approvals' choice (the root, for the turn
// machine).
type SetPolicy struct{ Approval, Sandbox string }

// ResumeThread opens Thread, chosen in the resume picker (the root, for
// the turn machine: thread/resume).
type ResumeThread struct{ Thread backend.Thread }

// ResumeCancelled says the resume picker closed without a choice (the
// root, for the turn machine): Fresh, when no thread was open yet, starts
// a new one.
type ResumeCancelled struct{ Fresh bool }

// ShowAgent shows sub-agent ID's pane, chosen in the /agents picker
// (panes).
type ShowAgent struct{ ID string }

// LoginAsked says the login form opened: a prompt held for the login
// check waits for it (the root, for the turn machine).
type LoginAsked struct{}

// LoginChecked says the login check is over — no login was needed, the
// user logged in, or skipped it (the root, for the turn machine): a
// prompt held for it may go.
type LoginChecked struct{}

// Quit leaves the program (the root): Ctrl+C in the login form; /quit,
// /detach, and /stop with no turn to interrupt (model/commands).
type Quit struct{}

// RequestNotify notifies the user that a request waits, Summary saying
// what it wants (the root, for status, which knows whether the session
// is live).
type RequestNotify struct{ Summary string }

// Follow keeps the shown pane at its newest line (panes): a form takes
// the rows below it.
type Follow struct{}
