package model

import (
	"time"

	"tandem/backend"
	"tandem/model/status"
	"tandem/model/turn"
)

// SessionReadyMsg tells the model the app-server is up and a thread is
// open (turn.SessionReady: Client is how the model talks to it, nil for
// a replay or a watcher; the other fields fill the status line; History,
// from thread/resume, is folded into the transcript).
type SessionReadyMsg = turn.SessionReady

// SessionFailedMsg tells the model the app-server could not be started;
// Err is shown as a banner and the composer stays usable for /quit.
type SessionFailedMsg struct {
	Err error
	// What is what could not start ("" : "codex app-server"; the
	// command center's new thread: "the thread").
	What string
}

// InfoMsg shows Text as an info banner in this viewer's transcript only
// (e.g. how guests join, for the host of `tandem serve --attach`).
type InfoMsg struct{ Text string }

// SuspendMsg asks the model to suspend tandem as Ctrl+Z does: the chat
// sends it for a SIGTSTP from outside (kill -TSTP), so the terminal is
// given back sane and fg redraws. A model that may not suspend
// (Options.Suspend unset, a viewer of tandem serve) says why instead.
type SuspendMsg struct{}

// PeerMsg replaces the peer part of the status line with Peer (the
// replay's "replay playing at 2× · space pause …").
type PeerMsg struct{ Peer string }

// RestartInfo describes a restarted session (turn.RestartInfo): the
// thread resumed with `thread/resume` ("" when a new thread was started
// instead).
type RestartInfo = turn.RestartInfo

// ResumeRequest asks the model, once the session is ready, to open a
// thread other than a fresh one (turn.ResumeRequest): ID resumes that
// thread, Last the workspace's last thread, and neither opens the resume
// picker.
type ResumeRequest = turn.ResumeRequest

// The messages below are what the model's commands come back with.

// DefaultFrame is how often a running turn's frame is drawn
// (status.DefaultFrame: 30 a second).
const DefaultFrame = status.DefaultFrame

// FrameRateMsg sets how often this viewer draws a running turn's frame
// (0: DefaultFrame). The pairing server slows its watchers down as more
// of them join, so that together they leave the app-server its pace
// (#17). Seq orders the messages: one older than the last applied is
// dropped.
type FrameRateMsg struct {
	Every time.Duration
	Seq   int
}

// ThreadOpenedMsg switches the viewer to another thread, as the recorded
// client did (a replay): Response is the server's answer to thread/start,
// /resume or /fork, How "new", "resumed", "forked" or "rewound" (a fork
// cut before BeforeTurn, drawn as a rewind to that turn's message).
type ThreadOpenedMsg struct {
	Response   backend.ThreadResponse
	How        string
	BeforeTurn string
}

// FrameMsg is a frame tick without a clock: streamed text waiting for the
// next frame is drawn and the spinner of a running turn moves one step;
// nothing else changes. A driver that plays events in virtual time and
// runs none of the model's commands (the picture exporter) sends it where
// the ticks of a live turn would have come.
type FrameMsg struct{}
