package turn

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/sessions"
	"tandem/ui"
)

// Opening threads: a new one (/new, /archive), a resume (the command
// line's, the resume picker's, the workspace's last thread), a fork, or
// one another component opened (a rewind's fork, a replay's switch).

// InlineHistory is how many turns a thread resumed under --no-alt-screen
// is printed with: nothing can be put above what the terminal's
// scrollback holds, so its earlier turns are read before it is drawn.
const InlineHistory = 1000

// resumeHow is what a resume reads besides the thread's newest page:
// fill is how many turns to read before it is drawn (act.Resume), peek
// whether to draw the newest page while it runs (act.PeekTurns).
type resumeHow struct {
	fill int
	peek bool
}

// resumeHow is how to resume now. Under --no-alt-screen nothing can go
// above the scrollback: InlineHistory turns are read first, and nothing
// is drawn before. Otherwise the newest page is drawn at once, when
// nothing else is on screen yet (`tandem resume`).
func (t *Turns) resumeHow() resumeHow {
	if t.w.Inline() { // the inline terminal, whether or not the pager is up
		return resumeHow{fill: InlineHistory}
	}
	return resumeHow{peek: t.w.EmptyTranscript()}
}

// scannedMsg carries the tool calls without output found in the rollout
// of thread, about to be resumed.
type scannedMsg struct {
	thread  backend.Thread
	pending []sessions.PendingCall
}

func (scannedMsg) turnMsg() {}

// lastThreadMsg carries the workspace's last thread as the state file
// remembers it ("" none).
type lastThreadMsg struct{ id string }

func (lastThreadMsg) turnMsg() {}

// startThread starts a fresh thread (/new).
func (t *Turns) startThread() {
	if t.client == nil {
		return
	}
	t.t.switching = true
	t.out().Call(act.ToTurn, act.StartThread{})
}

// resume resumes thread th, as how says: it first scans th's rollout for
// tool calls without output (then asks the user instead), and falls back
// to a new thread — once, never retrying — when the resume fails.
func (t *Turns) resume(th backend.Thread, how resumeHow) {
	if t.client == nil {
		t.abandonSwitch()
		return
	}
	if how.peek {
		t.out().Call(act.ToPanes, act.PeekTurns{ID: th.ID}) // drawn while the resume runs
	}
	if th.Path == nil || *th.Path == "" || th.Status == nil {
		t.out().Call(act.ToTurn, act.ReadThreadInfo{Thread: th})
		return
	}
	t.scan(th)
}

// scan reads th's rollout for tool calls without output, in a command;
// a thread whose turn runs on the server (the daemon) has its tool calls
// in flight there: nothing to warn about, it is resumed at once.
func (t *Turns) scan(th backend.Thread) {
	if th.Path == nil || *th.Path == "" || th.Active() {
		t.resumeNow(th.ID)
		return
	}
	path := *th.Path
	t.out().Cmd(func() tea.Msg {
		pending, err := sessions.UnfinishedToolCalls(path)
		if err != nil {
			pending = nil
		}
		return scannedMsg{thread: th, pending: pending}
	})
}

func (t *Turns) onScanned(msg scannedMsg) {
	if len(msg.pending) > 0 {
		t.onResumeCheck(msg)
		return
	}
	t.resumeNow(msg.thread.ID)
}

// resumeNow resumes thread id (act.Resume).
func (t *Turns) resumeNow(id string) {
	if t.client == nil {
		t.abandonSwitch()
		return
	}
	// A thread open (a /resume or /search choice) stays open when the
	// chosen one can't be resumed (gone since it was listed).
	t.out().Call(act.ToTurn, act.Resume{ID: id, Fill: t.resumeHow().fill, Stay: t.client.ThreadID() != ""})
}

// abandonSwitch gives up opening a thread: the server went away
// meanwhile (its death says so).
func (t *Turns) abandonSwitch() {
	t.t.switching = false
	t.out().Clear(act.NoticeOpening)
}

// resumeLast resumes the workspace's last thread: the one remembered in
// the state file if this server knows it, else the most recently
// updated one of the workspace (act.FindLastThread).
func (t *Turns) resumeLast() {
	state, ws := t.opts.State, t.opts.Workspace
	t.out().Cmd(func() tea.Msg {
		id := ""
		if state != nil {
			id = state.LastThread(ws)
		}
		return lastThreadMsg{id: id}
	})
}

