package model

import (
	"context"
	"math"
	"strings"
	"time"

	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"tandem/backend"
	"tandem/forms"
	"tandem/internal/hub"
	"tandem/sessions"
	"tandem/ui"
)

// Options configure a Model.
type Options struct {
	// Prompt, when set, is sent as the first turn once the session is ready.
	Prompt string
	// Dark selects the dark palette; NoColor the colourless one.
	Dark, NoColor bool
	// Status is the initial status line (model, cwd, policies).
	Status ui.StatusInfo
	// FormGrace is how long a new form ignores keys at least (0 = 400 ms),
	// and FormQuiet how long no key must have been pressed before it takes
	// them (0 = 500 ms, or FormGrace when that is set), so typing in
	// flight never answers it (grace.go). GraceNow is the clock they are
	// measured by (nil: time.Now; Now may be pinned for drawing).
	FormGrace, FormQuiet time.Duration
	GraceNow             func() time.Time
	// Now returns the time; nil means time.Now (tests pin it).
	Now func() time.Time
	// ReadOnly makes a watcher's model for `tandem serve` (role.go): it
	// only scrolls, opens the pager and leaves; it starts no turn and
	// answers no server request.
	ReadOnly bool
	// Shared marks a model fed by the pairing hub: user messages are
	// drawn from the thread's items, so every viewer sees every prompt.
	Shared bool
	// Guest marks the model of an SSH client of `tandem serve`: it runs
	// nothing on the host for that client — Ctrl+G ($EDITOR) and Alt+O or
	// the pager's o ($PAGER) only say so — and copies by OSC 52 alone,
	// never to the host's clipboard.
	Guest bool
	// State remembers, per workspace, the last thread and the prompt
	// history (nil: nothing is remembered). Workspace is the absolute cwd
	// it is keyed by, also the root of @ file search and the resume
	// picker's workspace filter.
	State     *sessions.Store
	Workspace string
	// Restart, when set, closes the app-server, starts a new one and
	// resumes the current thread with `thread/resume` (F5 and /restart,
	// restart.go); it blocks until done and sends the new SessionReadyMsg
	// (without History: the transcript is kept) before returning.
	Restart func() (RestartInfo, error)
	// TurnTimeout, when > 0, is how long a turn runs before tandem offers
	// to interrupt it.
	TurnTimeout time.Duration
}

// Model is the Bubble Tea model. Use New; it is used by pointer.
type Model struct {
	opts   Options
	now    func() time.Time
	driver Driver

	width, height int
	styles        ui.Styles
	rctx          *ui.RenderContext
	transcript    ui.Transcript
	items         map[string]ui.Cell // item id → cell
	composer      textarea.Model
	spin          spinner.Model
	status        ui.StatusInfo
	threadCwd     string // the thread's workspace on the server (SessionReadyMsg.ThreadCwd)

	running      bool
	startingTurn bool
	turnStarted  time.Time
	tickSeq      int
	// turnSeq changes whenever a turn starts or ends, so a pending idle
	// check for an earlier turn is ignored.
	turnSeq int
	ticking bool

	// pending server requests, in arrival order; the first is shown.
	pending   []backend.ServerRequest
	form      forms.Form
	formReq   backend.ServerRequest
	formReady bool
	formSeq   int
	grace     graceState // when the shown form takes focus (grace.go)
	theme     huh.Theme

	// scrolling: follow the bottom unless the user scrolled up; top is the
	// first visible transcript line when not following.
	follow bool
	top    int

	quitArmed time.Time
	quitting  bool
	ready     bool

	pair pairState // presence and role hints (role.go)

	tv viewState // transcript view: pager, width, theme, kept values (transcript.go)

	x extState // threads, slash commands, composer popups/history/queue, login (ext.go)

	rec recoveryState // dead or busy server, restart, turn timeout (restart.go)

	d draftState // pasted text behind placeholders, held prompt, pending interrupt (paste.go)

	// awaiting holds the command cells flagged "awaiting approval" while
	// their approval request is pending (awaiting.go).
	awaiting map[string]*ui.CommandCell
	// turnErr is the turn error already shown this turn (an `error`
	// notification), so turn/completed with status failed does not repeat it.
	turnErr string
}

