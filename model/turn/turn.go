// Package turn is the turn machine and the session's thread lifecycle:
// the session's client, a turn's start, steer, queue, interrupt, idle
// check and timeout offer; the command line's prompt held for the login
// check; the images' model check; the collaboration modes; the thread's
// goal; opening threads (new, resume, fork, archive, a rewind's fork);
// and recovery — a dead app-server, its restart, a durable session's lost
// link and its re-attach.
//
// The root routes to it the backend events about turns (OnEvent), the
// session's arrival and failure (OnReady, OnFailed), the results of its
// calls (Result, act.Done for act.ToTurn), its own timers (Update, Msg),
// and the intents others ask of it (Apply: act.Submit after the slash
// commands, act.Queue, act.SetModel, act.Restart, …). What it reads of
// the rest of the model comes through World; what it wants of others
// goes into the Out of its act.Env: calls, intents for the panes, the
// status line, the composer, the overlay, a rewind and the root, notices
// and banners. It never imports the root model or another component.
package turn

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/model/keys"
	"tandem/sessions"
	"tandem/ui"
)

// Options configure Turns.
type Options struct {
	// Prompt, when set, is sent as the first turn once the session is
	// ready and the login check is done.
	Prompt string
	// Model is the model the status line starts with ("" when not known).
	Model string
	// State remembers the workspace's last thread (nil: nothing is
	// remembered); Workspace is the absolute cwd it is keyed by.
	State     *sessions.Store
	Workspace string
	// Restart, when set, closes the app-server, starts a new one and
	// resumes the thread (see model.Options.Restart); it blocks, and runs
	// in a command.
	Restart func(lastTurn string) (RestartInfo, error)
	// TurnTimeout, when > 0, is how long a turn runs before an interrupt
	// is offered.
	TurnTimeout time.Duration
	// UnresponsiveAfter, when > 0, is how long the server may owe an
	// answer and say nothing before the status line names it and F5
	// kills and restarts it (truth.go).
	UnresponsiveAfter time.Duration
	// Now is the time turns are timed by (nil: time.Now): the status
	// line's elapsed time is told from Started by the same clock.
	Now func() time.Time
	// Keys is the keymap (nil: keys.Default()).
	Keys *keys.Map
	// World is what the turn machine reads of the rest of the model.
	World World
}

// World is what the turn machine reads of the rest of the model when it
// needs it; the root implements it.
type World interface {
	// Draft is the composer's draft as typed; Submission what Enter on
	// it submits.
	Draft() string
	Submission() act.Submit
	// HasImage reports whether s holds an image chip.
	HasImage(s string) bool
	// Resolve splits a prompt into its text and its chips' images, and
	// pins them, so the prompt can come back to the composer whole;
	// StripImages does the same without pinning.
	Resolve(s string) (text string, images []Image)
	StripImages(s string) (text string, images []Image)
	// SkillRefs are the skills text names with `$name`.
	SkillRefs(text string) []backend.SkillRef
	// Expand replaces a draft's placeholder tokens by their text;
	// HistEntry is what the history keeps of a draft sent; LargeAsPaste
	// is the token a large text that comes back is kept as (s itself
	// when it is small).
	Expand(s string) string
	HistEntry(raw, text string) string
	LargeAsPaste(s string) string
	// ThreadCwd is the thread's workspace on the server ("" not known);
	// LastTurn the newest turn the transcript holds ("" none).
	ThreadCwd() string
	LastTurn() string
	// AgentShown reports a sub-agent's pane on screen; Inline the
	// --no-alt-screen terminal; EmptyTranscript a transcript with no item
	// yet.
	AgentShown() bool
	Inline() bool
	EmptyTranscript() bool
	// Peer is the status line's peer ("" for a local app-server).
	Peer() string
	// RewindPending reports a rewind chosen and waiting for Enter.
	RewindPending() bool
}

// Image is an image of a prompt: a local file, or a path on a remote
// app-server's machine (exactly one is set), and how the transcript names
// it.
type Image struct {
	Local, Server, Shown string
}

