package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"tandem/backend"
	"tandem/config"
	"tandem/internal/deck"
	"tandem/internal/lib/shellwords"
	"tandem/model"
	"tandem/sessions"
)

// ChatOptions are the command line of `tandem [PROMPT]`, the interactive
// chat (the root command).
type ChatOptions struct {
	Session SessionOptions
	// Prompt, when set, is sent as the first turn.
	Prompt string
	// Images are -i/--image: local image files sent with Prompt (or
	// attached to the first draft when there is none).
	Images []string
	// Worktree, when set, is --worktree's NAME ("" made up): the thread
	// starts in a new git worktree of it (worktree.go).
	Worktree *string
	// worktreeName is --worktree's raw value (worktreeNoName: none given).
	worktreeName string
}

// newChatCmd is the root command: `tandem [PROMPT]`.
func newChatCmd(f *Factory) *cobra.Command {
	var opts ChatOptions
	root := command("chat", chatArgs(&opts), func(cmd *cobra.Command, args []string) error {
		return runChat(cmd.Context(), f, opts, stdioOf(cmd)) // chatArgs set Prompt and Worktree
	})
	root.SilenceUsage, root.SilenceErrors = true, true
	root.Version = f.Version
	cobra.AddTemplateFunc("codexLine", func() string { return codexLine(opts.Session.Codex) })
	root.SetVersionTemplate("tandem {{.Version}}\n{{codexLine}}\n")
	opts.Session.register(root.Flags())
	registerImages(root.Flags(), &opts.Images)         // images.go
	registerWorktree(root.Flags(), &opts.worktreeName) // worktree.go
	opts.Session.registerScreen(root.Flags())
	return root
}

// runChat runs the interactive chat on std (which must be a terminal).
func runChat(ctx context.Context, f *Factory, opts ChatOptions, std stdio) error {
	cfg, err := opts.Session.resolve()
	if err != nil {
		return err
	}
	images, err := checkImages(opts.Images)
	if err != nil {
		return err
	}
	return runInteractive(ctx, f, cfg, interactive{prompt: opts.Prompt, images: images, worktree: opts.Worktree, in: std.in, out: std.out})
}

// interactive is what differs between the interactive commands (tandem
// and tandem resume): the first prompt, the resume request, and the
// terminal, checked by needTerminal.
type interactive struct {
	prompt string
	images []string // -i, checked: absolute local files
	resume *model.ResumeRequest
	// worktree is --worktree's NAME ("" made up), nil without it.
	worktree *string
	// agents opens on the command center with no thread of its own
	// (tandem agents: deckrun.go).
	agents bool
	in     io.Reader
	out    io.Writer
}