func (t *Turns) onLastThreadID(msg lastThreadMsg) {
	if t.client == nil {
		t.abandonSwitch()
		return
	}
	t.out().Call(act.ToTurn, act.FindLastThread{ID: msg.id, Cwd: t.opts.Workspace})
}

// resumeCancelled follows the resume picker closed without a choice:
// fresh, when no thread was open yet, starts a new one.
func (t *Turns) resumeCancelled(fresh bool) {
	if !fresh {
		t.t.switching = false
		t.out().Clear(act.NoticeHeld)
		return
	}
	t.startThread()
}

// onThreadSwitched replaces the transcript with the new thread's
// history; note is a rewind's banner (act.HowRewound).
func (t *Turns) onThreadSwitched(msg act.ThreadSwitched, note string) {
	t.t.switching = false
	t.out().Clear(act.NoticeHeld, act.NoticeOpening) // "opening a thread — your message stays here"
	if msg.Err != nil {
		t.t.seek = ""                  // seek.go: /search's turn, of a thread that did not open
		t.out().Want(act.ForgetPeek{}) // the newest turns of a thread that did not open
		if msg.Notice != "" {
			t.banner(ui.BannerWarning, msg.Notice, nil)
		}
		t.banner(ui.BannerError, "could not open a thread: "+act.OneLine(msg.Err), nil)
		return
	}
	if msg.How != act.HowRewound {
		t.out().Want(act.DropRewind{}) // a rewind is of the thread it was chosen in
	}
	t.failure = "" // another thread
	r := msg.Response
	// The old thread's last cells and a separator; the sub-agents are the
	// old thread's; the turns before the page.
	t.out().Want(act.SwitchPane{How: msg.How, From: msg.From, Cwd: r.Cwd, Thread: r.Thread, Running: t.t.running})
	t.out().Want(act.BeginOlder{Thread: r.Thread.ID, Cursor: r.Older})
	t.clearTurn()
	model := r.Model
	set := act.Settings{Approval: act.Str(backend.PolicyString(r.ApprovalPolicy)), Sandbox: act.Str(r.Sandbox.Mode())}
	if r.Cwd != "" {
		set.Cwd = act.Str(ui.ShortHome(r.Cwd))
	}
	// Choices made with /model and /approvals apply to the next turns of
	// whatever thread is open: the status line keeps showing them.
	if o := t.t.overrides; o.Model != "" {
		model = o.Model
	}
	if o := t.t.overrides; o.ApprovalPolicy != "" {
		set.Approval, set.Sandbox = act.Str(o.ApprovalPolicy), act.Str(o.Sandbox)
	}
	t.model, set.Model = model, act.Str(model)
	t.out().Want(set)
	t.t.effort = ""
	if r.ReasoningEffort != nil {
		t.t.effort = *r.ReasoningEffort
	}
	if msg.Notice != "" {
		t.banner(ui.BannerWarning, msg.Notice, nil)
	}
	t.out().Want(act.LoadHistory{Turns: r.Thread.Turns})
	t.seekOpened(msg.How)                                  // seek.go: /search's turn
	t.out().Want(act.Opened{How: msg.How, From: msg.From}) // a rewind's or fork's history is printed already
	title := r.Thread.Preview
	if r.Thread.Name != nil && *r.Thread.Name != "" {
		title = *r.Thread.Name
	}
	switch msg.How {
	case act.HowResumed:
		t.banner(ui.BannerInfo, fmt.Sprintf("Resumed thread %s %s", act.ShortID(r.Thread.ID), act.QuoteTitle(title)), nil)
		if w := whereResumed(r.Elsewhere); w != "" {
			t.banner(ui.BannerInfo, w, nil)
		}
	case act.HowForked:
		t.banner(ui.BannerInfo, fmt.Sprintf("Forked into thread %s %s", act.ShortID(r.Thread.ID), act.QuoteTitle(title)), nil)
	case act.HowRewound:
		if note == "" {
			note = "Rewound to an earlier message (a fork of the thread)"
		}
		t.banner(ui.BannerInfo, note, nil)
	case act.HowNew:
		if msg.Notice == "" { // a notice already says why there is a new thread
			t.banner(ui.BannerInfo, "New thread "+act.ShortID(r.Thread.ID), nil)
		}
	}
	t.rememberThread(r.Thread.ID)
	t.threadExtras() // goal.go: its goal, its workspace's skills
	if msg.How == act.HowResumed {
		t.out().Want(act.ReadEarlier{Thread: r.Thread.ID}) // its sub-agents, its earlier turns
		t.resumedRunning(r.Thread)
	}
}

