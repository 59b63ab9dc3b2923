package model

import "time"

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
	// (thread/name/set, or "" when it has none); Cwd where it runs, as
	// the server said.
	ThreadID, Name, Cwd string
	Phase               Phase
	// Failure says why, for PhaseFailed ("" otherwise).
	Failure string
	// Tokens is the thread's total token use so far
	// (thread/tokenUsage/updated), 0 when none was reported.
	Tokens int64
	// LastLine is the newest line the thread showed (an answer's last
	// line, a command), one line, made safe for a terminal.
	LastLine string
	// Turns counts the turns that ended; a program around the model
	// compares it to tell a thread with news.
	Turns int
	// Changed are the paths, as the server named them (absolute), that
	// the thread's fileChange items touched, sorted, each once.
	Changed []string
	// Agents are the thread's sub-agents, oldest first.
	Agents []AgentSummary
	// Created is when the thread was created (the server's createdAt),
	// zero when not known.
	Created time.Time
}

// AgentSummary is one sub-agent of a thread, as a nested row.
type AgentSummary struct {
	ThreadID, Name string
	Phase          Phase
}

// DeckInfo tells a model what the command center around it knows of the
// other threads (internal/deck sends it when that changes): the status
// line counts the other threads that wait for the person, and names Key,
// the key that opens the command center.
type DeckInfo struct {
	// Waiting is how many other threads wait for an answer.
	Waiting int
	// Key is the command center's key as help shows it ("f4").
	Key string
}
