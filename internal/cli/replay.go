package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"tandem/backend"
	"tandem/internal/frames"
	"tandem/model"
	"tandem/model/keys"
	"tandem/sessions"
	"tandem/sessions/demo"
	"tandem/ui"
)

// ReplayOptions are the command line of `tandem replay FILE` and `tandem
// demo`: the playback flags and what to play.
type ReplayOptions struct {
	Speed     float64 // --speed: playback rate (2 = twice as fast)
	IdleLimit float64 // --idle-limit: the longest pause, in seconds (0: no cap)
	// File is the recording of `tandem replay FILE`; Demo plays the
	// built-in session instead (`tandem demo`).
	File string
	Demo bool
	// NoAltScreen is --no-alt-screen: play inline, the finished cells
	// into the terminal's scrollback.
	NoAltScreen bool
	// Find is --find TEXT: start at its first match, the search line
	// open (replayfind.go).
	Find string
}

func (o *ReplayOptions) register(cmd *cobra.Command) {
	speedFlag(cmd.Flags(), &o.Speed, "playback rate (2 = twice as fast)")
	idleLimitFlag(cmd.Flags(), &o.IdleLimit, "idle-limit", "cap every pause between events at this many seconds (0 = no cap)")
	cmd.Flags().BoolVar(&o.NoAltScreen, "no-alt-screen", false, "play inline, not in the alternate screen: finished output goes into the terminal's scrollback")
	cmd.Flags().StringVar(&o.Find, "find", "", "start at the first match of this text (a prompt, answer, command or its output; case-insensitive), the search line open")
}

func (o ReplayOptions) player(rec *sessions.Recording) (*sessions.Player, error) {
	if o.Speed <= 0 {
		return nil, &usageError{fmt.Sprintf("invalid value %g for --speed: must be positive", o.Speed)}
	}
	if o.IdleLimit < 0 {
		return nil, &usageError{fmt.Sprintf("invalid value %g for --idle-limit: must not be negative", o.IdleLimit)}
	}
	return sessions.NewPlayer(rec, sessions.PlayerOptions{
		Speed:     o.Speed,
		IdleLimit: time.Duration(o.IdleLimit * float64(time.Second)),
		StayAtEnd: true, // the search may seek back
	}), nil
}

func newReplayCmd() *cobra.Command {
	var opts ReplayOptions
	cmd := command("replay", cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
		opts.File = args[0]
		return runReplay(cmd.Context(), opts, cmd.CommandPath(), stdioOf(cmd))
	})
	opts.register(cmd)
	cmd.Long += playbackKeysHelp()
	return cmd
}

func newDemoCmd() *cobra.Command {
	opts := ReplayOptions{Demo: true}
	cmd := command("demo", cobra.NoArgs, func(cmd *cobra.Command, _ []string) error {
		return runReplay(cmd.Context(), opts, cmd.CommandPath(), stdioOf(cmd))
	})
	opts.register(cmd)
	cmd.Long += playbackKeysHelp()
	return cmd
}

// playbackKeysHelp is the playback keys' paragraph of replay's and demo's
// --help: the keymap's Replay bindings, their default keys.
func playbackKeysHelp() string {
	var b strings.Builder
	b.WriteString("\n\nKeys while playing (the defaults; [keys] in the config rebinds them, docs/KEYS.md):")
	for _, l := range keys.Default().HelpLines(keys.Replay, 8) {
		b.WriteString("\n  " + l)
	}
	return b.String()
}

// runReplay plays the recording (or the demo) in the TUI on std, which
// must be a terminal; command names the command in that error.
func runReplay(ctx context.Context, opts ReplayOptions, command string, std stdio) error {
	var rec *sessions.Recording
	var err error
	if opts.Demo {
		if rec, err = sessions.ReadRecording(bytes.NewReader(demo.Transcript)); err != nil {
			return fmt.Errorf("built-in demo: %w", err)
		}
	} else if rec, err = sessions.LoadRecording(opts.File); err != nil {
		return err
	}
	// The keys are the user's own, as in a live session: the config
	// file's [keys] (keymap.go).
	km, err := defaultKeymap()
	if err != nil {
		return err
	}
	p, err := opts.player(rec)
	if err != nil {
		return err
	}
	find := newReplayFind()
	if opts.Find != "" && !find.start(p, opts.Find) {
		// Said before the screen opens, not a replay that never gets there.
		name := opts.File
		if opts.Demo {
			name = "the demo"
		}
		return fmt.Errorf("--find: %q is not in %s (the search covers prompts, answers, reasoning, commands and their output, diffs and tool calls)", opts.Find, name)
	}
	if needTerminal(std.in, std.out) != nil { // tty.go
		return &usageError{command + " needs a terminal; `tandem export FILE` writes a recording as Markdown"}
	}
	return play(ctx, p, replayOptions(frames.Status(rec), opts.NoAltScreen, km), find)
}

// playback is what the playback keys drive: a sessions.Player.
type playback interface {
	Toggle()
	Step()
	Faster()
	Slower()
	finder
}

// replayModel wraps the ordinary model with the playback keys (the
// keymap's Replay bindings, km's own, so [keys] rebinds them); everything
// else goes to the model unchanged, so the screen is drawn exactly as live.
type replayModel struct {
	*model.Model
	player playback
	keys   *keys.Map
	peer   *string // the playback state shown in the status line
	// find is the search line (Ctrl+F); nil: none. opts and size make
	// the model afresh when a seek back restarts the playback.
	find *replayFind
	opts model.Options
	size *tea.WindowSizeMsg
}

