package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/lib/redact"
	"tandem/model"
	"tandem/sessions"
	"tandem/ui"
)

// Factory is what the commands share, in the shape of cli/cli's
// cmdutil.Factory: the build version, and setup, the one way a command
// that runs an app-server (tandem, resume, exec, serve) gets its codex,
// log, traces and transport.
type Factory struct {
	// Version is tandem's version: --version, the client version sent
	// in `initialize`, and the header of a --record transcript.
	Version string
}

// setupHooks are where one command's setup differs from the others'.
type setupHooks struct {
	// codexNotFound, when set, replaces a backend.ErrCodexNotFound from
	// locating codex (the interactive commands point at the demo).
	codexNotFound func(error) error
	// check runs once codex is located, before anything is opened (the
	// interactive commands check for a terminal there, so that a missing
	// codex is told first).
	check func() error
	// stderr is where a non-interactive command's warnings go (nil:
	// os.Stderr): a log or trace file that can't be written (warn.go).
	stderr io.Writer
	// display says the run draws the session on this terminal: under
	// `tandem record` (sessions.MarkerFDEnv, backend.RedactDisplayEnv)
	// turn boundaries become cast markers and no secret is drawn.
	display bool
}

// runEnv is what a command that runs an app-server works with once
// Factory.setup has succeeded: the resolved configuration, the local
// codex, the workspace, the log, the --record transcript and the traces
// of every JSON-RPC line, and the transport to the app-server. close
// releases them, after the session has stopped.
type runEnv struct {
	cfg     runConfig
	version string
	codex   string // the local codex; "" over ssh or websocket
	cwd     string // the workspace, absolute
	log     *slog.Logger
	// logOut is the log file, or io.Discard when it could not be opened
	// (serve sends wish's own logger there).
	logOut io.Writer
	// recorder is the open --record transcript, or nil.
	recorder *sessions.Recorder
	// trace sees every JSON-RPC line (--record, --trace-protocol, cast
	// markers), or is nil.
	trace     func(backend.Direction, []byte)
	transport backend.Transport
	// notes are warnings about the run's set-up for the user (shown as
	// banners by the interactive commands).
	notes []string
	// warn tells, once per file, of a log, trace or state file that can't
	// be written (warn.go).
	warn *warner
	// worktree is the chat's --worktree, or nil (worktree.go).
	worktree *worktreeRun
	cleanups []func() error // run by close, last first
}

// status is the status line's values before the server speaks: the
// workspace (statusCwd), the approval policy, the sandbox and the model.
func (e *runEnv) status() ui.StatusInfo {
	s := e.cfg.settings
	return ui.StatusInfo{Cwd: e.cfg.statusCwd(e.cwd), Approval: s.ApprovalPolicy, Sandbox: s.Sandbox, Model: s.Model}
}

// reportRecordErrors logs a --record transcript that stops (a full disk)
// and tells the session through send, from its own goroutine since
// traces run on any goroutine, the program's own included. Without
// --record it does nothing.
func (e *runEnv) reportRecordErrors(send func(tea.Msg)) {
	if e.recorder == nil {
		return
	}
	record := e.cfg.record
	e.recorder.OnError(func(err error) {
		e.log.Error("recording stopped", "file", record, "err", err)
		go send(backend.WarningEvent{Message: "--record " + record + ": recording stopped (" + err.Error() + "); the session goes on"})
	})
}

