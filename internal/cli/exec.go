package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"tandem/backend"
	"tandem/internal/lib/redact"
	"tandem/internal/lib/termsafe"
)

// execIO is where `tandem exec` reads the prompt and writes its output.
// TTY says stdout is a terminal (the answer is rendered as Markdown, Width
// columns wide).
type execIO struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	TTY            bool
	Width          int
}

// ExecOptions are the command line of `tandem exec PROMPT`: the session
// flags, --json, and the prompt ("-" reads it from stdin).
type ExecOptions struct {
	Session SessionOptions
	JSON    bool
	Prompt  string
	// Images are -i/--image: local image files sent with the prompt.
	Images []string
}

func newExecCmd(f *Factory) *cobra.Command {
	var opts ExecOptions
	cmd := command("exec", cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
		opts.Prompt = args[0]
		out := cmd.OutOrStdout()
		tty, width := false, 0
		if file, ok := out.(*os.File); ok && term.IsTerminal(file.Fd()) {
			tty = true
			if w, _, err := term.GetSize(file.Fd()); err == nil {
				width = w
			}
		}
		// Ctrl+C, SIGTERM or SIGHUP interrupt the turn; tandem exec then
		// exits 130, 143 or 129 (exitstatus.go). A second one ends it at
		// once.
		ctx, cancel := context.WithCancel(cmd.Context())
		defer cancel()
		sig := catchSignalsOrExit(ctx, func(os.Signal) { cancel() }, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		defer sig.Stop()
		err := runExec(ctx, f, opts, execIO{Stdin: cmd.InOrStdin(), Stdout: out, Stderr: cmd.ErrOrStderr(), TTY: tty, Width: width})
		if st := sig.Status(); st != nil {
			if err != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), "tandem: "+termsafe.Plain(err.Error()))
			}
			return st
		}
		return err
	})
	opts.Session.register(cmd.Flags())
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "write JSONL events (one typed event per line) instead of the answer")
	registerImages(cmd.Flags(), &opts.Images) // images.go
	return cmd
}

// runExec runs one turn of opts.Prompt ("-" reads it from eio.Stdin) on
// a new thread and reports it to eio. It returns nil only when the turn
// completed; a failed, interrupted or timed-out turn, or an app-server
// that exits early, is an error (exit status 1).
func runExec(ctx context.Context, f *Factory, opts ExecOptions, eio execIO) (err error) {
	cfg, err := opts.Session.resolve()
	if err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	prompt := opts.Prompt
	if prompt == "-" {
		data, err := io.ReadAll(eio.Stdin)
		if err != nil {
			return fmt.Errorf("reading the prompt from stdin: %w", err)
		}
		prompt = string(data)
	}
	if strings.TrimSpace(prompt) == "" {
		return &usageError{"exec: the prompt is empty"}
	}
	images, err := checkImages(opts.Images)
	if err != nil {
		return err
	}
	env, err := f.setup(cfg, setupHooks{stderr: eio.Stderr})
	if err != nil {
		return err
	}
	defer env.closeInto(&err) // a recording cut short is reported, never lost silently

	events := make(chan any, 1024)
	sink := func(msg tea.Msg) { events <- msg }
	// StartSession bounds each step of the start itself (a slow remote
	// login shell has minutes); the 60 s are for what follows.
	sess, err := backend.StartSession(ctx, env.sessionOptions(sink))
	if err != nil {
		return fmt.Errorf("starting the app-server: %s", redact.String(err.Error()))
	}
	defer sess.Close()
	sctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()

	out := &execOutput{io: eio, jsonl: opts.JSON, dark: cfg.settings.Dark()}
	thread, err := sess.StartThread(sctx)
	if err != nil {
		return errors.New(redact.String(err.Error())) // backend names the method
	}
	out.emit(execEvent{Type: "thread.started", ThreadID: thread.Thread.ID, Model: thread.Model})
	images, err = execImages(sctx, sess, thread.Model, thread.Cwd, images) // images.go
	if err != nil {
		return err
	}
	turn, err := sess.StartTurn(sctx, backend.TurnInput{Text: prompt, Images: images})
	if err != nil {
		return errors.New(redact.String(err.Error())) // backend names the method
	}
	cancel()

	limit := cfg.settings.TurnTimeout
	var timeout <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(limit)
		defer t.Stop()
		timeout = t.C
	}
	interrupt := func(why string) error {
		ictx, icancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer icancel()
		_ = sess.Interrupt(ictx)
		out.emit(execEvent{Type: "turn.failed", TurnID: turn.ID, Status: backend.TurnInterrupted, Error: &execError{Message: why}})
		return errors.New(why)
	}
	for {
		select {
		case <-ctx.Done():
			return interrupt("interrupted")
		case <-timeout:
			return interrupt(fmt.Sprintf("turn timed out after %v", limit))
		case v := <-events:
			done, err := out.handle(v, turn.ID)
			if done {
				return err
			}
		}
	}
}
