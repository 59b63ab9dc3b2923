package model

import (
	"encoding/json"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

// When a notification is sent: the mode, the terminal's focus, what
// happened and how long the turn ran.
func TestShouldNotify(t *testing.T) {
	cases := []struct {
		mode  string
		focus focusState
		ev    notifyEvent
		turn  time.Duration
		want  bool
	}{
		{"off", focusOut, notifyTurnEnd, time.Hour, false},
		{"off", focusOut, notifyRequest, 0, false},
		{"always", focusIn, notifyTurnEnd, 0, true},
		{"always", focusIn, notifyRequest, 0, true},
		{"unfocused", focusIn, notifyTurnEnd, time.Hour, false},
		{"unfocused", focusIn, notifyRequest, 0, false},
		{"unfocused", focusOut, notifyTurnEnd, time.Second, true},
		{"unfocused", focusOut, notifyRequest, 0, true},
		{"unfocused", focusUnknown, notifyRequest, 0, true},
		{"unfocused", focusUnknown, notifyTurnEnd, 9 * time.Second, false},
		{"unfocused", focusUnknown, notifyTurnEnd, longTurn, true},
		{"", focusOut, notifyTurnEnd, 0, true}, // "" is the default, unfocused
		{"", focusIn, notifyRequest, 0, false},
	}
	for _, c := range cases {
		if got := shouldNotify(c.mode, c.focus, c.ev, c.turn); got != c.want {
			t.Errorf("shouldNotify(%q, focus %d, event %d, %v) = %v, want %v", c.mode, c.focus, c.ev, c.turn, got, c.want)
		}
	}
}

// The escape sequence by terminal: OSC 9, OSC 777 or BEL; wrapped for
// tmux's passthrough inside tmux (its ESCs doubled); the text one line
// with no control left that could end the OSC.
func TestNotificationSequence(t *testing.T) {
	const body = "tandem: turn done — fix\x07 the parser"
	cases := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"unknown terminal", map[string]string{"TERM": "xterm-256color"}, "\a"},
		{"iTerm2", map[string]string{"TERM_PROGRAM": "iTerm.app"}, "\x1b]9;tandem: turn done — fix  the parser\a"},
		{"WezTerm", map[string]string{"TERM_PROGRAM": "WezTerm"}, "\x1b]9;tandem: turn done — fix  the parser\a"},
		{"ghostty", map[string]string{"TERM_PROGRAM": "ghostty"}, "\x1b]9;tandem: turn done — fix  the parser\a"},
		{"kitty", map[string]string{"TERM": "xterm-kitty"}, "\x1b]9;tandem: turn done — fix  the parser\a"},
		{"foot", map[string]string{"TERM": "foot"}, "\x1b]777;notify;tandem;turn done — fix  the parser\a"},
		{"urxvt", map[string]string{"TERM": "rxvt-unicode-256color"}, "\x1b]777;notify;tandem;turn done — fix  the parser\a"},
		{"GNOME Terminal (VTE)", map[string]string{"TERM": "xterm-256color", "VTE_VERSION": "7600"}, "\x1b]777;notify;tandem;turn done — fix  the parser\a"},
		{"tmux in iTerm2", map[string]string{"TERM": "tmux-256color", "TERM_PROGRAM": "tmux", "LC_TERMINAL": "iTerm2", "TMUX": "/tmp/tmux-0/default,1,0"},
			"\x1bPtmux;\x1b\x1b]9;tandem: turn done — fix  the parser\a\x1b\\\a"},
		{"tmux in kitty", map[string]string{"TERM": "screen-256color", "TERM_PROGRAM": "tmux", "KITTY_WINDOW_ID": "1", "TMUX": "/tmp/tmux-0/default,1,0"},
			"\x1bPtmux;\x1b\x1b]9;tandem: turn done — fix  the parser\a\x1b\\\a"},
		{"tmux in foot", map[string]string{"TERM": "tmux-256color", "TMUX": "/tmp/t,1,0", "VTE_VERSION": "7600"},
			"\x1bPtmux;\x1b\x1b]777;notify;tandem;turn done — fix  the parser\a\x1b\\\a"},
		{"tmux in an unknown terminal", map[string]string{"TERM": "tmux-256color", "TERM_PROGRAM": "tmux", "TMUX": "/tmp/t,1,0"}, "\a"},
		{"GNU screen", map[string]string{"TERM": "screen-256color", "TERM_PROGRAM": "ghostty"}, "\a"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := notificationSequence(func(k string) string { return c.env[k] }, body)
			if got != c.want {
				t.Errorf("got %q\nwant %q", got, c.want)
			}
		})
	}
	// A C1 ST or a bidi override can't end or reorder the notification.
	got := notificationSequence(func(k string) string { return map[string]string{"TERM_PROGRAM": "ghostty"}[k] }, "a\u009cb\u202ec\x1b]0;x")
	if want := "\x1b]9;a b<U+202E>c ]0;x\a"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
}