// New returns a model.
func New(opts Options) *Model {
	if opts.FormQuiet == 0 {
		opts.FormQuiet = 500 * time.Millisecond
		if opts.FormGrace != 0 {
			opts.FormQuiet = opts.FormGrace // tests shorten both at once
		}
	}
	if opts.FormGrace == 0 {
		opts.FormGrace = 400 * time.Millisecond
	}
	if opts.GraceNow == nil {
		opts.GraceNow = time.Now
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	m := &Model{opts: opts, now: now, items: map[string]ui.Cell{}, follow: true, status: opts.Status}
	m.status.NoInterrupt = m.status.NoInterrupt || opts.ReadOnly // a watcher cannot interrupt
	m.styles = ui.NewStyles(opts.Dark)
	style := "dark"
	if !opts.Dark {
		style = "light"
	}
	// NoColor keeps the dark style's layout (borders, bullets); Bubble Tea's
	// colour profile strips the colours themselves.
	m.rctx = &ui.RenderContext{Styles: m.styles, Markdown: ui.NewMarkdown(style)}
	m.theme = forms.Theme(opts.Dark, opts.NoColor)

	ta := textarea.New()
	ta.SetPromptFunc(promptWidth, composerPrompt) // composer.go: › on the first row only
	ta.Placeholder = "Ask Codex to do anything"
	ta.ShowLineNumbers = false
	// The composer grows with its content up to 8 rows and scrolls after
	// that; content itself is unlimited (a long paste is never cut).
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.MaxHeight = 8
	ta.MaxContentHeight = math.MaxInt32
	ta.SetHeight(1)
	ta.CharLimit = 0
	ta.KeyMap.InsertNewline.SetKeys("shift+enter", "ctrl+j", "alt+enter")
	ta.Focus()
	m.composer = ta
	m.applyRole()
	m.spin = spinner.New(spinner.WithSpinner(spinner.Dot))
	if m.status.Notice == "" { // a replay says its own
		m.status.Notice = "starting codex app-server…"
	}
	return m
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return tea.Batch(textarea.Blink, tea.RequestBackgroundColor) }

// Pending returns the server requests still waiting for an answer, the
// shown one first. main refuses them before exit.
func (m *Model) Pending() []backend.ServerRequest { return m.pending }

// Running reports whether a turn is in progress.
func (m *Model) Running() bool { return m.running }

// Composer returns the composer's current text, large pastes expanded
// (what Enter would send).
func (m *Model) Composer() string { return m.draftText() }

// Cells returns the transcript cells (for tests and export).
func (m *Model) Cells() []ui.Cell { return m.transcript.Cells }

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer m.syncAwaiting() // awaiting.go
	// grace.go: typing keeps a new form unfocused
	m.noteInput(msg)
	m.tv.deltaOnly = isDelta(msg)
	if !m.tv.deltaOnly {
		m.transcript.Flush() // deltas coalesce until the next other message
	}
	if cmd, done := m.roleFilter(msg); done {
		return m, cmd
	}
	if cmd, ok := m.recoverUpdate(msg); ok {
		return m, cmd
	}
	if cmd, ok := m.extUpdate(msg); ok { // ext.go: threads, commands, composer, login
		return m, cmd
	}
	if cmd, ok := m.viewMsg(msg); ok {
		return m, cmd
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.composer.SetWidth(msg.Width)
		if m.form != nil {
			m.form.Resize(msg.Width, m.formMaxHeight()) // formsafe.go
		}
		return m, m.onResize()
	case tea.KeyPressMsg:
		return m, m.onKey(msg)
	case tea.PasteMsg:
		if m.form != nil && m.formReady {
			return m, m.form.Update(msg)
		}
		m.onPaste(msg.Content) // paste.go: a large paste becomes a placeholder
		return m, nil
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			m.scroll(-3, 0)
		case tea.MouseWheelDown:
			m.scroll(3, 0)
		}
		return m, nil
	case SessionReadyMsg:
		return m, tea.Batch(m.onReady(msg), m.afterReady(msg)) // afterReady: ext.go
	case SessionFailedMsg:
		m.onSessionFailed(msg) // restart.go
		return m, nil
	case turnStartResult:
		m.startingTurn = false
		if msg.err != nil {
			m.clearTurn()
			m.banner(ui.BannerError, "could not start the turn: "+msg.err.Error(), nil)
			// The prompt is never lost: put it back unless the user typed
			// something new meanwhile.
			if strings.TrimSpace(m.composer.Value()) == "" {
				m.setDraft(msg.text) // a large one comes back as a placeholder
			}
		}
		return m, nil
	case interruptResult:
		if msg.err != nil {
			m.banner(ui.BannerWarning, "interrupt failed: "+msg.err.Error(), nil)
		}
		return m, nil
	case tickMsg:
		if msg.seq != m.tickSeq {
			return m, nil
		}
		m.ticking = false
		if m.running {
			return m, m.startTick()
		}
		return m, nil
	case spinner.TickMsg:
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		if m.running {
			return m, cmd
		}
		return m, nil
	case idleCheckMsg:
		if msg.seq == m.turnSeq && m.running && !m.startingTurn {
			m.endTurn(backend.Turn{Status: backend.TurnCompleted})
			m.banner(ui.BannerWarning, "the server went idle without completing the turn; ended it", nil)
		}
		return m, nil
	case formFocusMsg:
		if m.form != nil && msg.seq == m.formSeq {
			m.formReady = true
		}
		return m, nil
	case formCheckMsg:
		return m, m.onFormCheck(msg)
	case backend.ServerRequest:
		return m, m.onRequest(msg)
	case backend.Event:
		cmd := m.onEvent(msg)
		if !m.ticking {
			m.transcript.Flush() // no frame tick running: draw now
		}
		return m, cmd
	}
	// Anything else (cursor blink, form internals) goes to the focused
	// component.
	var cmds []tea.Cmd
	if m.form != nil {
		cmds = append(cmds, m.form.Update(msg))
		cmds = append(cmds, m.settleForm())
	}
	var cmd tea.Cmd
	m.composer, cmd = m.composer.Update(msg)
	cmds = append(cmds, cmd)
	return m, tea.Batch(cmds...)
}

