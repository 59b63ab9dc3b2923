package model

import (
	"time"

	"charm.land/bubbles/v2/cursor"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
	"tandem/forms"
	"tandem/internal/hub"
	"tandem/model/act"
	"tandem/model/commands"
	"tandem/model/composer"
	"tandem/model/keys"
	"tandem/model/overlay"
	"tandem/model/rewind"
	"tandem/model/status"
	"tandem/model/transcript"
	"tandem/model/turn"
	"tandem/sessions"
	"tandem/ui"
)

// Options configure a Model.
type Options struct {
	// Prompt, when set, is sent as the first turn once the session is ready.
	Prompt string
	// Images are local image files (absolute paths, checked: -i) sent
	// with Prompt, or attached to the draft when there is no Prompt.
	Images []string
	// Dark selects the dark palette; NoColor the colourless one.
	Dark, NoColor bool
	// Status is the initial status line (model, cwd, policies).
	Status ui.StatusInfo
	// FormGrace is how long a new form ignores keys at least (0 = 400 ms),
	// and FormQuiet how long no key must have been pressed before it takes
	// them (0 = 500 ms, or FormGrace when that is set), so typing in
	// flight never answers it (model/overlay).
	FormGrace, FormQuiet time.Duration
	// Clock is the one clock every timer reads (act.Env.Clock; nil:
	// act.RealClock): the keys' hold and a paste typed as keys
	// (model/composer), a form's and a command question's grace, Esc Esc,
	// the quit window, the frame ticks, the re-attach's backoff.
	Clock act.Clock
	// Now is the time the screen shows (nil: time.Now; tests pin it for
	// golden screens): a turn's elapsed seconds, and the turn timeout
	// measured on them (model/turn), threads' ages in the resume picker.
	// It times no key and no form.
	Now func() time.Time
	// ReadOnly makes a watcher's model for `tandem serve` (role.go): it
	// only scrolls, opens the pager and leaves; it starts no turn and
	// answers no server request.
	ReadOnly bool
	// Shared marks a model fed by the pairing hub or a replay: user
	// messages are drawn from the thread's items, so every viewer sees
	// every prompt.
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
	// CodexHistory is codex's own prompt history (history.jsonl in the
	// local CODEX_HOME), which Ctrl+R lists with every workspace's
	// prompts ("": none; a remote run's is the remote's).
	CodexHistory string
	// Restart, when set, closes the app-server, starts a new one and
	// resumes the current thread with `thread/resume` (F5 and /restart,
	// model/turn); it blocks until done and sends the new
	// SessionReadyMsg (without History: the transcript is kept) before
	// returning. lastTurn is the newest turn the transcript holds (""
	// for none): a re-attach to the daemon reads the thread's history
	// back to it, and no further.
	Restart func(lastTurn string) (RestartInfo, error)
	// TurnTimeout, when > 0, is how long a turn runs before tandem offers
	// to interrupt it.
	TurnTimeout time.Duration
	// UnresponsiveAfter, when > 0, is how long the app-server may owe an
	// answer and say nothing before the status line names it ("codex
	// has not answered for 42 s") and F5 kills and restarts it
	// (model/turn; the config's unresponsive_after_secs).
	UnresponsiveAfter time.Duration
	// Notifications is when a desktop notification is sent (model/status):
	// "unfocused" ("" too), "always" or "off". Getenv describes the
	// terminal for it (nil: os.Getenv).
	Notifications string
	Getenv        func(string) string
	// Keys is the keymap (nil: keys.Default()); the config's [keys] has
	// rebound it already.
	Keys *keys.Map
	// NoAltScreen (--no-alt-screen) runs inline instead of in the
	// alternate screen: finished cells are printed into the terminal's
	// scrollback once each, and only the live area is redrawn
	// (model/transcript). The pager and a sub-agent's view still take the
	// alternate screen while open.
	NoAltScreen bool
	// Suspend says Ctrl+Z may stop tandem (model/commands' Suspend): the
	// terminal is tandem's own and a shell with job control started it.
	// Left false, Ctrl+Z only says why it does not suspend.
	Suspend bool
	// FindThreads searches across threads for /search (internal/cli's:
	// the rollouts on this machine, else the server's thread/search; nil:
	// /search says it is not available here).
	FindThreads act.ThreadFinder
}

