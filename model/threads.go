package model

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/sessions"
	"tandem/ui"
)

// threadSwitchedMsg carries the result of opening a thread: resp is the
// new current thread (with its history), how says what happened
// ("resumed", "forked", "new"), notice is an optional banner.
type threadSwitchedMsg struct {
	resp   backend.ThreadResponse
	how    string
	notice string
	err    error
	// before is the turn a rewind's fork was cut before (how "rewound");
	// from is the thread a fork was made of (how "forked").
	before, from string
}

// resumeCheckMsg reports unfinished tool calls found in the rollout of a
// thread about to be resumed.
type resumeCheckMsg struct {
	thread  backend.Thread
	pending []sessions.PendingCall
}

// newThreadCmd starts a fresh thread; notice, if set, is shown first (e.g.
// why a resume did not happen).
func newThreadCmd(c backend.Client, notice string) tea.Cmd {
	return callCmd(func(ctx context.Context) tea.Msg {
		resp, err := c.StartThread(ctx)
		return threadSwitchedMsg{resp: resp, how: "new", notice: notice, err: err}
	})
}

// resumeCmd resumes thread t: it first scans t's rollout for tool calls
// without output (then asks the user instead), and falls back to a new
// thread — once, never retrying — when the resume fails; how says what
// is read besides (resumeHow).
func resumeCmd(c backend.Client, t backend.Thread, how resumeHow) tea.Cmd {
	var peek tea.Cmd
	if how.peek {
		peek = act.Run(c, act.Request{For: act.ToPanes, Do: act.PeekTurns{ID: t.ID}}) // drawn while the resume runs
	}
	return tea.Batch(peek, callCmd(func(ctx context.Context) tea.Msg {
		if t.Path == nil || *t.Path == "" || t.Status == nil {
			if full, err := c.ReadThread(ctx, t.ID); err == nil {
				t.Path, t.Status = full.Path, full.Status
			}
		}
		// A thread whose turn runs on the server (the daemon) has its
		// tool calls in flight there: nothing to warn about.
		if t.Path != nil && *t.Path != "" && !t.Active() {
			if pending, err := sessions.UnfinishedToolCalls(*t.Path); err == nil && len(pending) > 0 {
				return resumeCheckMsg{thread: t, pending: pending}
			}
		}
		return resumeNow(ctx, c, t.ID, how.fill)
	}))
}

func resumeNow(ctx context.Context, c backend.Client, id string, fill int) tea.Msg {
	var earlier []backend.Turn
	var earlierOlder string
	if fill > backend.ResumeTurns {
		// Read before the resume: once it answers, the session passes the
		// thread's events on, and the model takes them only once it has
		// switched (a turn that ended meanwhile would stay running).
		earlier, earlierOlder, _ = backend.LatestTurns(ctx, c, id, fill)
	}
	resp, err := c.ResumeThread(ctx, id)
	if err == nil {
		if turns, ok := backend.JoinTurns(earlier, resp.Thread.Turns); ok && len(earlier) > 0 {
			resp.Thread.Turns, resp.Older = turns, earlierOlder
		}
		return threadSwitchedMsg{resp: resp, how: "resumed"}
	}
	notice := fmt.Sprintf("could not resume thread %s: %s — started a new thread", shortID(id), oneLine(err))
	nresp, nerr := c.StartThread(ctx)
	return threadSwitchedMsg{resp: nresp, how: "new", notice: notice, err: nerr}
}

// resumeLastCmd resumes the workspace's last thread: the one remembered
// in the state file if this server knows it (`thread/read`; another
// CODEX_HOME may have written it), else the most recently updated one
// `thread/list` returns for the workspace.
func resumeLastCmd(c backend.Client, state *sessions.Store, ws string, how resumeHow) tea.Cmd {
	return callCmd(func(ctx context.Context) tea.Msg {
		id := ""
		if state != nil {
			id = state.LastThread(ws)
		}
		if id != "" {
			if t, err := c.ReadThread(ctx, id); err == nil {
				t.ID = id
				return resumeCmd(c, t, how)()
			}
		}
		list, err := c.ListThreads(ctx, backend.ThreadListParams{Limit: 1, SortKey: backend.SortUpdated, Cwd: ws})
		if err != nil || len(list.Data) == 0 {
			why := "no earlier thread in this workspace"
			if err != nil {
				why = "thread/list: " + oneLine(err)
			}
			resp, nerr := c.StartThread(ctx)
			return threadSwitchedMsg{resp: resp, how: "new", notice: why + " — started a new thread", err: nerr}
		}
		return resumeCmd(c, list.Data[0], how)()
	})
}

