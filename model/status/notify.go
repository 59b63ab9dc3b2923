package status

import (
	"os"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
	"tandem/model/act"
	"tandem/thread"
	"tandem/ui"
)

// This file is how tandem gets the attention of someone who looked away:
// a desktop notification when a turn ends or an approval or question
// waits, and a window title that names the thread and its state.
//
// When (Options.Notifications, the config's notifications):
//
//	"off"        never
//	"always"     every turn end, approval and question
//	"unfocused"  (default) while the terminal reports it is not focused
//	             (focus reporting, mode 1004); when it never said either
//	             way, for approvals and questions, and for turns that ran
//	             longTurn or more (a short turn you watched end)
//
// How (notificationSequence): OSC 9 on terminals that show it as a
// notification (iTerm2, WezTerm, ghostty, kitty), OSC 777 on those that
// take that form (foot, urxvt, VTE-based ones such as GNOME Terminal),
// BEL elsewhere; inside tmux the OSC is wrapped for tmux's passthrough
// (tmux 3.3+ needs `set -g allow-passthrough on`) and followed by BEL,
// which tmux shows as the window's bell; inside GNU screen it is BEL. Only a live session notifies (not a replay, an export or a
// watcher).

// longTurn is how long a turn must run for its end to notify when the
// terminal's focus is unknown.
const longTurn = 10 * time.Second

// focusState is what the terminal said of its focus: nothing yet, in, or
// out.
type focusState int

const (
	focusUnknown focusState = iota
	focusIn
	focusOut
)

// notifyEvent is what may deserve a notification.
type notifyEvent int

const (
	notifyTurnEnd notifyEvent = iota
	notifyRequest             // an approval or a question waits
)

// attention is this viewer's side of notifications and the title: the
// terminal's focus and how the last turn ended ("done", "failed",
// "interrupted"; "" before any).
type attention struct {
	focus    focusState
	lastTurn string
	// The title's label, once found in thread labelOf, and how many of
	// its items were looked at (View looks at each item once).
	label, labelOf string
	scanned        int
}

// shouldNotify decides whether ev notifies under mode ("always",
// "unfocused", "off"; "" is "unfocused") with the terminal's focus; turn
// is how long the turn ran (for notifyTurnEnd).
func shouldNotify(mode string, focus focusState, ev notifyEvent, turn time.Duration) bool {
	switch mode {
	case "off":
		return false
	case "always":
		return true
	}
	switch focus {
	case focusIn:
		return false
	case focusOut:
		return true
	}
	return ev == notifyRequest || turn >= longTurn
}

// notificationSequence is the escape sequence of a desktop notification
// with body (one line, its controls dropped) for the terminal described
// by getenv (TERM_PROGRAM, TERM, LC_TERMINAL, KITTY_WINDOW_ID,
// WEZTERM_PANE, GHOSTTY_RESOURCES_DIR, VTE_VERSION, TMUX): OSC 9, OSC 777
// or BEL (see the file comment), wrapped for tmux (and BEL after it) when
// TMUX is set.
func notificationSequence(getenv func(string) string, body string) string {
	var seq string
	switch notifier(getenv) {
	case "osc9":
		seq = "\x1b]9;" + notificationText(body) + "\a"
	case "osc777":
		seq = "\x1b]777;notify;tandem;" + notificationText(strings.TrimPrefix(body, "tandem: ")) + "\a"
	default:
		return "\a"
	}
	if getenv("TMUX") != "" {
		// BEL too: a tmux without allow-passthrough drops the OSC, and
		// then its bell still marks the window.
		return tmuxPassthrough(seq) + "\a"
	}
	return seq
}

// notifier names the form of notification the terminal shows: "osc9",
// "osc777" or "bel". Inside tmux TERM_PROGRAM is tmux's own, so the
// variables the outer terminal leaves in the environment count too.
func notifier(getenv func(string) string) string {
	term, prog := getenv("TERM"), getenv("TERM_PROGRAM")
	if getenv("TMUX") == "" && strings.HasPrefix(term, "screen") {
		return "bel" // GNU screen swallows OSC
	}
	switch {
	case prog == "iTerm.app" || getenv("LC_TERMINAL") == "iTerm2",
		prog == "WezTerm" || getenv("WEZTERM_PANE") != "",
		prog == "ghostty" || getenv("GHOSTTY_RESOURCES_DIR") != "",
		strings.Contains(term, "kitty") || getenv("KITTY_WINDOW_ID") != "":
		return "osc9"
	case strings.HasPrefix(term, "foot"), strings.HasPrefix(term, "rxvt"), getenv("VTE_VERSION") != "":
		return "osc777"
	}
	return "bel"
}

// tmuxPassthrough wraps seq in tmux's DCS passthrough (ESC P tmux; …
// ESC \), every ESC in it doubled.
func tmuxPassthrough(seq string) string {
	return "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
}