// View implements tea.Model: the model's, its last row the search line
// while that is open.
func (r replayModel) View() tea.View {
	v := r.Model.View()
	if r.find == nil || !r.find.open || r.size == nil || r.size.Width <= 0 {
		return v
	}
	rows := strings.Split(v.Content, "\n")
	rows[len(rows)-1] = r.find.line(r.size.Width, r.keys)
	v.Content = strings.Join(rows, "\n")
	return v
}

// Update implements tea.Model.
func (r replayModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		if r.size != nil {
			*r.size = msg
		}
	case sessions.PlayerRestart:
		// A seek back: the playback starts again, on a fresh model.
		old := r.Model
		r.Model = model.New(r.opts)
		old.Close()
		cmd := r.Model.Init()
		if r.size != nil && r.size.Width > 0 {
			r.Model.Update(*r.size)
		}
		return r, cmd
	case tea.KeyPressMsg:
		km := r.keys
		if r.find != nil && r.find.open && !key.Matches(msg, km.ReplayQuit) {
			return r, r.find.key(r.player, km, msg)
		}
		switch {
		case r.find != nil && key.Matches(msg, km.ReplayFind):
			r.find.open = true
			return r, r.find.input.Focus()
		case key.Matches(msg, km.ReplayQuit):
			// A replayed turn can't be interrupted, so quit at once
			// (inline, what is live is printed first).
			return r, r.Quit()
		case key.Matches(msg, km.ReplayPause):
			r.player.Toggle()
			return r, nil
		case key.Matches(msg, km.ReplayStep):
			r.player.Step()
			return r, nil
		case key.Matches(msg, km.ReplayFaster):
			r.player.Faster()
			return r, nil
		case key.Matches(msg, km.ReplaySlower):
			r.player.Slower()
			return r, nil
		}
	case sessions.PlayerStatus:
		*r.peer = msg.String()
		r.Model.Update(model.PeerMsg{Peer: *r.peer})
		return r, nil
	}
	_, cmd := r.Model.Update(msg)
	if _, ok := msg.(model.SessionReadyMsg); ok && *r.peer != "" {
		r.Model.Update(model.PeerMsg{Peer: *r.peer})
	}
	return r, cmd
}

// replaySink adapts what a Player yields to the model's messages; under
// `tandem record` it emits the cast's chapters (sessions.Chapters). A
// turn's chapter waits for the value after its turn/started, the turn's
// userMessage item, whose prompt labels it.
func replaySink(send func(tea.Msg)) func(any) {
	var ch sessions.Chapters
	var turn any // a TurnStartedEvent whose chapter waits for its prompt
	return func(v any) {
		p, isPrompt := sessions.UserPrompt(v)
		if isPrompt && turn == nil {
			ch.Prompt(p) // sent before its turn/started
		}
		if turn != nil {
			if isPrompt {
				ch.Prompt(p)
			}
			if label, ok := ch.Value(turn); ok {
				sessions.EmitMarker(label)
			}
			turn = nil
		}
		if _, ok := v.(backend.TurnStartedEvent); ok {
			turn = v
			send(v)
			return
		}
		switch x := v.(type) {
		case sessions.ThreadReady:
			send(frames.Ready(x))
			return
		case sessions.ThreadSwitch:
			send(frames.Switch(x))
			return
		}
		if label, ok := ch.Value(v); ok {
			sessions.EmitMarker(label)
		}
		send(v)
	}
}

// replayOptions are the model's options for a replay: the recording's
// status line, shared (the prompts come from the recorded items), inline
// with --no-alt-screen, and the keymap km.
func replayOptions(status ui.StatusInfo, inline bool, km *keys.Map) model.Options {
	return model.Options{Dark: true, NoColor: os.Getenv("NO_COLOR") != "", Status: status, Shared: true, NoAltScreen: inline, Keys: km,
		Suspend: jobControl()} // suspend.go: Ctrl+Z
}

// play plays p in the TUI, a model built with opts, with the search line
// find, until the user quits.
func play(ctx context.Context, p *sessions.Player, opts model.Options, find *replayFind) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	m := model.New(opts)
	km := opts.Keys
	if km == nil {
		km = keys.Default()
	}
	tstp := newTSTPRouter() // suspend.go: kill -TSTP suspends as Ctrl+Z does
	defer tstp.Stop()
	filter := tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg { return tstp.Filter(msg) })
	rm := replayModel{Model: m, player: p, keys: km, peer: new(string), find: find, opts: opts, size: &tea.WindowSizeMsg{}}
	prog := tea.NewProgram(rm, tea.WithContext(ctx), filter)
	tstp.Start(ctx, prog.Send)
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.Run(ctx, replaySink(prog.Send))
	}()
	// SIGTERM or SIGHUP (the terminal closed) end the replay like ctrl+c.
	sig := catchSignals(ctx, func(os.Signal) { prog.Quit() }, syscall.SIGTERM, syscall.SIGHUP)
	defer sig.Stop()
	final, err := prog.Run()
	if r, ok := final.(replayModel); ok {
		m = r.Model // a seek back made it afresh
	}
	m.Close() // spilled command output
	cancel()
	<-done
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, context.Canceled) {
		return err
	}
	return sig.Status()
}
