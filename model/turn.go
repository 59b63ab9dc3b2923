package model

import (
	"context"
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/model/composer"
	"tandem/ui"
)

// turnState is the running turn as this viewer knows it, and what waits
// for the next one.
type turnState struct {
	// running is set from turn/start (or review/start) until the turn
	// ends; starting while that request's answer is awaited.
	running, starting bool
	started           time.Time
	// seq changes whenever a turn starts or ends, so a pending idle check
	// for an earlier turn is ignored.
	seq     int
	ticking bool
	tickSeq int
	// interruptSent is when turn/interrupt was sent for the running turn
	// (zero: none); a further Ctrl+C arms quit instead of resending.
	interruptSent time.Time
	// err is the turn error already shown this turn (an `error`
	// notification), so turn/completed with status failed does not
	// repeat it.
	err string
	// queued prompts, sent one per turn when the running turn ends.
	queued []string
	// held is Options.Prompt, kept until `account/read` says no login is
	// needed, or the login form completes or is skipped.
	held string
	// overrides are the /model and /approvals choices, sent with
	// turn/start; effort is the thread's reasoning effort, for /status.
	overrides backend.TurnOptions
	effort    string
	// switching is set while a thread is being opened; turns wait.
	switching bool
	// foreign marks a running turn this viewer did not start (another
	// client of the daemon, such as Codex's own TUI, or one found running
	// on resume): its user messages are drawn from the thread's items.
	foreign bool
}

// busy reports whether a turn runs or is being started.
func (t *turnState) busy() bool { return t.running || t.starting }

// canStart reports whether a turn may start now.
func (m *Model) canStart() bool {
	return !m.turn.busy() && m.ready && m.client != nil && !m.turn.switching
}

// callCtx is the context of one call to the app-server: 60 s at most.
func callCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 60*time.Second)
}

// callCmd is the command that runs fn with a call's context (callCtx)
// and returns its message: how the model calls the app-server, never
// inside Update.
func callCmd(fn func(ctx context.Context) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := callCtx()
		defer cancel()
		return fn(ctx)
	}
}

// submit starts a turn with text, its image chips sent as images
// (images.go; a local file is first copied to a remote app-server). The
// user's message is drawn at once, unless the model draws prompts from
// the thread's items (Shared).
func (m *Model) submit(text string) tea.Cmd { return m.submitShown(text, text) }

// submitShown is submit with the user's message drawn as shown (a
// command's name, such as "/init", for the prompt it sends); a turn that
// fails to start gives shown back to the composer.
func (m *Model) submitShown(shown, text string) tea.Cmd {
	if m.imagesBlocked(text) {
		return nil
	}
	in, ups, images := m.turnInput(text)
	if !m.opts.Shared {
		drawn := in.Text
		if shown != text {
			drawn = shown
		}
		m.panes.Echo(&ui.UserCell{Text: drawn, Images: images})
	}
	m.panes.Follow()
	m.beginTurn()
	m.clearNotice()
	c := m.client
	in.TurnOptions = m.turn.overrides
	in.Skills, in.Collaboration = m.composer.SkillRefs(text), m.collabFor() // model/composer, collab.go
	return tea.Batch(callCmd(func(ctx context.Context) tea.Msg {
		if err := uploadImages(ctx, c, ups); err != nil {
			return turnStartResult{text: text, err: err}
		}
		_, err := c.StartTurn(ctx, in)
		return turnStartResult{text: shown, err: err}
	}), m.startTick(), m.stat.SpinTick)
}

func (m *Model) onTurnStartResult(msg turnStartResult) {
	m.turn.starting = false
	if msg.err == nil {
		return
	}
	m.clearTurn()
	m.banner(ui.BannerError, "could not start the turn: "+msg.err.Error(), nil)
	// The prompt is never lost: put it back unless the user typed
	// something new meanwhile.
	if strings.TrimSpace(m.composer.Value()) == "" {
		m.composer.Replace(msg.text) // a large one comes back as a placeholder
	}
}