// Model is the Bubble Tea model: a router over the thread's fold and the
// components one viewer drives. Use New; it is used by pointer.
//
// The transcript is the fold of backend events (thread.State) drawn as ui
// cells (model/transcript); everything else here belongs to this viewer: the
// composer, the request queue and its form, the pager, the pickers, the
// login form and the recovery state.
type Model struct {
	opts Options // Now and Clock set (New)
	keys *keys.Map

	width, height int
	styles        ui.Styles // the palette's (setPalette; the components have theirs)

	// panes are the threads' folds and their drawing: the session's
	// thread and its sub-agents, the pager, the scrollback
	// (model/transcript); drawn is what the last View drew (view.go).
	panes *transcript.Panes
	drawn drawState

	composer *composer.Composer // model/composer: the draft, its history, pastes, images, popups, key timing
	rewind   *rewind.Rewind     // model/rewind: Esc Esc, /undo, the snapshots of the files the agent changed
	// overlay is the server requests' queue and forms, the pickers and
	// the login form (model/overlay).
	overlay *overlay.Overlay
	// turn is the session's client, the turn machine, the thread's
	// lifecycle and recovery (model/turn).
	turn *turn.Turns
	// commands are the slash commands and the question one asks before
	// it runs (model/commands).
	commands *commands.Commands
	// stat is the status line, the notice, notifications and the title
	// (model/status); env is what the components are built with: its
	// Out is what they asked for during the message being handled
	// (model/act), carried out by apply.
	stat *status.Status
	env  act.Env

	quitting bool
}

// New returns a model.
func New(opts Options) *Model {
	opts.FormGrace, opts.FormQuiet = overlay.Periods(opts.FormGrace, opts.FormQuiet) // tests shorten both at once
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Clock == nil {
		opts.Clock = act.RealClock{}
	}
	km := opts.Keys
	if km == nil {
		km = keys.Default()
	}
	m := &Model{opts: opts, keys: km}
	m.env = act.Env{Out: &act.Out{}, Clock: opts.Clock, Role: act.NewRole(opts.ReadOnly, opts.Shared, opts.Guest)}
	m.stat = status.New(m.env, status.Options{Info: opts.Status, Notifications: opts.Notifications, Getenv: opts.Getenv})
	m.panes = transcript.New(m.env, transcript.Look{}, transcript.Options{NoAltScreen: opts.NoAltScreen, NoColor: opts.NoColor, Keys: km})
	m.overlay = newOverlay(m)   // overlay.go
	m.rewind = newRewind(m)     // rewind.go
	m.commands = newCommands(m) // commands.go
	m.composer = newComposer(m) // compose.go
	m.setPalette(opts.Dark)
	m.opts.Prompt = m.composer.AttachStart(opts.Images, m.opts.Prompt) // -i: the images lead the prompt, or start the draft
	m.turn = newTurns(m)                                               // turns.go
	return m
}

// setPalette picks the styles, the Markdown renderer and the form theme
// for a dark or light background.
func (m *Model) setPalette(dark bool) {
	m.opts.Dark = dark
	width := m.styles.Width // the terminal's, not the palette's
	m.styles = ui.NewStyles(dark)
	m.styles.Width = width
	style := "dark"
	if !dark {
		style = "light"
	}
	// NoColor keeps the dark style's layout (borders, bullets); Bubble
	// Tea's colour profile strips the colours themselves.
	m.composer.SetDark(dark)
	m.panes.SetLook(transcript.Look{Styles: m.styles, Markdown: ui.NewMarkdown(style)})
	m.overlay.SetLook(overlay.Look{Styles: m.styles, Theme: forms.Theme(dark, m.opts.NoColor), Inline: m.panes.Inline()})
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return tea.Batch(textarea.Blink, tea.RequestBackgroundColor) }

// Close removes the temp files of spilled command output. Every way a
// program ends calls it (quit, a signal, a pairing client leaving); it is
// safe to call more than once, and the model can still draw.
func (m *Model) Close() { m.panes.Close() }

// Update implements tea.Model. It routes msg to the part of the model it
// belongs to: a watcher's keys to the role filter, input to the form, the
// pager, a picker, the login form or the composer, events to the fold,
// replies and results to the component that asked. With NoAltScreen it
// then prints what finished into the scrollback (model/transcript).
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if !m.panes.Inline() {
		return m.update(msg)
	}
	if cp, ok := msg.(tea.ColorProfileMsg); ok {
		m.panes.ColorProfile(cp)
	}
	full := m.panes.FullScreen()
	_, cmd := m.update(msg)
	return m, tea.Batch(cmd, m.panes.AfterUpdate(full, m.printFacts()))
}

// printFacts are what printing into the scrollback asks of the rest of
// the screen (model/transcript).
func (m *Model) printFacts() transcript.PrintFacts {
	return transcript.PrintFacts{Running: m.turn.Running(), Quitting: m.quitting, Bottom: func() int { return len(m.bottom()) }}
}

func (m *Model) update(msg tea.Msg) (_ tea.Model, cmd tea.Cmd) {
	defer m.syncAwaiting() // overlay.go
	defer func() {
		cmd = tea.Batch(cmd, m.apply()) // apply.go: what the components asked for
		m.overlay.Refit(false)          // model/overlay: the form's room may have changed
		if c := m.apply(); c != nil {
			cmd = tea.Batch(cmd, c)
		}
	}()
	m.overlay.NoteInput(msg) // model/overlay: a form's grace
	delta := isDelta(msg)
	_, tick := msg.(status.Tick)
	m.drawn.took(delta, tick)                                                 // view.go: what the next View may reuse
	m.env.Out.Cmd(wakeTimers(&m.drawn, m.stat, m.composer, m.turn.Running())) // view.go: on screen again
	if !delta && !bottomOnly(msg) && !m.composer.BurstGoesOn(msg) {
		m.panes.Flush() // deltas coalesce until the next other message (or paste burst key), events.go
	}
	if cmd, done := m.roleFilter(msg); done { // role.go
		return m, cmd
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return m, m.onWindowSize(msg)
	case tea.KeyPressMsg:
		return m, m.keyIn(msg) // compose.go: the composer's gate, then keys.go
	case tea.PasteMsg:
		return m, m.onPaste(msg.Content)
	case tea.MouseWheelMsg:
		return m, m.onWheel(msg)
	case tea.BackgroundColorMsg:
		if msg.IsDark() != m.styles.Dark || m.panes.Look().Markdown == nil {
			m.setPalette(msg.IsDark()) // the panes draw everything again
			m.drawn.bottom = nil
		}
		return m, nil
	case transcript.Msg:
		return m, m.panes.Update(msg, m.printFacts())
	case tea.ModeReportMsg:
		if graphemeTerminal(msg) {
			// The renderer measures by cluster from now on; so do the
			// composer, the transcript and the status line.
			m.composer.SetWidthMethod(ansi.GraphemeWidth)
			m.styles.Width = ansi.GraphemeWidth
			m.setPalette(m.styles.Dark) // the panes draw everything again
			m.drawn.bottom = nil
		}
		return m, nil
	case tea.FocusMsg, tea.BlurMsg:
		_, in := msg.(tea.FocusMsg)
		m.stat.OnFocus(in) // model/status
		return m, nil
	case SessionReadyMsg: // the session (model/turn), once the panes left the sub-agents
		m.panes.LeaveAgents() // a (re)started server is the thread's
		m.rewind.Restarted()  // model/rewind: a rewind chosen is of the server that went away
		m.turn.OnReady(msg)
		m.overlay.CheckAccount() // model/overlay: the login form, if one is needed
		return m, nil
	case PeerMsg:
		m.stat.Apply(act.Settings{Peer: &msg.Peer}) // model/status
		return m, nil
	case DeckInfo:
		m.stat.OnDeck(msg.Waiting, msg.Running, msg.Key) // model/status: the other threads that wait or run
		return m, nil
	case ShownMsg: // view.go: off screen, the drawing timers go quiet
		m.drawn.off = !msg.Shown
		if msg.Shown {
			m.overlay.Reshow() // model/overlay: a form's grace starts over on screen
		}
		return m, wakeTimers(&m.drawn, m.stat, m.composer, m.turn.Running())
	case SessionFailedMsg:
		m.turn.OnFailed(msg.Err, msg.What) // model/turn
		return m, nil
	case SuspendMsg:
		m.commands.Suspend() // model/commands: Ctrl+Z's, for an outside SIGTSTP
		return m, nil
	case InfoMsg:
		m.panes.Banner(act.Banner{Kind: ui.BannerInfo, Text: msg.Text})
		return m, nil
	case backend.RetryNotice:
		m.turn.OnRetry(msg) // model/turn
		return m, nil
	case backend.SubAgentEvent:
		m.panes.FoldAgent(msg) // model/transcript: the sub-agent's own pane
		return m, nil
	case backend.ServerRequest:
		m.overlay.Request(msg) // model/overlay
		return m, nil
	case backend.RequestView:
		m.overlay.Watch(msg) // model/overlay: a watcher's "waiting for …"
		return m, nil
	case overlay.Msg:
		m.overlay.Update(msg) // its timers, replies sent
		return m, nil
	case hub.PresenceEvent:
		m.stat.OnPresence(msg) // model/status
		return m, nil
	case hub.ActionEvent:
		m.panes.OnAction(msg) // model/transcript: who sent what
		return m, nil
	case backend.LoginCompletedEvent:
		m.overlay.LoginCompleted(msg) // model/overlay
		return m, nil
	case backend.Event:
		cmd := m.onEvent(msg) // events.go
		if !m.stat.Ticking() {
			m.panes.Flush() // no frame tick running: draw now
		}
		return m, cmd
	case FrameMsg:
		// Not a delta: the transcript was flushed above. The spinner
		// moves on a frame, as its own tick would have moved it; the
		// next tick it asks for is the driver's to give.
		if m.turn.Running() {
			m.stat.Step()
		}
		return m, nil
	case status.Msg: // a frame tick (the turn-timeout offer is checked on each), the quit window's end
		m.turn.CheckTimeout() // model/turn
		return m, m.stat.Update(msg, m.turn.Running(), !m.drawn.off)
	case spinner.TickMsg:
		return m, m.stat.OnSpin(msg, m.turn.Running()) // model/status
	case FrameRateMsg:
		return m, m.stat.SetFrameRate(msg.Every, msg.Seq, m.turn.Running())
	case turn.Msg: // its timers, a restart's outcome
		m.turn.Update(msg)
		return m, nil
	case composer.Msg: // its timers, the clipboard, the editor, a pasted path's check
		if v := m.composer.Update(msg); v.Do == composer.Release {
			return m, m.composer.Act(v, m.onKey) // a held key that stood alone
		}
		return m, nil
	case act.Done: // a call's result, for the component that asked
		switch msg.For {
		case act.ToComposer:
			m.composer.Result(msg.Msg)
		case act.ToOverlay:
			m.overlay.Result(msg.Msg)
		case act.ToRewind:
			m.rewind.Result(msg.Msg)
		case act.ToCommands:
			m.commands.Result(msg.Msg)
		case act.ToPanes:
			m.panes.OnDone(msg.Msg, m.doneFacts())
		case act.ToTurn:
			m.turn.Result(msg.Msg)
		}
		return m, nil
	}
	if cmd, ok := m.onResult(msg); ok { // results.go: what commands come back with
		return m, cmd
	}
	// Anything else (cursor blink, form internals) goes to the focused
	// component; a blink only while the model is drawn (view.go).
	if _, ok := msg.(cursor.BlinkMsg); ok && !blinkGoesOn(&m.drawn) {
		return m, nil
	}
	m.overlay.Update(msg)  // the form's and the login form's
	m.composer.Update(msg) // the cursor's blink
	return m, nil
}

