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
}

func (*sideDriver) ThreadID() string { return "th-1" }

func (d *sideDriver) Aside(_ context.Context, prompt string) (string, error) {
	d.mu.Lock()
	d.prompts = append(d.prompts, prompt)
	d.mu.Unlock()
	return d.answer, nil
}

// /side's answer full screen, as Markdown, with the pager's footer; Esc
// closes it onto the transcript as it was (no cell added).
func TestGoldenSideAnswer(t *testing.T) {
	d := &sideDriver{answer: "## X\n\nX is **a letter**: the 24th.\n\n- used in `x := 1`\n- and in algebra"}
	u := e2e.NewFrozenTUI(t, model.Options{Now: func() time.Time { return epoch }, FormGrace: time.Millisecond}, 100, 30)
	u.TM.Send(model.SessionReadyMsg{Client: d, ThreadID: "th-1", Model: "gpt-test", Cwd: "~/src/tandem", Approval: "on-request", Sandbox: "workspace-write", Peer: "local"})
	u.Submit("explain the parser")
	for _, ev := range turnEvents(backend.Item{ID: "msg-1"}, []string{"The parser reads tokens."}) {
		u.TM.Send(ev)
	}
	done, _ := backend.DecodeNotification("turn/completed", mustJSON(map[string]any{"threadId": "", "turn": map[string]any{"id": "turn-1", "items": []any{}, "status": "completed"}}))
	u.TM.Send(done)
	before := u.WaitScreen(t, e2e.Patience, "the turn's end", func(s string) bool {
		return strings.Contains(s, "The parser reads tokens.") && !strings.Contains(s, "esc to interrupt")
	})
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