func forkCmd(c backend.Client, id string) tea.Cmd {
	return callCmd(func(ctx context.Context) tea.Msg {
		resp, err := c.ForkThread(ctx, id, "")
		if err != nil {
			return threadSwitchedMsg{err: fmt.Errorf("thread/fork: %w", err), how: "forked"}
		}
		return threadSwitchedMsg{resp: resp, how: "forked", from: id}
	})
}

// onThreadSwitched replaces the transcript with the new thread's history.
func (m *Model) onThreadSwitched(msg threadSwitchedMsg) tea.Cmd {
	m.turn.switching = false
	m.clearNotice(noticeHeld, noticeOpening) // "opening a thread — your message stays here"
	if msg.err != nil {
		m.panes.ForgetPeek() // the newest turns of a thread that did not open
		if msg.notice != "" {
			m.banner(ui.BannerWarning, msg.notice, nil)
		}
		m.banner(ui.BannerError, "could not open a thread: "+oneLine(msg.err), nil)
		return nil
	}
	if msg.how != "rewound" {
		m.rewind.Drop() // model/rewind: a rewind is of the thread it was chosen in
	}
	var rewound string // the banner of a rewind, from the thread left
	if msg.how == "rewound" {
		rewound = m.rewind.Note(msg.before) // model/rewind
	}
	r := msg.resp
	m.panes.Leave(msg.how, r.Thread, msg.from, m.turn.running) // the old thread's last cells, a separator
	m.panes.Open(r.Thread.ID, r.Cwd)                           // the sub-agents are the old thread's
	m.panes.BeginOlder(r.Thread.ID, r.Older, m.client != nil)  // the turns before the page
	m.clearTurn()
	set := act.Settings{Model: act.Str(r.Model), Approval: act.Str(backend.PolicyString(r.ApprovalPolicy)), Sandbox: act.Str(r.Sandbox.Mode())}
	if r.Cwd != "" {
		set.Cwd = act.Str(ui.ShortHome(r.Cwd))
		m.panes.SetCwd(r.Cwd)
	}
	// Choices made with /model and /approvals apply to the next turns of
	// whatever thread is open: the status line keeps showing them.
	if o := m.turn.overrides; o.Model != "" {
		set.Model = act.Str(o.Model)
	}
	if o := m.turn.overrides; o.ApprovalPolicy != "" {
		set.Approval, set.Sandbox = act.Str(o.ApprovalPolicy), act.Str(o.Sandbox)
	}
	m.stat.Apply(set)
	m.turn.effort = ""
	if r.ReasoningEffort != nil {
		m.turn.effort = *r.ReasoningEffort
	}
	if msg.notice != "" {
		m.banner(ui.BannerWarning, msg.notice, nil)
	}
	m.panes.LoadHistory(r.Thread.Turns, false)
	m.panes.Opened(msg.how, msg.from) // a rewind's or fork's history is printed already
	title := r.Thread.Preview
	if r.Thread.Name != nil && *r.Thread.Name != "" {
		title = *r.Thread.Name
	}
	switch msg.how {
	case "resumed":
		m.banner(ui.BannerInfo, fmt.Sprintf("Resumed thread %s %s", shortID(r.Thread.ID), quoteTitle(title)), nil)
	case "forked":
		m.banner(ui.BannerInfo, fmt.Sprintf("Forked into thread %s %s", shortID(r.Thread.ID), quoteTitle(title)), nil)
	case "rewound":
		m.banner(ui.BannerInfo, rewound, nil)
	case "new":
		if msg.notice == "" { // a notice already says why there is a new thread
			m.banner(ui.BannerInfo, "New thread "+shortID(r.Thread.ID), nil)
		}
	}
	m.rememberThread(r.Thread.ID)
	extras := m.threadExtras() // goal.go: its goal, its workspace's skills
	if msg.how == "resumed" {
		m.panes.ListEarlierAgents(r.Thread.ID) // its sub-agents
		m.panes.LoadOlderIfTop(m.transcriptHeight(), m.client != nil)
		return tea.Batch(extras, m.resumedRunning(r.Thread))
	}
	return extras
}