func (m *Model) onReady(msg SessionReadyMsg) tea.Cmd {
	m.driver = msg.Driver
	m.ready = true
	m.status.Notice = ""
	m.status.Model, m.status.Cwd = msg.Model, msg.Cwd
	m.threadCwd = msg.ThreadCwd
	m.status.Approval, m.status.Sandbox, m.status.Peer = msg.Approval, msg.Sandbox, msg.Peer
	for _, t := range msg.History {
		for _, it := range t.Items {
			m.foldItem(it, true)
		}
		if t.Status == backend.TurnFailed && t.Error != nil {
			m.banner(ui.BannerError, "turn failed: "+t.Error.Message, nil)
		}
	}
	if m.opts.Prompt != "" {
		p := m.opts.Prompt
		m.opts.Prompt = ""
		return m.holdPrompt(p) // paste.go: sent after the login check
	}
	return nil
}

// onKey routes a key press: global keys first, then the form (once it is
// drawn and its grace period passed), then the composer. Enter never
// gets here while the composer has the keys: extKey sends it to onEnter.
func (m *Model) onKey(k tea.KeyPressMsg) tea.Cmd {
	if cmd, done := m.viewKey(k); done {
		return cmd
	}
	key := k.String()
	switch key {
	case "ctrl+c":
		if m.running && m.form != nil && m.d.interruptSent.IsZero() {
			// Mid-turn with a question or approval up: refuse it (never
			// accept) and interrupt the turn; the draft stays. A second
			// Ctrl+C quits, as anywhere else.
			m.refuseAll()
			cmd := m.interrupt()
			m.quitArmed = m.now()
			m.status.Notice = "interrupting — " + quitHint
			return cmd
		}
		if m.composer.Value() != "" {
			m.rememberDraft() // paste.go: Up brings it back
			m.composer.Reset()
			m.resizeComposer()
			m.quitArmed = time.Time{}
			return nil
		}
		if m.running && m.form == nil {
			if cmd, done := m.ctrlCInterrupting(); done {
				return cmd
			}
		}
		if !m.quitArmed.IsZero() && m.now().Sub(m.quitArmed) < 3*time.Second {
			return m.quit()
		}
		m.quitArmed = m.now()
		m.status.Notice = quitHint
		if m.running && !m.d.interruptSent.IsZero() {
			m.status.Notice = "interrupt not confirmed — " + quitHint
		}
		return nil
	case "pgup":
		m.scroll(0, -1)
		return nil
	case "pgdown":
		m.scroll(0, 1)
		return nil
	}
	if strings.HasSuffix(m.status.Notice, quitHint) {
		m.status.Notice = ""
		m.quitArmed = time.Time{}
	}
	if m.form != nil && m.formReady {
		cmd := m.form.Update(k)
		return tea.Batch(cmd, m.settleForm())
	}
	if m.graceKey(key) { // grace.go: an Esc meant for the form
		return nil
	}
	switch key {
	case "esc":
		if m.running {
			return m.interrupt()
		}
		return nil
	case "ctrl+d":
		if m.composer.Value() == "" {
			return m.quit()
		}
	}
	if m.backspacePlaceholder(k) { // paste.go: a token goes as a whole
		m.resizeComposer()
		m.prunePastes()
		return nil
	}
	var cmd tea.Cmd
	m.composer, cmd = m.composer.Update(k) // DynamicHeight fits the height
	m.prunePastes()
	return cmd
}