// The title: tandem, the thread (its name, else its first message) and
// its state.
func TestWindowTitle(t *testing.T) {
	m := New(Options{})
	if got := m.windowTitle(); got != "tandem" {
		t.Errorf("before anything: %q", got)
	}
	m.Update(notif(t, "item/completed", `{"threadId":"th","turnId":"tu","item":{"type":"userMessage","id":"u1","content":[{"type":"text","text":"fix the parser\nplease","text_elements":[]}]}}`))
	m.turn.running = true
	if got, want := m.windowTitle(), "tandem · fix the parser · working"; got != want {
		t.Errorf("working: %q, want %q", got, want)
	}
	m.turn.running = false
	m.attn.lastTurn = "done"
	if got, want := m.windowTitle(), "tandem · fix the parser · done"; got != want {
		t.Errorf("done: %q, want %q", got, want)
	}
	m.threadName = "Parser\x1b[31m fix"
	if got, want := m.windowTitle(), "tandem · Parser␛[31m fix · done"; got != want {
		t.Errorf("named: %q, want %q", got, want)
	}
	m.login = newLoginForm()
	if got, want := m.windowTitle(), "tandem · Parser␛[31m fix · waiting for you"; got != want {
		t.Errorf("login: %q, want %q", got, want)
	}
	// A thread begun by /init is named so, not by Codex's long prompt.
	m2 := New(Options{})
	m2.Update(notif(t, "item/completed", `{"threadId":"th","turnId":"tu","item":{"type":"userMessage","id":"u1","content":[{"type":"text","text":`+strconvQuote(initPrompt)+`,"text_elements":[]}]}}`))
	if got := m2.windowTitle(); got != "tandem · /init" {
		t.Errorf("the /init thread: %q", got)
	}
}

// The title names the state and focus is reported in both ways of
// drawing: the alternate screen and --no-alt-screen.
func TestViewsCarryTitleAndFocus(t *testing.T) {
	for _, inline := range []bool{false, true} {
		m := New(Options{NoAltScreen: inline})
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		m.turn.running = true
		v := m.View()
		if v.AltScreen == inline || v.WindowTitle != "tandem · working" || !v.ReportFocus {
			t.Errorf("inline %v: alt screen %v, title %q, focus reported %v", inline, v.AltScreen, v.WindowTitle, v.ReportFocus)
		}
	}
}

// A turn that ends while the terminal is unfocused writes the
// notification; focused, or with notifications off, nothing; a replay
// (no client) never.
func TestTurnEndNotifies(t *testing.T) {
	env := func(k string) string { return map[string]string{"TERM_PROGRAM": "ghostty"}[k] }
	cases := []struct {
		name   string
		mode   string
		focus  tea.Msg
		client bool
		want   string
	}{
		{"unfocused", "unfocused", tea.BlurMsg{}, true, "\x1b]9;tandem: turn done\a"},
		{"focused", "unfocused", tea.FocusMsg{}, true, ""},
		{"off", "off", tea.BlurMsg{}, true, ""},
		{"always, focused", "always", tea.FocusMsg{}, true, "\x1b]9;tandem: turn done\a"},
		{"a replay", "always", tea.BlurMsg{}, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := New(Options{Notifications: c.mode, Getenv: env, Shared: !c.client})
			if c.client {
				m.Update(SessionReadyMsg{Client: backend.Unavailable{}, ThreadID: "th"})
			}
			m.Update(c.focus)
			m.beginTurn()
			m.turn.starting = false
			_, cmd := m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "tu", Status: backend.TurnCompleted}})
			got := rawOf(cmd)
			if got != c.want {
				t.Errorf("wrote %q, want %q", got, c.want)
			}
			if m.attn.lastTurn != "done" {
				t.Errorf("the title's state is %q", m.attn.lastTurn)
			}
		})
	}
}

// rawOf runs cmd (and the commands of a batch) and returns what tea.Raw
// messages it writes.
func rawOf(cmd tea.Cmd) string {
	if cmd == nil {
		return ""
	}
	switch msg := cmd().(type) {
	case tea.RawMsg:
		return msg.Msg.(string)
	case tea.BatchMsg:
		out := ""
		for _, c := range msg {
			out += rawOf(c)
		}
		return out
	}
	return ""
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }
