package e2e

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// outputTap copies a program's output as it comes, so a test can look
// for what was printed above the live area (--no-alt-screen).
type outputTap struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func tapOutput(t *testing.T, r io.Reader) *outputTap {
	o := &outputTap{}
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	go func() {
		b := make([]byte, 32<<10)
		for {
			select {
			case <-done:
				return
			default:
			}
			n, _ := r.Read(b)
			if n == 0 {
				time.Sleep(10 * time.Millisecond)
				continue
			}
			o.mu.Lock()
			o.buf.Write(b[:n])
			o.mu.Unlock()
		}
	}()
	return o
}

// text is the output so far, without escape sequences.
func (o *outputTap) text() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return ansi.Strip(o.buf.String())
}

func (o *outputTap) wait(t *testing.T, d time.Duration, what string, cond func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if s := o.text(); cond(s) {
			return s
		}
		time.Sleep(30 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s in the output:\n%s", what, o.text())
	return ""
}

// With --no-alt-screen on the real app-server: the thread's answer is
// printed above the live area; F3's sub-agent view takes the alternate
// screen and Esc gives the inline live area back; Ctrl+T likewise; /fork
// prints a separator and does not print the thread's history again.
func TestNoAltScreenFullScreensAndFork(t *testing.T) {
	e := NewEnv(t, append(subAgentScript(), mockapi.Response{Items: []mockapi.Item{mockapi.Text("After the fork.")}})...)
	u := NewTUI(t, model.Options{Workspace: e.Dir, NoAltScreen: true}, 120, 40)
	out := tapOutput(t, u.TM.Output())
	u.Connect(t, e, "never", "workspace-write")
	if u.AltScreen(t) {
		t.Fatal("--no-alt-screen drew in the alternate screen")
	}
	u.Submit("find the flaky test")
	out.wait(t, Patience, "the printed answer", func(s string) bool {
		return strings.Contains(s, "Spawned sub-agent") && strings.Contains(s, "A sub-agent is on it.")
	})
	// F3 lists the sub-agent (inline, above the composer); Enter opens it
	// full screen.
	var s string
	for deadline := time.Now().Add(Patience); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		u.Key(tea.KeyPressMsg{Code: tea.KeyF3})
		if s = u.Screen(t); strings.Contains(s, "done · The flaky test is TestRace.") {
			break
		}
		// Esc closes the list, to open it afresh; only when it is open:
		// before the spawn is known F3 only says so, and Esc would go to
		// the composer (twice: the rewind picker).
		if strings.Contains(s, "enter to open · esc to close") {
			u.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
		}
	}
	if !strings.Contains(s, "done · The flaky test is TestRace.") {
		t.Fatalf("no finished sub-agent in the list:\n%s", s)
	}
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	u.WaitScreen(t, Patience, "the sub-agent's view", Contains("The flaky test is TestRace.", "esc back to the thread"))
	if !u.AltScreen(t) {
		t.Error("the sub-agent's view is not full screen")
	}
	u.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
	u.WaitScreen(t, Patience, "the live area again", func(s string) bool {
		return strings.Contains(s, "Ask Codex") && !strings.Contains(s, "esc back to the thread")
	})
	if u.AltScreen(t) {
		t.Error("Esc left the alternate screen on")
	}
	u.Key(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	u.WaitScreen(t, Patience, "the pager", Contains("A sub-agent is on it.", "q/Esc close"))
	if !u.AltScreen(t) {
		t.Error("the pager is not full screen")
	}
	u.Key(tea.KeyPressMsg{Code: 'q', Text: "q"})
	u.WaitScreen(t, Patience, "the pager closed", func(s string) bool { return !strings.Contains(s, "q/Esc close") })

	u.Submit("/fork")
	out.wait(t, Patience, "the fork's separator", Contains("── forked into thread", "the conversation above goes on here", "Forked into thread"))
	u.Submit("and now?")
	got := out.wait(t, Patience, "the forked thread's answer", Contains("After the fork."))
	// What the program wrote after the fork's separator (the output keeps
	// the program's order; counting the whole of it raced the pager's
	// frame, which holds the answer, still arriving): the answer before
	// the fork is not in it.
	after := got[strings.LastIndex(got, "── forked into thread"):]
	if strings.Contains(after, "A sub-agent is on it.") {
		t.Errorf("the fork printed the thread's history again; after the separator:\n%q", after)
	}
}