func (m *Model) quit() tea.Cmd {
	if m.d.held != "" {
		// The command line's prompt was never sent (quit at the login
		// form): keep it in the history, where Up finds it next time.
		m.addHistory(m.d.held)
		m.d.held = ""
	}
	m.quitting = true
	m.Close() // transcript.go
	return tea.Quit
}

func (m *Model) submit(text string) tea.Cmd {
	if !m.opts.Shared {
		m.transcript.Append(&ui.UserCell{Text: text})
	}
	m.follow = true
	m.beginTurn()
	m.status.Notice = ""
	start := turnStarter(m.driver, m.x.turn)
	return tea.Batch(func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		_, err := start(ctx, text)
		return turnStartResult{text: text, err: err}
	}, m.startTick(), m.spin.Tick)
}

func (m *Model) interrupt() tea.Cmd {
	if m.driver == nil {
		return nil
	}
	d := m.driver
	m.status.Notice = "interrupting…"
	m.d.interruptSent = m.now()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return interruptResult{err: d.Interrupt(ctx)}
	}
}

// startTick keeps a ~30 Hz tick alive while a turn runs; it redraws the
// elapsed time and flushes throttled streaming renders.
func (m *Model) startTick() tea.Cmd {
	if m.ticking {
		return nil
	}
	m.ticking = true
	m.tickSeq++
	seq := m.tickSeq
	return tea.Tick(33*time.Millisecond, func(time.Time) tea.Msg { return tickMsg{seq: seq} })
}

// resizeComposer fits the composer to its content after the model changed
// its value directly (the textarea's DynamicHeight covers typing).
func (m *Model) resizeComposer() {
	// SetWidth with the window's width (as WindowSizeMsg set it)
	// recomputes the dynamic height from the wrapped rows — a long single
	// line takes several — and keeps the wrap memo, keyed by width.
	if m.width > 0 {
		m.composer.SetWidth(m.width)
	}
}

// scroll moves the transcript view by lines plus pages (a page is the
// transcript's height less 2 lines of overlap).
func (m *Model) scroll(lines, pages int) {
	h := m.transcriptHeight()
	delta := lines + pages*(h-2)
	from := m.top
	if m.follow {
		from = m.transcript.Total() - h
	}
	m.rctx.Tail = m.visibleTail(from+delta, h) // what may come into view gets drawn fully
	total := m.transcript.Sync(m.rctx, m.RenderWidth())
	maxTop := max(0, total-h)
	if m.follow {
		m.top = maxTop
	}
	m.top += delta
	if m.top < 0 {
		m.top = 0
	}
	if m.top >= maxTop {
		m.top = maxTop
		m.follow = true
	} else {
		m.follow = false
	}
}