// runInteractive starts the TUI at once and the app-server session in the
// background, so the first frame never waits for codex.
func runInteractive(ctx context.Context, f *Factory, cfg runConfig, in interactive) (err error) {
	env, err := f.setup(cfg, setupHooks{
		codexNotFound: func(error) error {
			return errors.New("codex not found — run `tandem demo` to see tandem without Codex, or install with " + backend.InstallHint + " (or pass --codex PATH)")
		},
		// After the codex check, so a missing codex is told first.
		check:   func() error { return needTerminal(in.in, in.out) },
		display: true,
	})
	if err != nil {
		return err
	}
	defer env.closeInto(&err) // a recording cut short is reported, never lost silently
	log := env.log
	if in.worktree != nil {
		env.worktree = &worktreeRun{name: *in.worktree, log: log} // worktree.go
	}

	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	s := cfg.settings
	var owner *sessionOwner // set before the program runs
	// The command center around the run's threads (deckrun.go); its
	// first lane is the run's thread (none for tandem agents).
	host := newDeckHost(ctx, env)
	var m *model.Model
	if !in.agents {
		// owner.go: F5 and /restart start a new app-server on the thread.
		m = model.New(env.modelOptions(in, func(lastTurn string) (model.RestartInfo, error) { return owner.restart(lastTurn) }))
	}
	d := env.newDeck(host, m, in)
	tstp := newTSTPRouter() // suspend.go: kill -TSTP suspends as Ctrl+Z does
	defer tstp.Stop()
	p := tea.NewProgram(d, tea.WithContext(ctx), programFilter(s, tstp))
	tstp.Start(ctx, p.Send)

	// The session is owned here (owner.go); every exit path below closes
	// the current one, which kills the app-server's whole process group.
	// The lanes' events reach the program through deck.Feed: a lane's
	// deltas that came while the program was busy arrive as one message.
	send := deck.Feed(p.Send)
	owner = newSessionOwner(ctx, env, in.resume, host.laneSend(firstLane, send))
	host.attach(owner, send, in.agents)
	go host.run(owner)
	env.reportRecordErrors(p.Send)
	env.warn.attach(p.Send) // warn.go: a log, trace or state file that can't be written
	for _, n := range env.notes {
		go p.Send(backend.WarningEvent{Message: n})
	}

	// SIGTERM or SIGHUP (the terminal closed) quit as /quit does; tandem
	// then exits 143 or 129 (exitstatus.go).
	sig := catchSignals(ctx, func(s os.Signal) {
		log.Info("signal", "sig", s.String())
		p.Quit()
	}, syscall.SIGTERM, syscall.SIGHUP)
	defer sig.Stop()

	defer func() {
		if r := recover(); r != nil {
			cancel()
			host.close()
			shutdown(owner, nil, log)
			panic(r)
		}
	}()
	final, runErr := p.Run()
	log.Info("the program ended", "err", runErr)
	fm := host.shutdown(final, log) // deckrun.go: every lane but the first
	cancel()
	shutdown(owner, fm, log)
	if fm != nil {
		if text := leftRunning(fm, resumeCommand(cfg)); text != "" {
			fmt.Fprintln(in.out, text)
		}
	}
	if runErr != nil && (errors.Is(runErr, tea.ErrProgramPanic) || // a panic is a failure, also when Bubble Tea calls it killed
		!errors.Is(runErr, tea.ErrProgramKilled) && !errors.Is(runErr, context.Canceled)) {
		return runErr
	}
	return sig.Status()
}

// modelOptions are the TUI model's options for an interactive run: the
// first prompt and images, the theme, the status line, the workspace's
// thread and prompt history, the turn timeout, the notifications, the
// screen and the keymap (the config's [keys]); restart is F5's.
func (e *runEnv) modelOptions(in interactive, restart func(lastTurn string) (model.RestartInfo, error)) model.Options {
	s := e.cfg.settings
	return model.Options{
		Prompt:  in.prompt,
		Images:  in.images,
		Dark:    s.Dark(),
		NoColor: os.Getenv("NO_COLOR") != "",
		Status:  e.status(),
		// The last thread and prompt history per workspace.
		State:     e.state(),
		Workspace: e.cwd,
		// codex's own prompts, for Ctrl+R (a local run's shared CODEX_HOME).
		CodexHistory: e.codexHistory(),
		Restart:      restart,
		TurnTimeout:  s.TurnTimeout,
		// unresponsive_after_secs: the status line names a silent server,
		// F5 kills and restarts it (owner.go).
		UnresponsiveAfter: s.UnresponsiveAfter,
		// notify.go: desktop notifications (the config's notifications).
		Notifications: s.Notifications,
		NoAltScreen:   !s.AltScreen,
		Keys:          e.cfg.keys,
		Suspend:       jobControl(),                                // suspend.go: Ctrl+Z
		FindThreads:   searchPlaceOf(e.cfg, e.cwd, false).finder(), // searchfind.go: /search
	}
}

// state is the state file (the workspace's last thread and prompt
// history): a change that can't be saved is told once (warn.go).
func (e *runEnv) state() *sessions.Store {
	st := sessions.Open("")
	st.OnError(func(err error) {
		e.warn.cantWrite("the state file "+st.Path(), err, "the prompt history and the last thread are not kept")
	})
	return st
}