// Turns is the turn machine of one viewer. Use New; it is used by
// pointer.
type Turns struct {
	env  act.Env
	opts Options
	keys *keys.Map
	w    World

	// client is the app-server, nil when there is none to talk to
	// (before the session is ready, after it died, in a replay, for a
	// watcher); ready is set once the session is.
	client backend.Client
	ready  bool
	// model is the model of the next turns as the status line shows it.
	model string

	t      state
	rec    recovery
	images imageState
	collab collabState
	goal   *backend.ThreadGoal
	detach detachState
	sq     serverQueueState // serverqueue.go: the server's queue, as told
	// codexChecked: the server's version was checked against the tested
	// range (once per run: a restart is the same codex).
	codexChecked bool
	// failure says why the last turn failed or the server is gone ("":
	// neither); the next turn, session or thread clears it (Failure).
	failure string
}

// New returns the turn machine of a session not ready yet.
func New(env act.Env, opts Options) *Turns {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	km := opts.Keys
	if km == nil {
		km = keys.Default()
	}
	return &Turns{env: env, opts: opts, keys: km, w: opts.World, model: opts.Model}
}

func (t *Turns) out() *act.Out                        { return t.env.Out }
func (t *Turns) now() time.Time                       { return t.opts.Now() }
func (t *Turns) shared() bool                         { return t.env.Role.Shared() }
func (t *Turns) notice(k act.NoticeKind, text string) { t.out().Notice(k, text) }
func (t *Turns) banner(k ui.BannerKind, text string, detail []string) {
	t.out().Banner(k, text, detail)
}

// Client is the app-server's client, nil when there is none to talk to.
func (t *Turns) Client() backend.Client { return t.client }

// Failure says why the thread stands failed: its last turn failed (the
// server's error), the app-server exited or could not start; "" when
// none of these holds (a turn started, a session is ready or another
// thread opened since).
func (t *Turns) Failure() string { return t.failure }

// Ready reports whether the session is ready (and not lost since).
func (t *Turns) Ready() bool { return t.ready }

// Running reports whether a turn is in progress.
func (t *Turns) Running() bool { return t.t.running }

// Busy reports whether a turn runs or is being started.
func (t *Turns) Busy() bool { return t.t.busy() }

// Started is when the running turn started (as Options.Now tells).
func (t *Turns) Started() time.Time { return t.t.started }

// Interrupting reports whether turn/interrupt was sent for the running
// turn: a further Ctrl+C arms quit instead.
func (t *Turns) Interrupting() bool { return !t.t.interruptSent.IsZero() }

// Own reports whether the running turn is this viewer's own, whose user
// messages it drew when sent (not another client's, not a shared
// session's).
func (t *Turns) Own() bool { return t.t.running && !t.t.foreign && !t.shared() }

// Switching reports whether a thread is being opened: turns wait.
func (t *Turns) Switching() bool { return t.t.switching }

// Seq changes whenever a turn starts or ends.
func (t *Turns) Seq() int { return t.t.seq }

// Queued returns the prompts queued for the next turns, first to be sent
// first.
func (t *Turns) Queued() []string { return t.queuedRaws() }

// TurnOptions returns the overrides /model and /approvals set for the
// next turns.
func (t *Turns) TurnOptions() backend.TurnOptions { return t.t.overrides }

// Effort is the thread's reasoning effort as last known ("" when not).
func (t *Turns) Effort() string { return t.t.effort }

// CanStart reports whether a turn may start now.
func (t *Turns) CanStart() bool {
	return !t.t.busy() && t.ready && t.client != nil && !t.t.switching
}

// Dead reports whether the app-server exited (or could not start) and
// was not restarted.
func (t *Turns) Dead() bool { return t.rec.dead }

// TakeHeld returns the command line's prompt when it was never sent (a
// quit at the login form), and forgets it.
func (t *Turns) TakeHeld() string {
	h := t.t.held
	t.t.held = ""
	return h
}

// Msg is a message of the turn machine's own (its timers, a restart's
// outcome, a rollout's scan): the root hands it to Update.
type Msg interface{ turnMsg() }

// Update takes a message of the turn machine's own.
func (t *Turns) Update(msg Msg) {
	switch msg := msg.(type) {
	case idleCheckMsg:
		t.onIdleCheck(msg)
	case restartDoneMsg:
		t.onRestartDone(msg)
	case reattachTickMsg:
		t.onReattachTick(msg)
	case scannedMsg:
		t.onScanned(msg)
	case checkTickMsg:
		t.onCheckTick(msg)
	case lastThreadMsg:
		t.onLastThreadID(msg)
	}
}

