package backend

import (
	"context"
	"fmt"
	"time"
)

// StartStep is a step of a peer's start, as StartSession waits for the
// answer to `initialize`: over ssh the connection, the remote login
// shell, the app-server's setup, then initialize itself; a local or
// websocket peer is at StepInitialize at once.
type StartStep int

const (
	// StepConnect: ssh connecting and authenticating.
	StepConnect StartStep = iota
	// StepLoginShell: connected; the remote login shell (`bash -lc`, its
	// /etc/profile and ~/.bash_profile) runs before the bootstrap.
	StepLoginShell
	// StepStart: the bootstrap sets up the remote workspace and the
	// per-run CODEX_HOME and looks up codex.
	StepStart
	// StepInitialize: codex app-server started; its answer to
	// `initialize` is awaited.
	StepInitialize
)

// LoginShellPatience is how long a remote login shell may take before
// StartSession gives up on it: a slow profile (nvm, conda, a network
// mount) is a human-scale wait, not a dead link.
const LoginShellPatience = 5 * time.Minute

// startStepper is implemented by a Stream whose peer reports the steps of
// its start (sshStream): Step returns the step under way and a channel
// closed when it ends.
type startStepper interface {
	Step() (StartStep, <-chan struct{})
}

// StartTimeout is a start step that did not finish in time: Peer names
// the peer ("ssh dev"; "" for a local one), Limit is the wait it had, and
// Detail the peer's last stderr line, if any.
type StartTimeout struct {
	Peer   string
	Step   StartStep
	Limit  time.Duration
	Detail string
}

// Error implements error, naming the step that did not answer.
func (e *StartTimeout) Error() string {
	var s string
	switch e.Step {
	case StepConnect:
		s = fmt.Sprintf("ssh did not connect within %s (step 1 of 4: ssh connect)", e.Limit)
	case StepLoginShell:
		s = fmt.Sprintf("connected, but the remote login shell did not finish within %s (step 2 of 4: bash -lc, its /etc/profile and ~/.bash_profile)", e.Limit)
	case StepStart:
		s = fmt.Sprintf("codex app-server did not start within %s (step 3 of 4: the remote workspace and CODEX_HOME)", e.Limit)
	default:
		s = fmt.Sprintf("codex app-server did not answer initialize within %s", e.Limit)
		if e.Peer != "" {
			s += " (step 4 of 4: initialize)"
		}
	}
	if e.Peer != "" {
		s = e.Peer + ": " + s
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// watchStart cancels ctx with a *StartTimeout when a step of stream's
// start outlasts its wait — login for StepLoginShell, limit for the
// others, each starting when its step does; it returns when ctx ends. A
// stream that reports no steps is at StepInitialize.
func watchStart(ctx context.Context, cancel context.CancelCauseFunc, stream Stream, limit, login time.Duration) {
	stepper, _ := stream.(startStepper)
	peer := ""
	if stepper != nil {
		peer = stream.Describe()
	}
	for {
		step, next := StepInitialize, (<-chan struct{})(nil)
		if stepper != nil {
			step, next = stepper.Step()
		}
		wait := limit
		if step == StepLoginShell {
			wait = login
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-next:
			timer.Stop()
		case <-timer.C:
			detail := ""
			if tail := stream.StderrTail(1); len(tail) > 0 {
				detail = tail[0]
			}
			cancel(&StartTimeout{Peer: peer, Step: step, Limit: wait, Detail: detail})
			return
		}
	}
}
