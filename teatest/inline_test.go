package teatest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"tandem/internal/testkit/e2e"
	"tandem/model"
)

// newInlineScreen starts a frozen w×h TUI with --no-alt-screen and a
// ready session.
func newInlineScreen(t *testing.T, w, h int) *e2e.TUI {
	t.Helper()
	u := e2e.NewFrozenTUI(t, model.Options{Now: func() time.Time { return epoch }, FormGrace: time.Millisecond, NoAltScreen: true}, w, h)
	u.TM.Send(model.SessionReadyMsg{Client: fakeDriver{}, Model: "gpt-test", Cwd: "~/src/tandem", Approval: "on-request", Sandbox: "workspace-write", Peer: "local"})
	return u
}

// The inline live area (--no-alt-screen): the prompt and the finished
// command went to the scrollback, so the frame holds only the answer
// still streaming, the composer and the status line — no rule, no
// padding to the window's height.
func TestGoldenInlineLiveArea(t *testing.T) {
	u := newInlineScreen(t, 100, 30)
	startTurn(t, u, "check the build")
	itemEvent(t, u, "item/started", map[string]any{"type": "commandExecution", "id": "c-1", "command": "go build ./...", "cwd": "/w", "status": "inProgress", "commandActions": []any{}})
	itemEvent(t, u, "item/completed", map[string]any{"type": "commandExecution", "id": "c-1", "command": "go build ./...", "cwd": "/w", "status": "completed", "exitCode": 0, "aggregatedOutput": "", "commandActions": []any{}})
	itemEvent(t, u, "item/started", map[string]any{"type": "agentMessage", "id": "msg-1", "text": ""})
	for _, d := range strings.SplitAfter("The build passes. 漢字 and 🎉 are drawn at their width; the rest of this answer is on its way", " ") {
		notify(t, u, "item/agentMessage/delta", map[string]any{"turnId": "turn-1", "itemId": "msg-1", "delta": d})
	}
	golden(t, u, "answer is on its way")
}

// A streaming cell taller than the window shows its last lines under a
// line counting the rest, so the frame never outgrows the window.
func TestGoldenInlineTallCell(t *testing.T) {
	u := newInlineScreen(t, 80, 14)
	startTurn(t, u, "count")
	var b strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "%d. step number %d\n", i, i)
	}
	streamAnswer(t, u, "msg-1", b.String(), 40)
	s := u.WaitScreen(t, e2e.Patience, "the tail", e2e.Contains("step number 40", "more lines"))
	if n := strings.Count(s, "\n") + 1; n > 14 {
		t.Fatalf("the frame has %d rows on a 14-row window:\n%s", n, s)
	}
	golden(t, u, "step number 40")
}