func (m *Model) banner(kind ui.BannerKind, text string, detail []string) {
	m.transcript.Append(&ui.BannerCell{Kind: kind, Text: text, Detail: detail})
}

// onEvent folds one backend event into the state.
func (m *Model) onEvent(ev backend.Event) tea.Cmd {
	if cmd, done := m.viewEvent(ev); done {
		return cmd
	}
	switch e := ev.(type) {
	case backend.TurnStartedEvent:
		if !m.running {
			m.running = true
			m.turnStarted = m.now()
		}
		return tea.Batch(m.startTick(), m.spin.Tick)
	case backend.TurnCompletedEvent:
		m.endTurn(e.Turn)
		return m.flushQueue() // composer.go: send the next queued prompt
	case backend.ItemStartedEvent:
		m.foldItem(e.Item, false)
	case backend.ItemCompletedEvent:
		m.foldItem(e.Item, true)
	case backend.AgentMessageDeltaEvent:
		c, ok := m.items[e.ItemID].(*ui.AgentCell)
		if !ok {
			c = &ui.AgentCell{ItemID: e.ItemID}
			m.addItem(e.ItemID, c)
		}
		c.Append(e.Delta)
	case backend.ReasoningSummaryDeltaEvent:
		c, ok := m.items[e.ItemID].(*ui.ReasoningCell)
		if !ok {
			c = &ui.ReasoningCell{ItemID: e.ItemID}
			m.addItem(e.ItemID, c)
		}
		c.Append(e.Delta)
		if h := c.Heading(); h != "" {
			m.status.Header = h
		}
	case backend.CommandOutputDeltaEvent:
		c, ok := m.items[e.ItemID].(*ui.CommandCell)
		if !ok {
			c = &ui.CommandCell{ItemID: e.ItemID, Status: "inProgress"}
			m.addItem(e.ItemID, c)
			m.tv.commands = append(m.tv.commands, c)
		}
		c.AppendOutput(e.Delta)
	case backend.PatchUpdatedEvent:
		if c, ok := m.items[e.ItemID].(*ui.FileChangeCell); ok {
			c.SetFiles(m.fileDiffs(e.Changes))
		}
	case backend.TokenUsageEvent:
		m.status.TotalTokens = e.TokenUsage.Total.TotalTokens
		m.status.LastInputTokens = e.TokenUsage.Last.InputTokens
		if e.TokenUsage.ModelContextWindow != nil {
			m.status.ContextWindow = *e.TokenUsage.ModelContextWindow
		}
	case backend.ErrorEvent:
		if e.WillRetry {
			m.banner(ui.BannerWarning, e.Error.Message+" (retrying)", nil)
		} else {
			m.banner(ui.BannerError, e.Error.Message, detailLines(e.Error.AdditionalDetails))
			m.turnErr = e.Error.Message
		}
	case backend.WarningEvent:
		if e.Thread() == "" {
			if m.rec.warned[e.Text()] {
				break
			}
			if m.rec.warned == nil {
				m.rec.warned = map[string]bool{}
			}
			m.rec.warned[e.Text()] = true
		}
		m.banner(ui.BannerWarning, e.Text(), nil)
	case backend.ThreadStatusEvent:
		// A thread that went idle without turn/completed ends the turn —
		// after a grace period, since turn/completed normally follows.
		if e.Status.Type == "idle" && m.running && !m.startingTurn {
			m.turnSeq++
			seq := m.turnSeq
			return tea.Tick(idleGrace, func(time.Time) tea.Msg { return idleCheckMsg{seq: seq} })
		}
	case backend.RequestResolvedEvent:
		return m.resolved(e.RequestID)
	case hub.PresenceEvent:
		m.onPresence(e)
	case backend.ServerExitedEvent:
		m.onServerExited(e) // restart.go
	}
	return nil
}

func detailLines(s *string) []string {
	if s == nil || *s == "" {
		return nil
	}
	return strings.Split(*s, "\n")
}