// maxNotification is how wide a notification's text may be, in columns.
const maxNotification = 120

// notificationText is text as one line for an OSC: C0 and C1 controls
// and DEL become spaces (an ST or BEL would end the OSC early), bidi
// overrides are shown (ui.SanitizeLine), at most 120 columns.
func notificationText(text string) string {
	clean := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, text)
	return ui.Truncate(ui.SanitizeLine(clean), maxNotification)
}

// OnFocus records the terminal's focus report (tea.FocusMsg: in,
// tea.BlurMsg: not).
func (s *Status) OnFocus(in bool) {
	s.attn.focus = focusOut
	if in {
		s.attn.focus = focusIn
	}
}

// Event is what may deserve a notification.
type Event = notifyEvent

// The events that may notify.
const (
	TurnEnd = notifyTurnEnd
	Request = notifyRequest // an approval or a question waits
)

// Notify returns the command that writes a notification with body, when
// the mode and the focus call for one (shouldNotify); nil otherwise. A
// guest of tandem serve gets BEL (its terminal is not the host's); a
// session that is not live (live false: a replay, an export) gets none.
func (s *Status) Notify(ev Event, body string, turn time.Duration, live bool) tea.Cmd {
	if !live {
		return nil
	}
	if !shouldNotify(s.opts.Notifications, s.attn.focus, ev, turn) {
		return nil
	}
	getenv := s.opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if s.env.Role.Guest() {
		return tea.Raw("\a")
	}
	return tea.Raw(notificationSequence(getenv, body))
}

// TurnEnded notes how this viewer's turn t ended, after running for d,
// for the title, and notifies (Notify); label names the thread.
func (s *Status) TurnEnded(t backend.Turn, d time.Duration, label string, live bool) tea.Cmd {
	what := "done"
	switch t.Status {
	case backend.TurnInterrupted:
		what = "interrupted"
	case backend.TurnFailed:
		what = "failed"
	}
	s.attn.lastTurn = what
	return s.Notify(TurnEnd, labelled("tandem: turn "+what, label), d, live)
}

// RequestWaits notifies (Notify) that a request waits: summary says what
// ("tandem: approve command: go test"), label names the thread (Label),
// so that notifications from several threads can be told apart.
func (s *Status) RequestWaits(summary, label string, live bool) tea.Cmd {
	return s.Notify(Request, labelled(summary, label), 0, live)
}

// labelled is a notification's body: what happened, then " — " and the
// thread's label (none when ""). What happened is cut so that the label
// still fits the notification's 120 columns.
func labelled(what, label string) string {
	if label == "" {
		return what
	}
	label = " — " + label
	if room := maxNotification - ansi.StringWidth(label); ansi.StringWidth(what) > room {
		what = ui.Truncate(what, max(room, 20))
	}
	return what + label
}

// Label names the thread for the title and notifications: its name,
// else the start of its first message ("/init" for Codex's /init
// prompt); "" for a thread with neither yet. It looks at each item of st
// once (a cache, so View may call it).
func (s *Status) Label(name string, st *thread.State) string {
	if name != "" {
		return thread.Preview(name, 40)
	}
	a, items := &s.attn, st.Items()
	if id := st.ThreadID(); id != a.labelOf || len(items) < a.scanned {
		a.label, a.labelOf, a.scanned = "", id, 0 // another thread
	}
	for ; a.label == "" && a.scanned < len(items); a.scanned++ {
		if it := items[a.scanned]; it.Kind == thread.User && strings.TrimSpace(it.Text()) != "" {
			a.label = thread.Preview(it.Text(), 40)
			if strings.TrimSpace(it.Text()) == strings.TrimSpace(act.InitPrompt) {
				a.label = "/init" // as the transcript shows it
			}
		}
	}
	return a.label
}

// TitleFacts are what the title says of the session besides the thread.
type TitleFacts struct {
	// Label names the thread (Label).
	Label string
	// Waiting: a request or the login form waits for an answer.
	Waiting bool
	// Running: a turn runs.
	Running bool
}

// Title is the terminal's title: "tandem", the thread and its state —
// "working", "waiting for you" (an approval, a question or the login
// form; "waiting for a driver" for a watcher), or how the last turn
// ended — joined by " · ", one line without controls.
func (s *Status) Title(f TitleFacts) string {
	parts := []string{"tandem"}
	if f.Label != "" {
		parts = append(parts, f.Label)
	}
	switch {
	case f.Waiting && s.env.Role.Watches():
		parts = append(parts, "waiting for a driver")
	case f.Waiting:
		parts = append(parts, "waiting for you")
	case f.Running:
		parts = append(parts, "working")
	case s.attn.lastTurn != "":
		parts = append(parts, s.attn.lastTurn)
	}
	return ui.SanitizeLine(strings.Join(parts, " · "))
}