func (m *Model) interrupt() tea.Cmd {
	c := m.client
	if c == nil {
		return nil
	}
	m.setNotice(noticeInterrupting, "interrupting…")
	m.turn.interruptSent = m.now()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return interruptResult{err: c.Interrupt(ctx)}
	}
}

// startTick keeps a ~30 Hz tick alive while a turn runs; it redraws the
// elapsed time and flushes throttled streaming renders.
// followTurn shows a turn this viewer did not start (another client's,
// or one that ran on while it was away) as running, from now, unless
// one runs already; it starts the frame ticks and the spinner.
func (m *Model) followTurn() tea.Cmd {
	if !m.turn.running {
		m.turn.running, m.turn.foreign = true, true
		m.turn.started = m.now()
	}
	return tea.Batch(m.startTick(), m.stat.SpinTick)
}

func (m *Model) startTick() tea.Cmd {
	if m.turn.ticking {
		return nil
	}
	m.turn.ticking = true
	m.turn.tickSeq++
	seq := m.turn.tickSeq
	return tea.Tick(m.frameEvery(), func(time.Time) tea.Msg { return tickMsg{seq: seq} })
}

// frameEvery is the frame interval of a running turn (FrameRateMsg).
func (m *Model) frameEvery() time.Duration {
	if m.frame.every > 0 {
		return m.frame.every
	}
	return DefaultFrame
}

// slowFrames says the frames come less often than the spinner's own
// steps: the spinner then steps on each frame tick instead of its own.
func (m *Model) slowFrames() bool { return m.frameEvery() >= m.stat.SpinFPS() }

// onFrameRate applies a FrameRateMsg; a turn running at the old rate
// goes on at the new one from its next tick, and gets the spinner's own
// ticks back when the frames are fast again.
func (m *Model) onFrameRate(msg FrameRateMsg) tea.Cmd {
	if msg.Seq < m.frame.seq {
		return nil
	}
	wasSlow := m.slowFrames()
	m.frame.seq, m.frame.every = msg.Seq, msg.Every
	if wasSlow && !m.slowFrames() && m.turn.running {
		return m.stat.SpinTick
	}
	return nil
}

func (m *Model) onTick(msg tickMsg) tea.Cmd {
	m.checkTurnTimeout() // recovery.go
	if msg.seq != m.turn.tickSeq {
		return nil
	}
	m.turn.ticking = false
	if m.turn.running {
		if m.slowFrames() {
			m.stat.Step()
		}
		return m.startTick()
	}
	return nil
}

// beginTurn marks a turn as starting: turn/start (or review/start) was
// sent and its answer is awaited.
func (m *Model) beginTurn() {
	m.turn.running, m.turn.starting = true, true
	m.turn.started = m.now()
}

// clearTurn forgets the running turn, if any: the running flags, an
// interrupt sent for it, and any idle check pending for it.
func (m *Model) clearTurn() {
	m.turn.seq++
	m.turn.running, m.turn.starting, m.turn.foreign = false, false, false
	m.turn.interruptSent = time.Time{}
}

// endTurn ends the running turn as t says, with a banner when it was
// interrupted or failed (unless its error was shown already).
func (m *Model) endTurn(t backend.Turn) {
	if !m.turn.busy() {
		m.turn.err = ""
		return
	}
	m.clearTurn()
	m.clearNotice()
	m.panes.ClearHeader()
	switch t.Status {
	case backend.TurnInterrupted:
		m.banner(ui.BannerWarning, "Turn interrupted", nil)
	case backend.TurnFailed:
		shown := m.turn.err != "" && (t.Error == nil || t.Error.Message == "" || t.Error.Message == m.turn.err)
		if !shown {
			msg := "Turn failed"
			if t.Error != nil && t.Error.Message != "" {
				msg += ": " + t.Error.Message
			}
			m.banner(ui.BannerError, msg, nil)
		}
	}
	m.turn.err = ""
}