// shutdown refuses every pending server request (never accepting), then
// closes the current session, which stops the app-server and its process
// group. The replies are written synchronously to the server's stdin
// before it is closed, so the server reads them before EOF.
func shutdown(owner *sessionOwner, m *model.Model, log *slog.Logger) {
	sess := owner.current(65 * time.Second)
	if m != nil {
		m.Close() // spilled command output, also after a signal
		st := m.State()
		if st.Durable {
			// The daemon keeps them waiting for the next attach: nothing
			// is answered on the user's behalf.
			log.Info("leaving the daemon's requests pending", "n", len(st.Pending))
			if sess != nil {
				_ = sess.Close() // the link only: the daemon goes on
			}
			return
		}
		for _, r := range st.Pending {
			if !r.Answered() {
				log.Info("refusing pending request on exit", "method", r.Method())
				_ = r.Refuse()
			}
		}
	}
	if sess != nil {
		_ = sess.Close()
	}
	backend.ReapOrphans() // whatever a dead app-server left behind
}

// leftRunning is what tandem says on exit from a session on the daemon
// that goes on without it (a turn running or a request waiting): how to
// come back, with resume. "" otherwise.
func leftRunning(m *model.Model, resume string) string {
	st := m.State()
	if !st.Durable || (!st.Running && len(st.Pending) == 0 && !st.Detached) {
		return ""
	}
	where := "the codex daemon"
	if h := st.Host; h != "" {
		where += " on " + h
	}
	what := "the turn continues on " + where
	if !st.Running {
		what = "the thread stays on " + where
		if len(st.Pending) > 0 {
			what += ", waiting for your answer"
		}
	}
	return "tandem: " + what + "; `" + resume + "` to come back"
}

// resumeCommand is the command line that comes back to the daemon the
// run was on.
func resumeCommand(cfg runConfig) string {
	argv := []string{"tandem", "resume", "--last"}
	switch {
	case cfg.attach:
		argv = append(argv, "--remote", "unix://"+cfg.unixSock)
	case cfg.sshTarget != "":
		argv = append(argv, "--ssh", cfg.sshTarget)
		if cfg.remoteWorkspace != "" {
			argv = append(argv, "--remote-workspace", cfg.remoteWorkspace)
		}
		argv = append(argv, "--daemon")
	case cfg.daemon:
		argv = append(argv, "--daemon")
	}
	return shellwords.Join(argv)
}

// programFilter returns the chat's program filter. It keeps the
// configured theme: with theme "dark" or "light" the terminal's background
// report is dropped, so the model never switches palettes on its own. And
// it shows tstp Bubble Tea's suspend and resume (suspend.go).
func programFilter(s config.Settings, tstp *tstpRouter) tea.ProgramOption {
	fixed := s.Theme == "dark" || s.Theme == "light"
	return tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
		if _, ok := msg.(tea.BackgroundColorMsg); ok && fixed {
			return nil
		}
		return tstp.Filter(msg)
	})
}

// codexLine is --version's second line: the codex tandem would start —
// command (--codex) when given, else by default ($TANDEM_CODEX, PATH,
// .codex-bin) — its version and the tested range.
func codexLine(command string) string {
	tested := "tested with codex " + backend.TestedCodexMin + "–" + backend.TestedCodexMax
	path, v, err := backend.CodexBinaryVersion(command, "")
	switch {
	case path == "" && command != "":
		return "codex: " + command + " can't be run (" + tested + ")"
	case path == "":
		return "codex: not found (" + tested + "; scripts/install-codex.sh installs the pinned one)"
	case err != nil || v == "":
		return "codex: " + path + " (its version is unknown; " + tested + ")"
	}
	line := "codex " + v + " (" + path + "; " + tested + ")"
	if w := backend.UntestedCodex(v); w != "" {
		line += "\nwarning: " + w
	}
	return line
}

// codexHistory is the path of codex's own prompt history, history.jsonl
// in the shared CODEX_HOME of a local run ("" for a remote one: the file
// is the remote's).
func (e *runEnv) codexHistory() string {
	if e.cfg.isRemote() {
		return ""
	}
	return filepath.Join(codexHomeOf(e.cfg.settings.Environ(os.Environ())), "history.jsonl")
}
