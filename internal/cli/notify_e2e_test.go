package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
)

// ghostty is the environment of a terminal that shows OSC 9 as a desktop
// notification, outside tmux (whatever the test runs in).
var ghostty = []string{"TERM_PROGRAM=ghostty", "TMUX=", "LC_TERMINAL=", "KITTY_WINDOW_ID=", "WEZTERM_PANE=", "GHOSTTY_RESOURCES_DIR=", "VTE_VERSION="}

const (
	focusOutReport = "\x1b[O" // what a terminal sends when it loses focus (mode 1004)
	focusInReport  = "\x1b[I"
)

func (lt *liveTandem) output() []byte {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	return bytes.Clone(lt.raw)
}

// waitOutput waits until tandem has written want to the terminal.
func (lt *liveTandem) waitOutput(want string, timeout time.Duration) {
	lt.t.Helper()
	deadline := time.Now().Add(timeout)
	for !bytes.Contains(lt.output(), []byte(want)) {
		if time.Now().After(deadline) {
			lt.t.Fatalf("tandem never wrote %q; screen:\n%s", want, lt.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitTitle waits until the last window title tandem set is want.
func (lt *liveTandem) waitTitle(want string, timeout time.Duration) {
	lt.t.Helper()
	deadline := time.Now().Add(timeout)
	for lt.title() != want {
		if time.Now().After(deadline) {
			lt.t.Fatalf("title %q, want %q", lt.title(), want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var titleRE = regexp.MustCompile("\x1b\\][02];([^\x07\x1b]*)(?:\x07|\x1b\\\\)")

// title is the last window title tandem set.
func (lt *liveTandem) title() string {
	all := titleRE.FindAllSubmatch(lt.output(), -1)
	if len(all) == 0 {
		return ""
	}
	return string(all[len(all)-1][1])
}

func notifyConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Against the real app-server, in a pty: a turn that ends while the
// terminal is unfocused writes an OSC 9 notification (ghostty's), and the
// title names the thread and says it is done; once the terminal is
// focused again, the next turn's end writes none. With notifications =
// "off" an unfocused turn end writes none either.
func TestNotificationWhenUnfocused(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	const note = "\x1b]9;tandem: turn done"
	t.Run("unfocused, then focused", func(t *testing.T) {
		env := e2e.NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("First answer.")}},
			mockapi.Response{Items: []mockapi.Item{mockapi.Text("Second answer.")}})
		lt := startTandemEnv(t, env, ghostty, "--config", notifyConfig(t, ""))
		lt.waitReady()
		lt.keys(focusOutReport)
		lt.keys("fix the parser\r")
		lt.waitScreen("First answer.", patience)
		lt.waitOutput(note+" — fix the parser\a", patience)
		lt.waitTitle("tandem · fix the parser · done", patience)
		lt.keys(focusInReport)
		before := bytes.Count(lt.output(), []byte(note))
		lt.keys("again\r")
		lt.waitScreen("Second answer.", patience)
		lt.waitTitle("tandem · fix the parser · done", patience) // the second turn's end is taken
		time.Sleep(500 * time.Millisecond)                       // room for a wrong notification to show
		if n := bytes.Count(lt.output(), []byte(note)); n != before {
			t.Errorf("a focused terminal got a notification (%d before, %d after)", before, n)
		}
	})
	t.Run("off", func(t *testing.T) {
		env := e2e.NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("Quiet answer.")}})
		lt := startTandemEnv(t, env, ghostty, "--config", notifyConfig(t, "notifications = \"off\"\n"))
		lt.waitReady()
		lt.keys(focusOutReport)
		lt.keys("hello\r")
		lt.waitScreen("Quiet answer.", patience)
		lt.waitTitle("tandem · hello · done", patience) // the turn's end is taken
		time.Sleep(500 * time.Millisecond)              // room for a wrong notification to show
		if bytes.Contains(lt.output(), []byte("\x1b]9;")) {
			t.Errorf("notifications = \"off\" still wrote a notification")
		}
	})
}