// doneFacts are what the panes' results and intents read of the model.
func (m *Model) doneFacts() transcript.DoneFacts {
	open := ""
	if c := m.turn.Client(); c != nil {
		open = c.ThreadID()
	}
	return transcript.DoneFacts{Height: m.transcriptHeight(), CanRead: m.turn.Client() != nil, Switching: m.turn.Switching(), Open: open}
}

// graphemeTerminal reports whether msg says the terminal knows Unicode
// core mode (2027): Bubble Tea's renderer then turns it on and measures
// text by grapheme cluster instead of code point by code point (the same
// test as its own), and so must the composer.
func graphemeTerminal(msg tea.ModeReportMsg) bool {
	return msg.Mode == ansi.ModeUnicodeCore &&
		(msg.Value == ansi.ModeReset || msg.Value == ansi.ModeSet || msg.Value == ansi.ModePermanentlySet)
}

func (m *Model) onWindowSize(msg tea.WindowSizeMsg) tea.Cmd {
	m.width, m.height = msg.Width, msg.Height
	m.composer.SetWidth(msg.Width)
	m.overlay.Refit(true)                        // model/overlay
	return m.panes.Resize(msg.Width, msg.Height) // model/transcript
}

// Quit returns the command that ends the program as /quit does (the
// replay's Ctrl+C): a prompt never sent is kept in the history, with
// NoAltScreen every cell not printed yet is printed first, and spilled
// output is removed.
func (m *Model) Quit() tea.Cmd {
	if held := m.turn.TakeHeld(); held != "" {
		// The command line's prompt was never sent (quit at the login
		// form): keep it in the history, where Up finds it next time.
		m.composer.AddHistory(held)
	}
	if note := m.turn.QuitNote(len(m.overlay.Requests())); note != "" && m.panes.Inline() && !m.quitting {
		m.panes.Banner(act.Banner{Kind: ui.BannerQuiet, Text: note}) // model/turn: the scrollback says what was cut short
	}
	quit := m.panes.Quit(tea.Quit, m.printFacts()) // model/transcript: what is live is printed first
	m.quitting = true
	m.Close()
	return quit
}