// whereResumed is the one line that says a thread resumed from another
// directory than the session's runs in its own (resume_cwd "session"),
// or here although it was started there ("current"); "" for none.
func whereResumed(e *backend.Elsewhere) string {
	switch {
	case e == nil:
		return ""
	case e.Mode == backend.ResumeCwdCurrent:
		return fmt.Sprintf("this thread was started in %s; it runs here, in %s (resume_cwd = \"current\")", ui.ShortHome(e.Recorded), ui.ShortHome(e.Current))
	}
	return fmt.Sprintf("resumed in %s (the thread's workspace)", ui.ShortHome(e.Recorded))
}

// rememberThread records id as the workspace's last thread.
func (t *Turns) rememberThread(id string) {
	if t.opts.State == nil || t.opts.Workspace == "" || id == "" {
		return
	}
	_ = t.opts.State.SetLastThread(t.opts.Workspace, id)
}

// onResumeCheck warns about tool calls without output and offers a fork
// or a fresh thread.
func (t *Turns) onResumeCheck(msg scannedMsg) {
	var names []string
	for _, c := range msg.pending {
		n := c.Type
		if c.Name != "" {
			n += " " + c.Name
		}
		names = append(names, n+" ("+c.CallID+")")
	}
	id := msg.thread.ID
	t.banner(ui.BannerWarning, fmt.Sprintf("thread %s has %d tool call(s) that never got an output; resuming it as is may fail", act.ShortID(id), len(msg.pending)), names)
	if t.client == nil {
		return
	}
	pick := func(do string) act.Unfinished { return act.Unfinished{Thread: id, Do: do} }
	t.out().Want(act.Pick{Title: "Unfinished tool calls in " + act.ShortID(id), Items: []act.PickItem{
		{Label: "Fork it", Detail: "a new thread with the same history", Choose: pick("fork")},
		{Label: "Start a new thread", Detail: "leave the old thread alone", Choose: pick("new")},
		{Label: "Resume anyway", Detail: "the server may reject it", Choose: pick("resume")},
	}, Cancel: pick("new")})
}

// onUnfinished does what was chosen for a thread with unfinished tool
// calls: fork it, start a new thread, or resume it anyway.
func (t *Turns) onUnfinished(u act.Unfinished) {
	t.t.switching = true
	if t.client == nil {
		t.abandonSwitch()
		return
	}
	switch u.Do {
	case "fork":
		t.out().Call(act.ToTurn, act.ForkThread{ID: u.Thread})
	case "resume":
		t.resumeNow(u.Thread)
	default:
		t.out().Call(act.ToTurn, act.StartThread{})
	}
}

// startResume runs a ResumeRequest from the command line, as how says.
func (t *Turns) startResume(r ResumeRequest, how resumeHow) {
	if t.client == nil {
		return
	}
	t.t.switching = true
	switch {
	case r.ID != "":
		t.openingThread(r.ID)
		t.resume(backend.Thread{ID: r.ID}, how)
	case r.Last:
		t.openingThread("")
		t.resumeLast()
	default:
		t.out().Want(act.PickThread{Fresh: true, Durable: t.detach.durable})
	}
}

// openingThread says on the status line, until the thread is open, that
// it is being loaded (a long thread takes a while: #17), and marks the
// turn machine switching, so a message typed meanwhile waits in the
// composer.
func (t *Turns) openingThread(id string) {
	t.t.switching = true
	what := "loading the thread"
	if id != "" {
		what = "loading thread " + act.ShortID(id)
	}
	t.notice(act.NoticeOpening, what+" — you can type meanwhile")
}
