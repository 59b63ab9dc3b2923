package turn

import (
	"tandem/backend"
	"tandem/model/act"
	"tandem/ui"
)

// SessionReady tells the model the app-server is up and a thread is
// open (model.SessionReadyMsg). Client is how the model talks to it (nil
// for a replay or a watcher, which send nothing); the other fields fill
// the status line; History (from thread/resume) is folded into the
// transcript.
type SessionReady struct {
	Client backend.Client
	// ThreadID is the open thread ("" when not known yet); ThreadName
	// its name and Created its createdAt (Unix seconds), as thread/start
	// or thread/resume gave them ("" and 0 when not known).
	ThreadID   string
	ThreadName string
	Created    int64
	Model      string
	Cwd        string // the workspace as the status line shows it ("~/src/app")
	// ThreadCwd is the thread's workspace as the server gave it (an
	// absolute path on the server's machine); file changes under it are
	// shown relative to it.
	ThreadCwd string
	Approval  string
	Sandbox   string
	Peer      string
	History   []backend.Turn
	// Older is the cursor of the thread's turns before History
	// (backend.ThreadResponse.Older): "" when History is all of it.
	Older string
	// Resume, if set, opens an earlier thread (or the resume picker)
	// instead of the one started; see ResumeRequest.
	Resume *ResumeRequest
	// Durable says the app-server is the daemon on Host, which outlives
	// the link: a lost link is re-attached (reattach.go), and leaving
	// leaves the turn running.
	Durable bool
	Host    string
	// Reattached says this session re-attached to the thread the model
	// shows: History (the whole thread) is merged, not drawn again.
	Reattached bool
	// RestartedBy, in a shared session (tandem serve), names the driver
	// whose F5 or /restart started this app-server and resumed the
	// thread every viewer shows: each viewer's dead session comes back,
	// and says who brought it back.
	RestartedBy string
	// NewThread, with RestartedBy, says the restart could not resume the
	// thread (it had no turn yet, so no rollout) and started a new one.
	NewThread bool
}

// RestartInfo describes a restarted session: the thread resumed with
// `thread/resume` ("" when a new thread was started instead).
type RestartInfo struct {
	ThreadID string
	// NewThread is set when the thread to resume had no turn yet (codex
	// writes a thread's rollout with its first turn, so the new server
	// cannot resume it) and a new thread was started instead: ThreadID
	// is then the new thread's.
	NewThread bool
}

// ResumeRequest asks the model, once the session is ready, to open a
// thread other than a fresh one: ID resumes that thread, Last the
// workspace's last thread, and neither opens the resume picker.
type ResumeRequest struct {
	ID   string
	Last bool
}

// OnReady takes the session: its client, the status line's values, the
// history of a resumed thread, and what waits for it (the command line's
// prompt or resume request). The root asks the overlay for the account
// check.
func (t *Turns) OnReady(msg SessionReady) {
	t.client = msg.Client
	t.ready = true
	t.failure = "" // a server again
	t.out().Clear(act.NoticeStarting, act.NoticeDead, act.NoticeHeld)
	t.model = msg.Model
	t.out().Want(act.Settings{Model: &msg.Model, Cwd: &msg.Cwd, Approval: &msg.Approval, Sandbox: &msg.Sandbox, Peer: &msg.Peer})
	t.out().Want(act.SetThread{ID: msg.ThreadID, Cwd: msg.ThreadCwd, Name: msg.ThreadName, Created: msg.Created}) // a restart keeps the transcript
	t.detach.durable, t.detach.host = msg.Durable, msg.Host
	// How a resume asked for reads: the history about to be drawn counts.
	how := t.resumeHow()
	if len(msg.History) > 0 {
		how.peek = false
	}
	if msg.Reattached {
		t.mergeHistory(msg.History) // reattach.go
	} else {
		t.out().Want(act.LoadHistory{Turns: msg.History, Failures: true})
		if msg.Older != "" {
			t.out().Want(act.BeginOlder{Thread: msg.ThreadID, Cursor: msg.Older})
		}
	}
	if c := t.client; c != nil && !t.codexChecked {
		// One line, never a refusal, for a codex outside the tested range.
		t.codexChecked = true
		if w := backend.UntestedCodex(backend.CodexVersionOf(c.UserAgent())); w != "" {
			t.banner(ui.BannerWarning, w, nil)
		}
	}
	if t.opts.Prompt != "" {
		p := t.opts.Prompt
		t.opts.Prompt = ""
		t.holdPrompt(p) // sent after the login check
	}
	if msg.Resume != nil {
		t.startResume(*msg.Resume, how)
	} else if t.client != nil && t.client.ThreadID() != "" {
		t.rememberThread(t.client.ThreadID())
	}
	t.threadExtras() // goal.go: the goal, the skills
	t.rec.silent = 0
	t.askCheck() // truth.go: a turn/start the old server never answered
	if msg.RestartedBy != "" {
		t.restartedBy(msg) // recovery.go
	}
}
