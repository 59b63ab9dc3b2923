package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/redact"
	"tandem/model"
	"tandem/sessions"
	"tandem/ui"
)

// openLog opens the log file (flag, or tandem.log in backend.StateDir:
// $XDG_STATE_HOME/tandem or ~/.local/state/tandem). A log that cannot be
// opened is discarded rather than failing the run.
func openLog(path string) (*slog.Logger, io.Closer) {
	if path == "" {
		path = filepath.Join(backend.StateDir(), "tandem.log")
		// Only the default folder is created; an explicit --log-file was
		// checked by checkLogFile (logfile.go).
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return slog.New(slog.DiscardHandler), io.NopCloser(nil)
		}
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return slog.New(slog.DiscardHandler), io.NopCloser(nil)
	}
	return slog.New(redact.Handler(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelInfo}))), f
}

// enableSubreaper makes tandem the child subreaper of the commands the
// agent starts in their own session: when the app-server dies they are
// re-parented to tandem and ended with it (backend/reaper_linux.go). A
// failure is logged, not fatal.
func enableSubreaper(log *slog.Logger) {
	if err := backend.EnableSubreaper(); err != nil {
		log.Warn("cannot become a child subreaper", "err", err)
	}
}

// runInteractive starts the TUI at once and the app-server session in the
// background, so the first frame never waits for codex.
func runInteractive(ctx context.Context, f flags, prompt string) (err error) {
	codex, err := f.locateCodex() // codexpath.go
	if errors.Is(err, backend.ErrCodexNotFound) {
		return errors.New("codex not found — run `tandem demo` to see tandem without Codex, or install with " + backend.InstallHint + " (or pass --codex PATH)")
	}
	if err != nil {
		return err
	}
	// After the codex check, so a missing codex is told first.
	if err := needTerminal(f.stdio); err != nil { // tty.go
		return err
	}
	log, closeLog := openLog(f.logFile)
	defer closeLog.Close()
	enableSubreaper(log)

	cwd := f.cd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	cwd, _ = filepath.Abs(cwd)
	closeTraces, err := f.openTraces(cwd) // diag.go
	if err != nil {
		return err
	}
	defer func() { // a recording cut short is reported, never lost silently
		if cerr := closeTraces(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	if os.Getenv(sessions.MarkerFDEnv) != "" {
		f.traces = append(f.traces, markerTrace)
	}

	// Config args, then -c overrides; env and the per-run CODEX_HOME
	// from the config, or --ssh / --remote (settings.go). cleanupHome
	// runs after shutdown.
	transport, cleanupHome, err := f.appServerTransport(codex, cwd, log)
	if err != nil {
		return err
	}
	defer cleanupHome()
	if os.Getenv(sessions.RedactDisplayEnv) != "" {
		// Under `tandem record` (record.go): no secret is drawn on screen.
		transport = sessions.RedactTransport(transport)
	}

	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var owner *sessionOwner // set before the program runs
	m := model.New(model.Options{
		Prompt:  prompt,
		Dark:    f.settings.Dark(),
		NoColor: os.Getenv("NO_COLOR") != "",
		Status:  ui.StatusInfo{Cwd: f.statusCwd(cwd), Approval: f.approval, Sandbox: f.sandbox, Model: f.model},
		// resume.go: the last thread and prompt history per workspace.
		State:     sessions.Open(""),
		Workspace: cwd,
		// owner.go: F5 and /restart start a new app-server on the thread.
		Restart:     func() (model.RestartInfo, error) { return owner.restart() },
		TurnTimeout: f.diag.turnTimeout,
	})
	p := tea.NewProgram(m, tea.WithContext(ctx), themeFilter(f.settings))

	// The session is owned here (owner.go); every exit path below closes
	// the current one, which kills the app-server's whole process group.
	owner = newSessionOwner(ctx, transport, f, cwd, log, p.Send)
	go owner.start()
	if f.recorder != nil {
		f.recorder.OnError(func(err error) {
			log.Error("recording stopped", "file", f.record, "err", err)
			// Traces run on any goroutine, the program's own included.
			go p.Send(backend.WarningEvent{Message: "--record " + f.record + ": recording stopped (" + err.Error() + "); the session goes on"})
		})
	}

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sig)
	go func() {
		select {
		case s := <-sig:
			log.Info("signal", "sig", s.String())
			p.Quit()
		case <-ctx.Done():
		}
	}()

	defer func() {
		if r := recover(); r != nil {
			cancel()
			shutdown(owner, nil, log)
			panic(r)
		}
	}()
	final, runErr := p.Run()
	fm, _ := final.(*model.Model)
	cancel()
	shutdown(owner, fm, log)
	if runErr != nil && !errors.Is(runErr, tea.ErrProgramKilled) && !errors.Is(runErr, context.Canceled) {
		return runErr
	}
	return nil
}

// startSession starts the app-server, opens a thread and tells the model.
func startSession(ctx context.Context, t backend.Transport, f flags, cwd string, log *slog.Logger, send func(tea.Msg)) (*backend.Session, error) {
	sctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	sess, err := backend.StartSession(sctx, sessionOptions(t, f, cwd, log, send))
	if err != nil {
		return nil, err
	}
	if f.resume.req != nil {
		// The model resumes (or opens the picker) itself; see resume.go.
		send(model.SessionReadyMsg{Client: sess, Peer: sess.Describe(), Resume: f.resume.req})
		return sess, nil
	}
	resp, err := sess.StartThread(sctx)
	if err != nil {
		return sess, fmt.Errorf("thread/start: %w", err)
	}
	send(readyMsg(sess, resp))
	return sess, nil
}

// readyMsg tells the model that sess is ready on the thread of resp
// (from thread/start or thread/resume): its model, workspace and policies
// for the status line.
func readyMsg(sess *backend.Session, resp backend.ThreadResponse) model.SessionReadyMsg {
	return model.SessionReadyMsg{
		Client:    sess,
		ThreadID:  resp.Thread.ID,
		Model:     resp.Model,
		Cwd:       peerPath(sess.Describe(), resp.Cwd),
		ThreadCwd: resp.Cwd,
		Approval:  backend.PolicyString(resp.ApprovalPolicy),
		Sandbox:   resp.Sandbox.Mode(),
		Peer:      sess.Describe(),
	}
}

// sessionOptions are the app-server session settings of a run; send
// feeds the model.
func sessionOptions(t backend.Transport, f flags, cwd string, log *slog.Logger, send func(tea.Msg)) backend.SessionOptions {
	return backend.SessionOptions{
		Transport:      t,
		ClientVersion:  buildVersion(),
		Cwd:            f.threadCwd(cwd), // remote.go
		Model:          f.model,
		ApprovalPolicy: f.approval,
		Sandbox:        f.sandbox,
		Sink:           func(msg any) { send(msg) },
		Trace:          chainTrace(f.traces...),
		Log:            log,
	}
}

// shutdown refuses every pending server request (never accepting), then
// closes the current session, which stops the app-server and its process
// group. The replies are written synchronously to the server's stdin
// before it is closed, so the server reads them before EOF.
func shutdown(owner *sessionOwner, m *model.Model, log *slog.Logger) {
	sess := owner.current(65 * time.Second)
	if m != nil {
		m.Close() // spilled command output, also after a signal
		for _, r := range m.Pending() {
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

// shortPath folds $HOME to ~.
func shortPath(p string) string {
	home, err := os.UserHomeDir()
	if err == nil && home != "" && home != "/" {
		if rel, err := filepath.Rel(home, p); err == nil && !filepath.IsAbs(rel) && rel != ".." && !startsWithDotDot(rel) {
			if rel == "." {
				return "~"
			}
			return "~/" + rel
		}
	}
	return p
}

// peerPath shows path of the named peer: a local one folded to ~, a
// remote one as the server gave it (the local $HOME means nothing there).
func peerPath(peer, path string) string {
	if peer == "local" {
		return shortPath(path)
	}
	return path
}

func startsWithDotDot(rel string) bool {
	return len(rel) >= 3 && rel[:3] == "../"
}