// rememberThread records id as the workspace's last thread.
func (m *Model) rememberThread(id string) {
	if m.opts.State == nil || m.opts.Workspace == "" || id == "" {
		return
	}
	_ = m.opts.State.SetLastThread(m.opts.Workspace, id)
}

// onResumeCheck warns about tool calls without output and offers a fork
// or a fresh thread.
func (m *Model) onResumeCheck(msg resumeCheckMsg) tea.Cmd {
	var names []string
	for _, c := range msg.pending {
		n := c.Type
		if c.Name != "" {
			n += " " + c.Name
		}
		names = append(names, n+" ("+c.CallID+")")
	}
	m.banner(ui.BannerWarning, fmt.Sprintf("thread %s has %d tool call(s) that never got an output; resuming it as is may fail", shortID(msg.thread.ID), len(msg.pending)), names)
	c := m.client
	if c == nil {
		return nil
	}
	id, fill := msg.thread.ID, m.resumeHow().fill
	pick := func(how string) pickedUnfinished { return pickedUnfinished{c: c, id: id, fill: fill, how: how} }
	m.out.Want(act.Pick{Title: "Unfinished tool calls in " + shortID(id), Items: []act.PickItem{
		{Label: "Fork it", Detail: "a new thread with the same history", Choose: pick("fork")},
		{Label: "Start a new thread", Detail: "leave the old thread alone", Choose: pick("new")},
		{Label: "Resume anyway", Detail: "the server may reject it", Choose: pick("resume")},
	}, Cancel: pick("new")})
	return nil
}

// pickedUnfinished is what to do with thread id, whose tool calls never
// got an output: fork it, start a new thread, or resume it anyway.
type pickedUnfinished struct {
	c       backend.Client
	id, how string
	fill    int
}

func (p pickedUnfinished) run(m *Model) tea.Cmd {
	m.turn.switching = true
	switch p.how {
	case "fork":
		return forkCmd(p.c, p.id)
	case "resume":
		return callCmd(func(ctx context.Context) tea.Msg { return resumeNow(ctx, p.c, p.id, p.fill) })
	}
	return newThreadCmd(p.c, "")
}

// startResume runs a ResumeRequest from the command line.
func (m *Model) startResume(r ResumeRequest) tea.Cmd {
	c := m.client
	if c == nil {
		return nil
	}
	m.turn.switching = true
	switch {
	case r.ID != "":
		m.openingThread(r.ID)
		return resumeCmd(c, backend.Thread{ID: r.ID}, m.resumeHow())
	case r.Last:
		m.openingThread("")
		return resumeLastCmd(c, m.opts.State, m.opts.Workspace, m.resumeHow())
	}
	return m.openResumePicker(true)
}

// openingThread says on the status line, until the thread is open, that
// it is being loaded (a long thread takes a while: #17), and marks the
// model switching, so a message typed meanwhile waits in the composer.
func (m *Model) openingThread(id string) {
	m.turn.switching = true
	what := "loading the thread"
	if id != "" {
		what = "loading thread " + shortID(id)
	}
	m.setNotice(noticeOpening, what+" — you can type meanwhile")
}

func shortID(id string) string {
	if len(id) > 13 {
		return id[:8] + "…" + id[len(id)-4:]
	}
	return id
}

func quoteTitle(s string) string {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\n", " "))
	if s == "" {
		return ""
	}
	return "“" + ui.Truncate(s, 50) + "”"
}

// oneLine gives the first line of an error, for a banner (act.OneLine).
func oneLine(err error) string { return act.OneLine(err) }
