package backend

import (
	"bytes"
	"strings"
)

// How an ssh start goes: its steps (StartStep, startsteps.go), as the
// peer reports them on stdout before the app-server's first message, and
// what an exit 255 of ssh was.

// stepMarker starts the lines that say a step of the start has begun
// (StartStep): "tandem-step login-shell" from ssh's LocalCommand once
// connected, "tandem-step start" from the bootstrap's first line,
// "tandem-step initialize" as it starts codex. They come before the
// app-server's first message and are not noise.
const stepMarker = "tandem-step "

// stepsByMarker are the steps the markers begin.
var stepsByMarker = map[string]StartStep{"login-shell": StepLoginShell, "start": StepStart, "initialize": StepInitialize}

// markerStep reads a step marker line: the step it begins, ok false for
// any other line.
func markerStep(line []byte) (StartStep, bool) {
	name, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte(stepMarker))
	if !ok {
		return 0, false
	}
	step, ok := stepsByMarker[string(name)]
	return step, ok
}

// Step implements startStepper: the step of the start under way, and a
// channel closed when it ends.
func (s *sshStream) Step() (StartStep, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stepDone == nil {
		s.stepDone = make(chan struct{})
	}
	return s.step, s.stepDone
}

// reach moves the start on to step (never back); s.mu is held.
func (s *sshStream) reach(step StartStep) {
	if step <= s.step {
		return
	}
	s.step = step
	if s.stepDone != nil {
		close(s.stepDone)
	}
	s.stepDone = make(chan struct{})
}

// sshFailure names what an ssh exit 255 most likely was, from its stderr
// and whether ssh had connected (a step marker or the app-server's
// first message came).
func sshFailure(stderr []string, connected bool) string {
	all := strings.ToLower(strings.Join(stderr, "\n"))
	switch {
	case strings.Contains(all, "permission denied") || strings.Contains(all, "authentication"):
		return "authentication failed (exit 255; check the key, the agent or --ssh-option)"
	case strings.Contains(all, "host key verification failed") || strings.Contains(all, "remote host identification has changed"):
		return "host key verification failed (exit 255; check known_hosts)"
	case strings.Contains(all, "could not resolve"):
		return "unknown host (exit 255)"
	case connected:
		return "connection lost (exit 255)"
	}
	return "could not connect (exit 255)"
}