// onEnter submits the draft s (act.Submit: the composer's Enter): a
// slash command, a `!` shell command, a new turn, or — while a turn runs
// — a steer of that turn.
func (m *Model) onEnter(s act.Submit) tea.Cmd {
	raw := s.Raw
	if strings.TrimSpace(raw) == "" {
		return nil
	}
	if m.commands.Enter(raw) { // model/commands: a command by its whole name
		return nil
	}
	if !m.ready || m.client == nil {
		switch {
		case m.detach.detached:
			m.banner(ui.BannerQuiet, "not sent: the link to the daemon is down — your message stays here (Tab queues it for after the re-attach)", nil)
		case m.recovery.restarting:
			m.setNotice(noticeHeld, "restarting codex app-server — your message stays here")
		case (m.recovery.dead || m.recovery.noThread) && m.opts.Restart != nil && !m.opts.ReadOnly:
			m.setNotice(noticeHeld, "codex app-server is not running — F5 or /restart; your message stays here")
		case m.recovery.dead || m.recovery.noThread:
			m.setNotice(noticeHeld, "codex app-server is not running — your message stays here")
		case m.opts.Shared && m.ready:
			m.setNotice(noticeHeld, "nothing can be sent here — your message stays here")
		default:
			m.setNotice(noticeHeld, "codex app-server is not ready yet — your message stays here")
		}
		return nil
	}
	if m.turn.switching {
		m.setNotice(noticeHeld, "opening a thread — your message stays here")
		return nil
	}
	if m.panes.AgentShown() {
		m.setNotice(noticeHeld, "a sub-agent is shown — esc back to the thread to send; your message stays here")
		return nil
	}
	// The text has the pasted text for its placeholders (image chips stay).
	text, hist := s.Text, s.Hist
	if cmd, refused := m.imagesRefused(text); refused { // images.go: the model must take images
		return cmd
	}
	if strings.HasPrefix(text, "!") && len(strings.TrimSpace(text)) > 1 {
		if m.composer.HasImage(text) {
			m.setNotice(noticeInfo, "a ! command takes no images — remove them (Backspace after each); your message stays here")
			return nil
		}
		if m.turn.busy() {
			m.setNotice(noticeInfo, "a turn is running — ! commands run between turns")
			return nil
		}
		m.composer.AddHistory(hist)
		m.composer.SetDraft("")
		return m.shellCommand(strings.TrimSpace(text[1:]))
	}
	if m.turn.busy() {
		return m.steer(text, hist)
	}
	if len(m.turn.queued) > 0 {
		// Prompts still queued (e.g. from before a restart) go first.
		m.turn.queued = append(m.turn.queued, raw)
		m.composer.SetDraft("")
		m.setNotice(noticeInfo, "queued after the earlier prompts")
		return m.flushQueue()
	}
	if plan := m.rewind.pending; plan != nil {
		// rewind.go: fork before the chosen turn, then send.
		m.rewind.send = &rewindText{text: text, hist: hist}
		m.composer.SetDraft("")
		return m.runRewind(plan)
	}
	m.composer.AddHistory(hist)
	m.composer.SetDraft("")
	return m.submit(text)
}

// steer adds text to the running turn with `turn/steer`; hist is what the
// history keeps of it.
func (m *Model) steer(text, hist string) tea.Cmd {
	c := m.client
	if c.TurnID() == "" {
		m.setNotice(noticeInfo, "the turn is starting — Tab queues your message for the next turn")
		return nil
	}
	m.composer.AddHistory(hist)
	m.composer.SetDraft("")
	m.panes.Follow()
	m.setNotice(noticeSteering, "steering the turn…")
	in, ups, _ := m.turnInput(text)
	in.Skills = m.composer.SkillRefs(text) // model/composer
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := uploadImages(ctx, c, ups); err != nil {
			return steerResult{text: text, err: err}
		}
		return steerResult{text: text, err: c.Steer(ctx, in)}
	}
}

