package model

import (
	"slices"
	"time"

	"tandem/model/transcript"
)

// Phase is where a thread stands, as the command center (internal/deck)
// shows it.
type Phase int

const (
	// PhaseStarting: no thread open yet (the session is starting).
	PhaseStarting Phase = iota
	// PhaseIdle: the thread is open and no turn runs.
	PhaseIdle
	// PhaseRunning: a turn runs and nothing waits for the person.
	PhaseRunning
	// PhaseWaiting: an approval, a question or an elicitation of the
	// thread or one of its sub-agents waits for an answer.
	PhaseWaiting
	// PhaseFailed: the last turn failed, or the app-server is gone.
	PhaseFailed
)

// Summary is one thread at a glance (State.Summary): what a row of the
// command center shows. The slices are the model's own.
type Summary struct {
	// ThreadID is the thread's id ("" before it is open); Name its name
	// (the thread/start or thread/resume response, then
	// thread/name/updated; "" when it has none); Cwd where it runs, as
	// the server said (absolute, on the server's machine).
	ThreadID, Name, Cwd string
	// Phase is PhaseFailed when the app-server is gone or could not
	// start, else PhaseWaiting while a request of the thread or a
	// sub-agent waits, PhaseRunning during a turn, PhaseFailed after a
	// failed turn (until the next one), PhaseStarting before a thread is
	// open, else PhaseIdle.
	Phase Phase
	// Failure says why, for PhaseFailed ("" otherwise).
	Failure string
	// Tokens is the thread's total token use so far
	// (thread/tokenUsage/updated), 0 when none was reported.
	Tokens int64
	// LastLine is the newest line the thread showed: the newest answer's
	// last non-empty line (its end after "…" when longer than 200 runes),
	// or "$ " and the newest command's first line; one line, made safe
	// for a terminal.
	LastLine string
	// Turns counts the turns that ended: those of the history read when
	// the thread opened, then each turn/completed (earlier turns read by
	// scrolling up do not count); a program around the model compares it
	// to tell a thread with news.
	Turns int
	// Changed are the paths, as the server named them (absolute), that
	// the fileChange items of the thread and its sub-agents touched,
	// sorted, each once. A slice read once is never changed: a new path
	// makes a new one.
	Changed []string
	// Agents are the thread's sub-agents, oldest first (nil for none).
	Agents []AgentSummary
	// Created is when the thread was created (the server's createdAt),
	// zero when not known.
	Created time.Time
}

// AgentSummary is one sub-agent of a thread, as a nested row: its
// thread id, name (nickname, role or short id) and phase (PhaseWaiting
// while a request of it waits; PhaseRunning, PhaseFailed, else
// PhaseIdle).
type AgentSummary struct {
	ThreadID, Name string
	Phase          Phase
}

// DeckInfo tells a model what the command center around it knows of the
// other threads (internal/deck sends it when that changes): the status
// line counts the other threads that wait for the person, and names Key,
// the key that opens the command center; quitting warns of the threads
// that wait or run, and asks for the quit key again.
type DeckInfo struct {
	// Waiting is how many other threads wait for an answer.
	Waiting int
	// Running is how many other threads have a turn running and do not
	// wait.
	Running int
	// Key is the command center's key as help shows it ("f4").
	Key string
}

// phaseFacts are what a thread's phase is told by: the turn machine's
// (model/turn) and the threads whose requests wait (model/overlay).
type phaseFacts struct {
	Ready, Running, Dead bool
	Failure              string
	Asking               []string
}

// summaryOf makes the Summary of the panes' digest (model/transcript)
// and the phase facts: O(sub-agents + pending requests).
func summaryOf(d transcript.Digest, f phaseFacts) Summary {
	s := Summary{ThreadID: d.ThreadID, Name: d.Name, Cwd: d.Cwd, Tokens: d.Tokens, LastLine: d.LastLine,
		Turns: d.Turns, Changed: d.Changed, Created: d.Created}
	switch {
	case f.Dead:
		s.Phase, s.Failure = PhaseFailed, f.Failure
		if s.Failure == "" {
			s.Failure = "codex app-server is gone"
		}
	case len(f.Asking) > 0:
		s.Phase = PhaseWaiting
	case f.Running:
		s.Phase = PhaseRunning
	case f.Failure != "":
		s.Phase, s.Failure = PhaseFailed, f.Failure
	case !f.Ready || d.ThreadID == "":
		s.Phase = PhaseStarting
	default:
		s.Phase = PhaseIdle
	}
	if len(d.Agents) > 0 {
		s.Agents = make([]AgentSummary, len(d.Agents))
		for i, a := range d.Agents {
			s.Agents[i] = AgentSummary{ThreadID: a.ID, Name: a.Name, Phase: agentPhase(a.Status)}
			if !f.Dead && slices.Contains(f.Asking, a.ID) {
				s.Agents[i].Phase = PhaseWaiting
			}
		}
	}
	return s
}

// agentPhase is the phase of a sub-agent in status (transcript's
// AgentDigest.Status).
func agentPhase(status string) Phase {
	switch status {
	case "running":
		return PhaseRunning
	case "failed":
		return PhaseFailed
	}
	return PhaseIdle
}

// String names the phase as the command center shows it: "starting",
// "idle", "running", "waiting for you", "failed".
func (p Phase) String() string {
	switch p {
	case PhaseStarting:
		return "starting"
	case PhaseIdle:
		return "idle"
	case PhaseRunning:
		return "running"
	case PhaseWaiting:
		return "waiting for you"
	case PhaseFailed:
		return "failed"
	}
	return "unknown"
}

// ShownMsg tells a model whether it is on screen: the command center
// (internal/deck) sends Shown false to a lane it stops drawing and true to
// the one it draws. A model off screen still folds every event; only the
// timers that serve drawing go quiet (frame ticks slow to
// status.UndrawnFrame, the spinner and the cursor's blink stop) until it
// is shown again. A model never told is on screen.
type ShownMsg struct{ Shown bool }
