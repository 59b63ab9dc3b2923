package backend

// The server's queue of a thread (`thread/queue/*`, experimental; codex
// 0.169.0 and 0.171.0 behave alike): messages waiting to run as the
// thread's next turns, kept by the server in its thread store, so they
// outlive the client that queued them (`codex queue`, `tandem queue`).
// Observed against the real app-server (docs/AGENTS.md, "Queue from
// outside"):
//
//   - `thread/queue/add` needs no loaded thread: any stored thread takes
//     it (an unknown id is -32603 "no rollout found for thread id …").
//   - The thread loaded and idle (on this app-server, or on another one
//     sharing the CODEX_HOME): the message runs at once; the add's
//     answer comes after the turn started.
//   - A turn running: the message runs as the next turn when it ends.
//   - Loaded nowhere: it waits in the store and runs when the thread is
//     next resumed (`thread/resume` starts it).
//   - `thread/queue/changed` (the thread id only) is sent to the
//     connections that have the thread loaded when its queue gains or
//     loses a message; the queue itself is read with `thread/queue/list`.
//   - The turn it runs is an ordinary one: turn/started, a userMessage
//     item whose clientId is the ClientUserMessageID, the answer.

// ThreadQueueAddParams are the params of `thread/queue/add`: Input is
// queued on ThreadID; ClientUserMessageID (required) comes back as the
// userMessage item's clientId when it runs.
type ThreadQueueAddParams struct {
	ThreadID            string      `json:"threadId"`
	ClientUserMessageID string      `json:"clientUserMessageId"`
	Input               []UserInput `json:"input"`
}

// ThreadQueueAddResponse is the result of `thread/queue/add`.
type ThreadQueueAddResponse struct {
	Queued QueuedSubmission `json:"queuedSubmission"`
}

// QueuedSubmission is the protocol's `QueuedSubmission`: one message in a
// thread's queue, ID the server's (thread/queue/delete takes it).
type QueuedSubmission struct {
	ID                  string      `json:"id"`
	ClientUserMessageID string      `json:"clientUserMessageId"`
	Input               []UserInput `json:"input"`
}

// Text is the submission's text inputs joined by newlines (its images
// and other inputs are left out).
func (q QueuedSubmission) Text() string {
	var out string
	for _, in := range q.Input {
		if in.Type != "text" {
			continue
		}
		if out != "" {
			out += "\n"
		}
		out += in.Text
	}
	return out
}

// ThreadQueueListParams are the params of `thread/queue/list`: one page
// (Limit 0: the server's page size) after Cursor ("" for the first).
type ThreadQueueListParams struct {
	ThreadID string `json:"threadId"`
	Cursor   string `json:"cursor,omitempty"`
	Limit    int    `json:"limit,omitempty"`
}

// ThreadQueueListResponse is the result of `thread/queue/list`: the
// queue, next to run first; NextCursor nil on the last page.
type ThreadQueueListResponse struct {
	Data       []QueuedSubmission `json:"data"`
	NextCursor *string            `json:"nextCursor"`
}

// ThreadQueueDeleteParams are the params of `thread/queue/delete`.
type ThreadQueueDeleteParams struct {
	ThreadID string `json:"threadId"`
	ID       string `json:"queuedSubmissionId"`
}

// ThreadQueueDeleteResponse is the result of `thread/queue/delete`:
// Deleted false when the message had already left the queue (it ran).
type ThreadQueueDeleteResponse struct {
	Deleted bool `json:"deleted"`
}

// ThreadQueueChangedEvent follows `thread/queue/changed`: ThreadID's
// server queue gained or lost a message (another client queued one, or
// one started as a turn). It carries no content: read it with
// Session.ListQueue (`thread/queue/list`).
type ThreadQueueChangedEvent struct {
	ThreadID string `json:"threadId"`
}

// Thread implements Event.
func (e ThreadQueueChangedEvent) Thread() string { return e.ThreadID }