// setup does what every run of an app-server does first, in this order:
// locate codex (hooks.codexNotFound, then hooks.check), open the log,
// become the child subreaper, open --record and --trace-protocol (a bad
// path is a usage error), and build the transport (the local codex with
// the config's args, env and per-run CODEX_HOME, or --ssh / --remote).
// On an error what was opened is closed again.
func (f *Factory) setup(cfg runConfig, hooks setupHooks) (_ *runEnv, err error) {
	codex, err := cfg.locateCodex()
	if hooks.codexNotFound != nil && errors.Is(err, backend.ErrCodexNotFound) {
		return nil, hooks.codexNotFound(err)
	}
	if err != nil {
		return nil, err
	}
	if hooks.check != nil {
		if err := hooks.check(); err != nil {
			return nil, err
		}
	}
	e := &runEnv{cfg: cfg, version: f.Version, codex: codex, cwd: cfg.settings.Workspace}
	defer func() {
		if err != nil {
			_ = e.close()
		}
	}()
	// warn.go: a log, trace or state file that can't be written is told
	// once (in the TUI for the interactive commands, else on stderr).
	stderr := hooks.stderr
	if stderr == nil {
		stderr = os.Stderr
	}
	e.warn = newWarner(stderr, hooks.display)
	log, closeLog := openLog(cfg.logFile, e.warn)
	e.log = log
	e.logOut = io.Discard
	if w, ok := closeLog.(io.Writer); ok {
		e.logOut = w
	}
	e.cleanups = append(e.cleanups, func() error { _ = closeLog.Close(); return nil })
	if !cfg.durable() {
		// On the daemon the agent's commands are the daemon's children;
		// and the daemon that `daemon start` leaves behind must not be
		// re-parented to tandem, which would reap it as an orphan.
		enableSubreaper(log)
	}

	var traces []func(backend.Direction, []byte)
	if cfg.record != "" {
		rec, err := startRecording(cfg.record, e.cwd, f.Version)
		if err != nil {
			return nil, &usageError{err.Error()} // a bad --record value: exit 2
		}
		path := cfg.record
		e.cleanups = append(e.cleanups, func() error {
			if err := rec.Close(); err != nil {
				return fmt.Errorf("--record %s: the recording is incomplete: %w", path, err)
			}
			return nil
		})
		e.recorder = rec
		traces = append(traces, rec.Trace)
	}
	if cfg.traceProtocol != "" {
		tr, err := openTrace(cfg.traceProtocol)
		if err != nil {
			return nil, &usageError{err.Error()} // a bad --trace-protocol value
		}
		tr.onErr = func(err error) {
			e.warn.cantWrite("--trace-protocol "+cfg.traceProtocol, err, "the protocol trace is incomplete")
		}
		e.cleanups = append(e.cleanups, tr.Close)
		traces = append(traces, tr.Trace)
	}
	if hooks.display && os.Getenv(sessions.MarkerFDEnv) != "" {
		traces = append(traces, markerTrace())
	}
	e.trace = chainTrace(traces...)

	transport, cleanupHome, notes, err := cfg.appServerTransport(codex, e.cwd, log)
	if err != nil {
		return nil, err
	}
	e.notes = notes
	for _, n := range notes {
		log.Warn(n)
	}
	e.cleanups = append(e.cleanups, func() error { cleanupHome(); return nil })
	if hooks.display && os.Getenv(backend.RedactDisplayEnv) != "" {
		// Under `tandem record` (record.go): no secret is drawn on screen.
		transport = backend.RedactTransport(transport)
	}
	e.transport = transport
	return e, nil
}

// close removes the per-run CODEX_HOME, closes the traces and the log.
// Its error is a recording cut short (a run reports it, never loses it
// silently).
func (e *runEnv) close() error {
	var errs []error
	for i := len(e.cleanups) - 1; i >= 0; i-- {
		errs = append(errs, e.cleanups[i]())
	}
	e.cleanups = nil
	return errors.Join(errs...)
}

// closeInto is close for a deferred call: its error becomes *err unless
// *err is already set.
func (e *runEnv) closeInto(err *error) {
	if cerr := e.close(); cerr != nil && *err == nil {
		*err = cerr
	}
}

// openLog opens the log file (flag, or tandem.log in backend.StateDir:
// $XDG_STATE_HOME/tandem or ~/.local/state/tandem). A log that cannot be
// opened is discarded rather than failing the run; warn tells so once,
// and once of the first write that fails (a full disk, /dev/full).
func openLog(path string, warn *warner) (*slog.Logger, io.Closer) {
	what := "the log " + path
	if path == "" {
		path = filepath.Join(backend.StateDir(), "tandem.log")
		what = "the log " + path
		// Only the default folder is created; an explicit --log-file was
		// checked by checkLogFile (options.go).
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			warn.cantWrite(what, err, "tandem runs without a log")
			return slog.New(slog.DiscardHandler), io.NopCloser(nil)
		}
	} else {
		what = "--log-file " + path
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		warn.cantWrite(what, err, "tandem runs without a log")
		return slog.New(slog.DiscardHandler), io.NopCloser(nil)
	}
	w := failWriter{w: f, warn: func(err error) { warn.cantWrite(what, err, "the log is incomplete") }}
	return slog.New(redact.Handler(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo}))), f
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

// startRecording opens the --record transcript with its header.
func startRecording(path, cwd, version string) (*sessions.Recorder, error) {
	w, h := terminalSize(os.Stdout.Fd()) // record.go
	return sessions.CreateRecorder(path, sessions.Header{Tandem: version, Width: w, Height: h, Cwd: ui.ShortHome(cwd)})
}