func (m *Model) endTurn(t backend.Turn) {
	if !m.running && !m.startingTurn {
		m.turnErr = ""
		return
	}
	m.clearTurn()
	m.status.Notice = ""
	m.status.Header = ""
	switch t.Status {
	case backend.TurnInterrupted:
		m.banner(ui.BannerWarning, "Turn interrupted", nil)
	case backend.TurnFailed:
		shown := m.turnErr != "" && (t.Error == nil || t.Error.Message == "" || t.Error.Message == m.turnErr)
		if !shown {
			msg := "Turn failed"
			if t.Error != nil && t.Error.Message != "" {
				msg += ": " + t.Error.Message
			}
			m.banner(ui.BannerError, msg, nil)
		}
	}
	m.turnErr = ""
}

// beginTurn marks a turn as starting: turn/start (or review/start) was
// sent and its answer is awaited.
func (m *Model) beginTurn() {
	m.running, m.startingTurn = true, true
	m.turnStarted = m.now()
}

// clearTurn forgets the running turn, if any: the running flags, an
// interrupt sent for it, and any idle check pending for it (turnSeq).
func (m *Model) clearTurn() {
	m.turnSeq++
	m.running, m.startingTurn = false, false
	m.d.interruptSent = time.Time{}
}

func (m *Model) addItem(id string, c ui.Cell) {
	m.items[id] = c
	m.transcript.Append(c)
}

// foldItem creates or updates the cell for a thread item. final marks
// item/completed (or history), whose content replaces what was streamed.
func (m *Model) foldItem(it backend.Item, final bool) {
	existing := m.items[it.ID]
	switch it.Type {
	case "userMessage":
		// Live user messages are drawn when sent; history draws them here.
		if existing == nil && final && (!m.running || m.opts.Shared) {
			c := &ui.UserCell{Text: it.UserText()}
			m.addItem(it.ID, c)
		}
	case "agentMessage":
		c, ok := existing.(*ui.AgentCell)
		if !ok {
			c = &ui.AgentCell{ItemID: it.ID}
			m.addItem(it.ID, c)
		}
		if final {
			c.SetFinal(it.Text)
		}
		m.tv.lastAnswer = c
	case "reasoning":
		c, ok := existing.(*ui.ReasoningCell)
		if !ok {
			c = &ui.ReasoningCell{ItemID: it.ID}
			m.addItem(it.ID, c)
		}
		if final && len(it.Summary) > 0 {
			c.SetText(strings.Join(it.Summary, "\n\n"))
		}
	case "commandExecution":
		c, ok := existing.(*ui.CommandCell)
		if !ok {
			c = &ui.CommandCell{ItemID: it.ID}
			m.addItem(it.ID, c)
			m.tv.commands = append(m.tv.commands, c)
		}
		m.tv.lastCommand = c
		c.Command, c.Cwd, c.Status, c.ExitCode, c.Source = it.Command, it.Cwd, it.Status, it.ExitCode, it.Source
		if it.DurationMs != nil {
			c.Duration = time.Duration(*it.DurationMs) * time.Millisecond
		}
		// Streamed output is kept (and bounded); the aggregate is used
		// only when nothing streamed (history, or a silent server).
		if final && it.AggregatedOutput != nil && c.OutputBytes() == 0 {
			c.SetOutput(*it.AggregatedOutput)
		}
		c.Touch()
	case "fileChange":
		c, ok := existing.(*ui.FileChangeCell)
		if !ok {
			c = &ui.FileChangeCell{ItemID: it.ID}
			m.addItem(it.ID, c)
		}
		c.Status = it.Status
		if len(it.Changes) > 0 {
			c.SetFiles(m.fileDiffs(it.Changes))
		}
		c.Touch()
	default:
		title, detail := describeItem(it)
		if title == "" {
			return
		}
		c, ok := existing.(*ui.ToolCell)
		if !ok {
			c = &ui.ToolCell{ItemID: it.ID}
			m.addItem(it.ID, c)
		}
		status := it.Status
		if final && status == "" {
			status = "completed"
		}
		c.Markdown = it.Type == "plan" // describe.go: a plan-mode plan is Markdown
		c.Set(title, status, detail)
	}
}
