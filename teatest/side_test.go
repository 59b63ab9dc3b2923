package teatest

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/testkit/e2e"
	"tandem/model"
)

// sideDriver answers turns as fakeDriver does and a side question with
// answer, keeping the prompts it was asked.
type sideDriver struct {
	fakeDriver
	answer  string
	mu      sync.Mutex
	prompts []string
	// gate, when set, holds the answer until the ctx ends; cut is closed
	// then.
	gate, cut chan struct{}
}

func (*sideDriver) ThreadID() string { return "th-1" }

func (d *sideDriver) Aside(ctx context.Context, prompt string) (string, error) {
	d.mu.Lock()
	d.prompts = append(d.prompts, prompt)
	d.mu.Unlock()
	if d.gate != nil {
		select {
		case <-d.gate:
		case <-ctx.Done():
			close(d.cut)
			return "", ctx.Err()
		}
	}
	return d.answer, nil
}

// sideScreen is a frozen 100×30 TUI on d whose thread has one turn
// ("explain the parser"), ended; it returns the screen then.
func sideScreen(t *testing.T, d *sideDriver) (*e2e.TUI, string) {
	t.Helper()
	u := e2e.NewFrozenTUI(t, model.Options{Now: func() time.Time { return epoch }, FormGrace: time.Millisecond}, 100, 30)
	u.TM.Send(model.SessionReadyMsg{Client: d, ThreadID: "th-1", Model: "gpt-test", Cwd: "~/src/tandem", Approval: "on-request", Sandbox: "workspace-write", Peer: "local"})
	u.Submit("explain the parser")
	for _, ev := range turnEvents(backend.Item{ID: "msg-1"}, []string{"The parser reads tokens."}) {
		u.TM.Send(ev)
	}
	done, _ := backend.DecodeNotification("turn/completed", mustJSON(map[string]any{"threadId": "", "turn": map[string]any{"id": "turn-1", "items": []any{}, "status": "completed"}}))
	u.TM.Send(done)
	return u, u.WaitScreen(t, e2e.Patience, "the turn's end", func(s string) bool {
		return strings.Contains(s, "The parser reads tokens.") && !strings.Contains(s, "esc to interrupt")
	})
}

// Esc while a side question runs cuts it (its ctx ends), says so, and
// shows no page; the transcript is as it was.
func TestEscCutsTheSideQuestion(t *testing.T) {
	d := &sideDriver{answer: "never shown", gate: make(chan struct{}), cut: make(chan struct{})}
	u, before := sideScreen(t, d)
	u.Submit("/side long?")
	u.WaitScreen(t, e2e.Patience, "the side notice", e2e.Contains("asking on a side fork", "(Esc cancels)"))
	u.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
	after := u.WaitScreen(t, e2e.Patience, "the cancel notice", e2e.Contains("/side cancelled"))
	select {
	case <-d.cut:
	case <-time.After(e2e.Patience):
		t.Fatal("Esc did not end the side question's ctx")
	}
	if strings.Contains(after, "never shown") || strings.Count(after, "explain the parser") != strings.Count(before, "explain the parser") {
		t.Errorf("after Esc:\n%s", after)
	}
}

// /side's answer full screen, as Markdown, with the pager's footer; Esc
// closes it onto the transcript as it was (no cell added).
func TestGoldenSideAnswer(t *testing.T) {
	d := &sideDriver{answer: "## X\n\nX is **a letter**: the 24th.\n\n- used in `x := 1`\n- and in algebra"}
	u, before := sideScreen(t, d)
	u.Submit("/side what is X?")
	golden(t, u, "the 24th")
	if len(d.prompts) != 1 || d.prompts[0] != "what is X?" {
		t.Errorf("Aside was asked %q", d.prompts)
	}
	u.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
	after := u.WaitScreen(t, e2e.Patience, "the page closed", e2e.Contains("Ask Codex to do anything"))
	if strings.Contains(after, "24th") || !strings.Contains(after, "The parser reads tokens.") || strings.Count(after, "explain the parser") != strings.Count(before, "explain the parser") {
		t.Errorf("the transcript after the page closed:\n%s\nbefore:\n%s", after, before)
	}
}
