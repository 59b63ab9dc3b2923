package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"tandem/backend"
	"tandem/model"
	"tandem/sessions"
	"tandem/sessions/demo"
	"tandem/ui"
)

// replayOptions are the flags of `tandem replay` and `tandem demo`.
type replayOptions struct {
	speed     float64
	idleLimit float64 // seconds
}

func (o *replayOptions) register(cmd *cobra.Command) {
	cmd.Flags().Float64Var(&o.speed, "speed", 1, "playback rate (2 = twice as fast)")
	cmd.Flags().Float64Var(&o.idleLimit, "idle-limit", 2, "cap every pause between events at this many seconds (0 = no cap)")
}

func (o *replayOptions) player(rec *sessions.Recording) (*sessions.Player, error) {
	if o.speed <= 0 {
		return nil, &usageError{fmt.Sprintf("invalid value %g for --speed: must be positive", o.speed)}
	}
	if o.idleLimit < 0 {
		return nil, &usageError{fmt.Sprintf("invalid value %g for --idle-limit: must not be negative", o.idleLimit)}
	}
	return sessions.NewPlayer(rec, sessions.PlayerOptions{
		Speed:     o.speed,
		IdleLimit: time.Duration(o.idleLimit * float64(time.Second)),
	}), nil
}

// play replays rec in the TUI with the speed options.
func (o replayOptions) play(cmd *cobra.Command, rec *sessions.Recording) error {
	if needTerminal([2]any{cmd.InOrStdin(), cmd.OutOrStdout()}) != nil { // tty.go
		return &usageError{cmd.CommandPath() + " needs a terminal; `tandem export FILE` writes a recording as Markdown"}
	}
	p, err := o.player(rec)
	if err != nil {
		return err
	}
	return runReplay(cmd.Context(), p, replayStatus(rec))
}

func newReplayCmd() *cobra.Command {
	var o replayOptions
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Replay a session recorded with --record, at any terminal size",
		Long: "Replay a protocol transcript written by `tandem --record FILE` with its original timing.\n" +
			"Keys: space pauses, → steps to the next event, +/- change the speed, ctrl+c quits.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rec, err := sessions.LoadRecording(args[0])
			if err != nil {
				return err
			}
			return o.play(cmd, rec)
		},
	}
	o.register(cmd)
	return cmd
}

func newDemoCmd() *cobra.Command {
	var o replayOptions
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Show tandem without Codex: replay a built-in session",
		Long: "Replay a session recorded from the real codex app-server (with a scripted model):\n" +
			"a streamed Markdown answer, an approved file change and command, a question form and a plan.\n" +
			"Needs no Codex install and no account. Keys: space pauses, → steps, +/- change the speed.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rec, err := sessions.ReadRecording(bytes.NewReader(demo.Transcript))
			if err != nil {
				return fmt.Errorf("built-in demo: %w", err)
			}
			return o.play(cmd, rec)
		},
	}
	o.register(cmd)
	return cmd
}

func newExportCmd() *cobra.Command {
	var format, out string
	cmd := &cobra.Command{
		Use:   "export FILE",
		Short: "Turn a recorded session into Markdown",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "md" && format != "markdown" {
				return &usageError{fmt.Sprintf("invalid value %q for --format: allowed values are md", format)}
			}
			rec, err := sessions.LoadRecording(args[0])
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if out != "" && out != "-" {
				f, err := os.OpenFile(out, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
				if err != nil {
					return err
				}
				defer f.Close()
				w = f
			}
			return sessions.ExportMarkdown(w, rec)
		},
	}
	cmd.Flags().StringVar(&format, "format", "md", "output format: md")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to FILE instead of stdout")
	return cmd
}

// replayStatus is the status line's starting state for a recording.
func replayStatus(rec *sessions.Recording) ui.StatusInfo {
	return ui.StatusInfo{Cwd: rec.Header.Cwd, Peer: "replay", NoInterrupt: true, Notice: "replay: waiting for the recorded session to start"}
}

// replayModel wraps the ordinary model with the playback keys; everything
// else goes to the model unchanged, so the screen is drawn exactly as live.
type replayModel struct {
	*model.Model
	player *sessions.Player
	peer   *string // the playback state shown in the status line
}

// Update implements tea.Model.
func (r replayModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch msg.String() {
		case "ctrl+c":
			// A replayed turn can't be interrupted, so quit at once.
			return r, tea.Quit
		case "space":
			r.player.Toggle()
			return r, nil
		case "right":
			r.player.Step()
			return r, nil
		case "+", "=":
			r.player.Faster()
			return r, nil
		case "-", "_", "−":
			r.player.Slower()
			return r, nil
		}
	case sessions.PlayerStatus:
		*r.peer = msg.String()
		r.SetPeer(*r.peer)
		return r, nil
	}
	_, cmd := r.Model.Update(msg)
	if _, ok := msg.(model.SessionReadyMsg); ok && *r.peer != "" {
		r.SetPeer(*r.peer)
	}
	return r, cmd
}

// replaySink adapts what a Player yields to the model's messages.
func replaySink(send func(tea.Msg)) func(any) {
	return func(v any) {
		switch x := v.(type) {
		case sessions.ThreadReady:
			send(model.SessionReadyMsg{
				ThreadID: x.ThreadID, Model: x.Model, Cwd: shortPath(x.Cwd), ThreadCwd: x.Cwd,
				Approval: x.Approval, Sandbox: x.Sandbox, Peer: "replay", History: x.History,
			})
			return
		case backend.TurnStartedEvent:
			sessions.EmitMarker("turn started")
		case backend.TurnCompletedEvent:
			sessions.EmitMarker("turn completed")
		}
		send(v)
	}
}

// runReplay plays p in the TUI until the user quits.
func runReplay(ctx context.Context, p *sessions.Player, status ui.StatusInfo) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	m := model.New(model.Options{Dark: true, NoColor: os.Getenv("NO_COLOR") != "", Status: status, Shared: true}) // prompts from the recorded items
	prog := tea.NewProgram(replayModel{Model: m, player: p, peer: new(string)}, tea.WithContext(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.Run(ctx, replaySink(prog.Send))
	}()
	// SIGTERM or SIGHUP (the terminal closed) end the replay like ctrl+c.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sig)
	go func() {
		select {
		case <-sig:
			prog.Quit()
		case <-ctx.Done():
		}
	}()
	_, err := prog.Run()
	m.Close() // spilled command output
	cancel()
	<-done
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}
