package status

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
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

// A notification's body names the thread after what happened; a long
// command is cut so that the name still fits.
func TestLabelled(t *testing.T) {
	long := "tandem: approve command: " + strings.Repeat("x", 200)
	cases := []struct{ what, label, want string }{
		{"tandem: turn done", "", "tandem: turn done"},
		{"tandem: turn done", "fix the parser", "tandem: turn done — fix the parser"},
		{long, "fix the parser", long[:maxNotification-ansi.StringWidth(" — fix the parser")-1] + "… — fix the parser"},
	}
	for _, c := range cases {
		got := labelled(c.what, c.label)
		if got != c.want {
			t.Errorf("labelled(%.30q…, %q) = %q, want %q", c.what, c.label, got, c.want)
		}
		if w := ansi.StringWidth(notificationText(got)); w > maxNotification {
			t.Errorf("%d columns, more than %d", w, maxNotification)
		}
		if !strings.HasSuffix(notificationText(got), c.label) {
			t.Errorf("the label is cut: %q", notificationText(got))
		}
	}
}
