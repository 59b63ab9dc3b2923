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
	"tandem/model"
	"tandem/ui"
)

// openLog opens the log file (flag, or $XDG_STATE_HOME/tandem/tandem.log).
// A log that cannot be opened is discarded rather than failing the run.
func openLog(path string) (*slog.Logger, io.Closer) {
	if path == "" {
		dir := os.Getenv("XDG_STATE_HOME")
		if dir == "" {
			home, _ := os.UserHomeDir()
			dir = filepath.Join(home, ".local", "state")
		}
		path = filepath.Join(dir, "tandem", "tandem.log")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return slog.New(slog.DiscardHandler), io.NopCloser(nil)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return slog.New(slog.DiscardHandler), io.NopCloser(nil)
	}
	return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelInfo})), f
}

// runInteractive starts the TUI at once and the app-server session in the
// background, so the first frame never waits for codex.
func runInteractive(ctx context.Context, f flags, prompt string) (err error) {
	codex, err := backend.LocateCodex(f.codex)
	if err != nil {
		return err
	}
	log, closeLog := openLog(f.logFile)
	defer closeLog.Close()

	cwd := f.cd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	cwd, _ = filepath.Abs(cwd)

	var args []string
	for _, kv := range f.overrides {
		args = append(args, "-c", kv)
	}
	transport := &backend.ProcessTransport{Path: codex, Args: args, Dir: cwd}

	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	m := model.New(model.Options{
		Prompt:  prompt,
		Dark:    true,
		NoColor: os.Getenv("NO_COLOR") != "",
		Status:  ui.StatusInfo{Cwd: shortPath(cwd), Approval: f.approval, Sandbox: f.sandbox, Model: f.model},
	})
	p := tea.NewProgram(m, tea.WithContext(ctx))

	// The session is owned here; every exit path below closes it, which
	// kills the app-server's whole process group.
	sessCh := make(chan *backend.Session, 1)
	go func() {
		sess, err := startSession(ctx, transport, f, cwd, log, p.Send)
		sessCh <- sess
		if err != nil {
			p.Send(model.SessionFailedMsg{Err: err})
		}
	}()

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
			shutdown(sessCh, nil, log)
			panic(r)
		}
	}()
	final, runErr := p.Run()
	fm, _ := final.(*model.Model)
	cancel()
	shutdown(sessCh, fm, log)
	if runErr != nil && !errors.Is(runErr, tea.ErrProgramKilled) && !errors.Is(runErr, context.Canceled) {
		return runErr
	}
	return nil
}

// startSession starts the app-server, opens a thread and tells the model.
func startSession(ctx context.Context, t backend.Transport, f flags, cwd string, log *slog.Logger, send func(tea.Msg)) (*backend.Session, error) {
	sctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	sess, err := backend.StartSession(sctx, backend.SessionOptions{
		Transport:      t,
		ClientVersion:  buildVersion(),
		Cwd:            cwd,
		Model:          f.model,
		ApprovalPolicy: f.approval,
		Sandbox:        f.sandbox,
		Sink:           func(msg any) { send(msg) },
		Log:            log,
	})
	if err != nil {
		return nil, err
	}
	resp, err := sess.StartThread(sctx)
	if err != nil {
		return sess, fmt.Errorf("thread/start: %w", err)
	}
	send(model.SessionReadyMsg{
		Driver:   sess,
		Model:    resp.Model,
		Cwd:      shortPath(resp.Cwd),
		Approval: backend.PolicyString(resp.ApprovalPolicy),
		Sandbox:  resp.Sandbox.Mode(),
		Peer:     sess.Describe(),
	})
	return sess, nil
}

// shutdown refuses every pending server request (never accepting), then
// closes the session, which stops the app-server and its process group.
func shutdown(sessCh chan *backend.Session, m *model.Model, log *slog.Logger) {
	var sess *backend.Session
	select {
	case sess = <-sessCh:
	case <-time.After(65 * time.Second):
	}
	if m != nil {
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

func startsWithDotDot(rel string) bool {
	return len(rel) >= 3 && rel[:3] == "../"
}