// sessionOptions are the app-server session settings of a run; send
// feeds the model.
func (e *runEnv) sessionOptions(send func(tea.Msg)) backend.SessionOptions {
	s := e.cfg.settings
	return backend.SessionOptions{
		Transport:      e.transport,
		ClientVersion:  e.version,
		Cwd:            e.threadDir(),
		Model:          s.Model,
		ApprovalPolicy: s.ApprovalPolicy,
		Sandbox:        s.Sandbox,
		AddDirs:        e.cfg.addDirs,
		ResumeCwd:      backend.ResumeCwd(s.ResumeCwd),
		Sink:           func(msg any) { send(msg) },
		Trace:          e.trace,
		Log:            e.log,
	}
}

// startSession starts the app-server and tells the model: with resume
// set the model resumes the thread (or opens the picker) itself, else a
// thread is started here and the model gets its ready message.
func (e *runEnv) startSession(ctx context.Context, resume *model.ResumeRequest, send func(tea.Msg)) (*backend.Session, error) {
	if e.worktree != nil {
		send = e.worktree.watch(send) // worktree.go: the thread's attachment
	}
	// StartSession bounds each step of the start itself (a slow remote
	// login shell has minutes); the 60 s are for what follows.
	sess, err := backend.StartSession(ctx, e.sessionOptions(send))
	if err != nil {
		return nil, err
	}
	if resume != nil {
		send(e.durable(model.SessionReadyMsg{Client: sess, Peer: sess.Describe(), Resume: resume}))
		return sess, nil
	}
	if e.worktree != nil {
		// Made where the agent runs, before thread/start: the thread
		// starts in it (newThread, threadDir). Its commands have their
		// own bounds (backend.DefaultExecTimeout each: a large checkout).
		if _, err := e.worktree.ensure(ctx, sess, e.cfg.threadCwd(e.cwd), send); err != nil {
			return sess, err
		}
	}
	sctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	resp, err := e.newThread(sctx, sess, send)
	if err == nil && e.worktree != nil {
		e.worktree.opened(sess, resp.Thread.ID)
	}
	return sess, err
}

// threadDir is the workspace sent with thread/start: --worktree's once
// made, else the run's (threadCwd).
func (e *runEnv) threadDir() string {
	if p := e.worktree.path(); p != "" {
		return p
	}
	return e.cfg.threadCwd(e.cwd)
}

// newThread starts a thread on sess (`thread/start`) and tells send it is
// ready, warning when --add-dir can have no effect.
func (e *runEnv) newThread(ctx context.Context, sess *backend.Session, send func(tea.Msg)) (backend.ThreadResponse, error) {
	resp, err := sess.StartThreadIn(ctx, e.worktree.path()) // "": the session's Cwd
	if err != nil {
		return resp, err
	}
	send(e.durable(readyMsg(sess, resp)))
	if len(e.cfg.addDirs) > 0 && resp.Sandbox.Type == "readOnly" {
		send(backend.WarningEvent{Message: "--add-dir has no effect while the sandbox is read-only: /approvals or -s workspace-write makes the added directories writable"})
	}
	return resp, nil
}

// durable marks msg as a session on the daemon when the run's transport
// is one (backend.DurableTransport): the model then re-attaches a lost
// link, and leaving leaves the turn running.
func (e *runEnv) durable(msg model.SessionReadyMsg) model.SessionReadyMsg {
	msg.Host, msg.Durable = backend.IsDurable(e.transport)
	return msg
}

// readyMsg tells the model that sess is ready on the thread of resp
// (from thread/start or thread/resume): its model, workspace and policies
// for the status line.
func readyMsg(sess *backend.Session, resp backend.ThreadResponse) model.SessionReadyMsg {
	name := ""
	if resp.Thread.Name != nil {
		name = *resp.Thread.Name
	}
	return model.SessionReadyMsg{
		Client:     sess,
		ThreadID:   resp.Thread.ID,
		ThreadName: name,
		Created:    resp.Thread.CreatedAt,
		Model:      resp.Model,
		Cwd:        peerPath(sess.Describe(), resp.Cwd),
		ThreadCwd:  resp.Cwd,
		Approval:   backend.PolicyString(resp.ApprovalPolicy),
		Sandbox:    resp.Sandbox.Mode(),
		Peer:       sess.Describe(),
	}
}

// peerPath shows path of the named peer: a local one folded to ~, a
// remote one as the server gave it (the local $HOME means nothing there).
func peerPath(peer, path string) string {
	if backend.LocalPeer(peer) {
		return ui.ShortHome(path)
	}
	return path
}