// onSteerResult draws a delivered steer as the user's message. A steer
// that lost the race with the turn's end (-32600: no active turn, or
// another turn than expected; or backend.ErrNoActiveTurn when the session
// saw the end first) is not an error for the user: the message joins the
// queue (after what was queued before it) and is sent as a turn. Any
// other failure puts the text back in the composer.
func (m *Model) onSteerResult(r steerResult) tea.Cmd {
	m.clearNotice(noticeSteering)
	var rpcErr *backend.RPCError
	switch {
	case r.err == nil:
		if !m.opts.Shared { // shared models draw prompts from the thread's items
			text, ims := m.composer.StripImages(r.text)
			m.panes.Echo(&ui.UserCell{Text: text, Images: composer.Shown(ims)})
		}
		return nil
	case errors.Is(r.err, backend.ErrNoActiveTurn), errors.As(r.err, &rpcErr) && rpcErr.Code == backend.CodeInvalidRequest:
		m.turn.queued = append(m.turn.queued, m.composer.LargeAsPaste(r.text))
		m.setNotice(noticeInfo, "the turn had ended — your message is sent as the next turn")
		return m.flushQueue()
	}
	m.banner(ui.BannerError, "could not steer the turn: "+oneLine(r.err), nil)
	m.composer.RestoreDraft(r.text)
	return nil
}

// queueDraft moves the draft, text (act.Queue: the composer's Tab while
// a turn runs), to the queue sent when the turn ends; it is queued with
// its placeholders, expanded when sent.
func (m *Model) queueDraft(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	m.turn.queued = append(m.turn.queued, text)
	m.composer.SetDraft("")
	m.setNotice(noticeInfo, "queued for the next turn")
}

// flushQueue sends the first queued prompt once no turn runs.
func (m *Model) flushQueue() tea.Cmd {
	if len(m.turn.queued) == 0 || !m.canStart() {
		return nil
	}
	raw := m.turn.queued[0]
	m.turn.queued = m.turn.queued[1:]
	text := m.composer.Expand(raw)
	m.composer.AddHistory(m.composer.HistEntry(raw, text))
	m.composer.Prune()
	return m.submit(text)
}

// holdPrompt keeps the command line's prompt until the login check is
// done (releasePrompt); without a client nothing is checked and it is
// sent at once.
func (m *Model) holdPrompt(p string) tea.Cmd {
	if m.client == nil {
		return m.submit(p)
	}
	m.turn.held = p
	m.setNotice(noticeLoginCheck, "checking the login before sending your prompt…")
	if m.composer.HasImage(p) {
		return m.fetchModels() // -i: whether the model takes images
	}
	return nil
}

// releasePrompt sends the held prompt once no login is needed, or the
// login form completed or was skipped. When a turn or a thread switch is
// under way it goes to the front of the queue instead; it is never lost.
func (m *Model) releasePrompt() tea.Cmd {
	p := m.turn.held
	if p == "" {
		return nil
	}
	if m.composer.HasImage(p) && !m.images.listed && m.client != nil {
		// -i: sent once model/list says whether the model takes images.
		m.images.heldWaits = true
		return m.fetchModels()
	}
	m.turn.held = ""
	m.clearNotice(noticeLoginCheck)
	if !m.canStart() {
		m.turn.queued = append([]string{p}, m.turn.queued...)
		return m.flushQueue()
	}
	return m.submit(p)
}

// shellCommand runs `!cmd` with `thread/shellCommand`; its output arrives
// as a commandExecution item of the thread.
func (m *Model) shellCommand(command string) tea.Cmd {
	c := m.client
	return callCmd(func(ctx context.Context) tea.Msg {
		return commandResultMsg{name: "!", err: c.ShellCommand(ctx, command)}
	})
}

// onThreadIdle ends a turn the server forgot to complete: a thread that
// went idle without turn/completed, after a grace period, since
// turn/completed normally follows.
func (m *Model) onThreadIdle() tea.Cmd {
	if !m.turn.running || m.turn.starting {
		return nil
	}
	m.turn.seq++
	seq := m.turn.seq
	return tea.Tick(idleGrace, func(time.Time) tea.Msg { return idleCheckMsg{seq: seq} })
}

func (m *Model) onIdleCheck(msg idleCheckMsg) {
	if msg.seq == m.turn.seq && m.turn.running && !m.turn.starting {
		m.endTurn(backend.Turn{Status: backend.TurnCompleted})
		m.banner(ui.BannerWarning, "the server went idle without completing the turn; ended it", nil)
	}
}
