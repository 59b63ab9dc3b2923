package model

import (
	"context"
	"time"

	"tandem/backend"
)

// Driver is what the model asks of the backend: start and interrupt turns.
// *backend.Session implements it; tests and replays supply their own.
type Driver interface {
	StartTurn(ctx context.Context, text string) (backend.Turn, error)
	Interrupt(ctx context.Context) error
}

// SessionReadyMsg tells the model the app-server is up and a thread is
// open. Info fills the status line; History (from thread/resume) is folded
// into the transcript.
type SessionReadyMsg struct {
	Driver Driver
	Model  string
	Cwd    string // the workspace as the status line shows it ("~/src/app")
	// ThreadCwd is the thread's workspace as the server gave it (an
	// absolute path on the server's machine); file changes under it are
	// shown relative to it.
	ThreadCwd string
	Approval  string
	Sandbox   string
	Peer      string
	History   []backend.Turn
	// Resume, if set, opens an earlier thread (or the resume picker)
	// instead of the one started; see ResumeRequest.
	Resume *ResumeRequest
}

// SessionFailedMsg tells the model the app-server could not be started;
// Err is shown as a banner and the composer stays usable for /quit.
type SessionFailedMsg struct{ Err error }

type turnStartResult struct {
	text string
	err  error
}

type interruptResult struct{ err error }

type tickMsg struct{ seq int }

// formFocusMsg gives form seq the keyboard at once, without the checks of
// formCheckMsg (grace.go); tests use it to skip the grace period.
type formFocusMsg struct{ seq int }

// idleCheckMsg fires idleGrace after the thread went idle while a turn
// was running; if turn/completed still hasn't come, the turn is ended.
type idleCheckMsg struct{ seq int }

const idleGrace = 3 * time.Second