// Result takes the answer of a call the turn machine asked for (act.Done's
// Msg for act.ToTurn).
func (t *Turns) Result(msg tea.Msg) {
	switch msg := msg.(type) {
	case act.TurnStarted:
		t.onTurnStarted(msg)
	case act.Steered:
		t.onSteered(msg)
	case act.TurnsRead:
		t.onTurnsRead(msg) // truth.go
	case act.Interrupted:
		t.onInterrupted(msg)
	case act.ShellRan:
		if msg.Err != nil {
			t.banner(ui.BannerError, "/!: "+act.OneLine(msg.Err), nil)
		}
	case act.ModelsListed:
		t.onImageModels(msg)
	case act.CollabModes:
		t.onCollabModes(msg)
	case act.GoalChanged:
		t.onGoalChanged(msg)
	case act.GoalRead:
		t.onGoalRead(msg)
	case act.ThreadSwitched:
		t.onThreadSwitched(msg, "")
		t.flushQueue()
	case act.ThreadInfo:
		t.scan(msg.Thread)
	case act.LastThread:
		t.resume(msg.Thread, t.resumeHow())
	case act.ServerQueue:
		t.onServerQueue(msg) // serverqueue.go
	}
}

// Apply takes an intent of the turn machine's (act's intents_turn.go,
// and act.Queue, act.CheckImages, act.SetModel, act.SetPolicy,
// act.ResumeThread, act.ResumeAt, act.ResumeCancelled, act.LoginAsked and
// act.LoginChecked); it reports whether it was one. act.Submit is the
// root's to route: the slash commands take theirs first (Enter).
func (t *Turns) Apply(i act.Intent) bool {
	switch i := i.(type) {
	case act.Queue:
		t.queueDraft(i.Raw)
	case act.CheckImages:
		t.fetchModels()
	case act.SetModel:
		t.setModel(i.Model, i.Effort)
	case act.SetPolicy:
		t.t.overrides.ApprovalPolicy, t.t.overrides.Sandbox = i.Approval, i.Sandbox
		t.out().Want(act.Settings{Approval: &i.Approval, Sandbox: &i.Sandbox})
		t.notice(act.NoticeInfo, "approvals "+i.Approval+", sandbox "+i.Sandbox+" from the next turn")
	case act.ResumeThread:
		if t.client != nil {
			t.openingThread(i.Thread.ID)
			t.resume(i.Thread, t.resumeHow())
		}
	case act.ResumeAt:
		t.resumeAt(i)
	case act.ResumeCancelled:
		t.resumeCancelled(i.Fresh)
	case act.LoginAsked:
		if t.t.held != "" {
			t.notice(act.NoticeLoginCheck, "your prompt is sent once you log in (or skip with esc)")
		}
	case act.LoginChecked:
		t.releasePrompt()
		if t.waitsForReady() {
			t.flushQueue() // queue.go: what Enter queued before the session was ready
		}
	case act.FlushQueue:
		t.flushQueue()
	case act.NewThread:
		t.startThread()
	case act.Fork:
		if c := t.client; c != nil {
			t.t.switching = true
			t.out().Call(act.ToTurn, act.ForkThread{ID: c.ThreadID()})
		}
	case act.Archive:
		if c := t.client; c != nil {
			t.t.switching = true
			t.out().Call(act.ToTurn, act.ArchiveThread{ID: c.ThreadID()})
		}
	case act.Review:
		t.review()
	case act.Restart:
		t.Restart()
	case act.Stop:
		t.stop()
	case act.SwitchMode:
		t.SwitchMode(i.Plan)
	case act.Goal:
		t.changeGoal(i.Action, i.Objective)
	case act.Send:
		shown := i.Shown
		if shown == "" {
			shown = i.Text
		}
		t.submitShown(shown, i.Text)
	case act.Switching:
		t.t.switching = i.On
	case act.OpenThread:
		t.onThreadSwitched(act.ThreadSwitched{Response: i.Response, How: i.How, From: i.From}, i.Note)
	case act.Unfinished:
		t.onUnfinished(i)
	default:
		return false
	}
	return true
}

// setModel makes model and effort the overrides for the next turns.
func (t *Turns) setModel(model, effort string) {
	t.t.overrides.Model, t.t.overrides.Effort = model, effort
	t.setStatusModel(model)
	if effort != "" {
		t.t.effort = effort
	}
	suffix := ""
	if effort != "" {
		suffix = " (" + effort + ")"
	}
	t.notice(act.NoticeInfo, "model "+model+suffix+" from the next turn")
}

// setStatusModel makes model the status line's.
func (t *Turns) setStatusModel(model string) {
	t.model = model
	t.out().Want(act.Settings{Model: &model})
}
