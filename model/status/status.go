// Package status is the status line's state and the viewer's attention:
// the notice (what tandem last had to say), the settled values the line
// shows (model, cwd, policies, peer, the roster of a shared session, the
// MCP servers' start-up, rate limits, the collaboration mode and goal
// badges), the spinner, desktop notifications and the window title.
//
// It takes the intents of act that set these (SetNotice, ClearNotice,
// Settings, …) through Apply, the focus reports, the spinner's ticks, and
// the events that are about the line (MCP start-up, presence). It never
// imports the root model or another component.
package status

import (
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"tandem/internal/hub"
	"tandem/model/act"
	"tandem/ui"
)

// Options configure a Status.
type Options struct {
	// Info is the line's first values (model, cwd, policies, peer); a
	// replay's Notice is its own first notice.
	Info ui.StatusInfo
	// Notifications is when a desktop notification is sent: "unfocused"
	// ("" too), "always" or "off". Getenv describes the terminal (nil:
	// os.Getenv).
	Notifications string
	Getenv        func(string) string
}

// Status is one viewer's status line and attention. Use New.
type Status struct {
	env    act.Env
	opts   Options
	info   ui.StatusInfo
	notice notice
	memo   ui.StatusMemo
	spin   spinner.Model
	attn   attention
	mcp    mcpState
	// present is the roster of a shared session (hub.PresenceEvent);
	// loggedOut that /logout ran and no login followed.
	present   []hub.Participant
	loggedOut bool
	// frame is the frame ticks' pace and state; quitAt when the quit
	// window opened (zero: closed) (frames.go).
	frame  frames
	quitAt time.Time
	// othersRunning: other threads of the command center with a turn
	// running (model.DeckInfo; quitnote.go).
	othersRunning int
}

// notice is the status line's transient message.
type notice struct {
	kind act.NoticeKind
	text string
}

// New returns the status of a viewer: its first notice is the replay's
// (Options.Info.Notice) or "starting codex app-server…". Either is a
// NoticeStarting, which the session's start clears (a replay's, once the
// recorded session opens: the playback state is the line's peer then).
func New(env act.Env, opts Options) *Status {
	s := &Status{env: env, opts: opts, info: opts.Info}
	s.info.NoInterrupt = s.info.NoInterrupt || env.Role.Watches() // a watcher cannot interrupt
	s.spin = spinner.New(spinner.WithSpinner(spinner.Dot))
	if s.info.Notice != "" {
		s.notice = notice{kind: act.NoticeStarting, text: s.info.Notice}
	} else {
		s.notice = notice{kind: act.NoticeStarting, text: "starting codex app-server…"}
	}
	s.info.Notice = ""
	return s
}

// Notice returns the notice shown and its kind (NoticeNone and "" for
// none).
func (s *Status) Notice() (act.NoticeKind, string) { return s.notice.kind, s.notice.text }

// Info returns the line's settled values (model, cwd, policies, peer,
// roster, MCP, rate limits, badges, hints), without what changes by
// itself (the running turn, the notice: Line adds them).
func (s *Status) Info() ui.StatusInfo {
	info := s.info
	if s.loggedOut {
		info.Hints = append(info.Hints[:len(info.Hints):len(info.Hints)], "logged out")
	}
	return info
}

// Apply takes an intent of the status line's; it reports whether it was
// one.
func (s *Status) Apply(i act.Intent) bool {
	switch i := i.(type) {
	case act.SetNotice:
		s.notice = notice{i.Kind, i.Text}
	case act.ClearNotice:
		if i.Matches(s.notice.kind) {
			s.notice = notice{}
		}
	case act.Settings:
		i.ApplyTo(&s.info)
		if i.LoggedOut != nil {
			s.loggedOut = *i.LoggedOut
		}
	default:
		return false
	}
	return true
}

// OnDeck takes what the command center around the model says of the
// other threads (model.DeckInfo): waiting of them wait for an answer,
// running more have a turn running, key opens it. The line counts the
// waiting while waiting > 0; quitting warns of both (QuitNote).
// A thread that starts waiting (or running) while quit is armed closes
// the quit window and its notice: the next quit key warns again, naming
// it, rather than quitting past what the warning did not name.
func (s *Status) OnDeck(waiting, running int, key string) {
	waiting, running = max(0, waiting), max(0, running)
	if !s.quitAt.IsZero() && (waiting > s.info.OthersWaiting || waiting+running > s.info.OthersWaiting+s.othersRunning) {
		s.quitAt = time.Time{}
		s.Apply(act.ClearNotice{Kinds: []act.NoticeKind{act.NoticeQuit}})
	}
	s.info.OthersWaiting, s.info.DeckKey = waiting, key
	s.othersRunning = running
}

// Spinner is the spinner's frame.
func (s *Status) Spinner() string { return s.spin.View() }

// Step moves the spinner one frame (a frame tick stands in for its own).
func (s *Status) Step() { s.spin, _ = s.spin.Update(s.spin.Tick()) }

// SpinTick is the command that starts the spinner's own ticks. Its tick
// is made now, in Update: the command, run on another goroutine, reads
// nothing of the status.
func (s *Status) SpinTick() tea.Cmd {
	tick := s.spin.Tick()
	return func() tea.Msg { return tick }
}

// SpinID is the spinner's id, which its ticks carry.
func (s *Status) SpinID() int { return s.spin.ID() }

// SpinFPS is how often the spinner steps by its own ticks.
func (s *Status) SpinFPS() time.Duration { return s.spin.Spinner.FPS }

// Line draws the status line at width w from now's values: the settled
// ones with what the root adds (the turn, the thread's usage, the notice
// of a lost link).
func (s *Status) Line(st ui.Styles, now ui.StatusInfo, w int) string { return s.memo.Line(st, now, w) }
