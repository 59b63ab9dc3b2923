package teatest

import (
	"image/color"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/testkit/e2e"
)

// TestPagerOpensAndCloses checks Ctrl+T shows the whole transcript with
// the reasoning expanded, and q closes it.
func TestPagerOpensAndCloses(t *testing.T) {
	u := newScreen(t)
	startTurn(t, u, "think")
	itemEvent(t, u, "item/completed", map[string]any{"type": "reasoning", "id": "rs-1", "summary": []any{"**Plan**\n\nFirst detail line."}, "content": []any{}})
	endTurn(t, u)
	u.WaitScreen(t, e2e.Patience, "collapsed reasoning", e2e.Contains("Thinking: Plan"))
	u.Key(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	u.WaitScreen(t, e2e.Patience, "the pager", e2e.Contains("First detail line.", "q/Esc close"))
	u.Key(tea.KeyPressMsg{Code: 'q', Text: "q"})
	s := u.WaitScreen(t, e2e.Patience, "the pager closed", e2e.Contains("Ask Codex to do anything"))
	if e2e.Contains("q/Esc close")(s) {
		t.Fatalf("pager still open:\n%s", s)
	}
}

// TestMouseToggle checks F2 releases the mouse (terminal selection) and
// captures it again.
func TestMouseToggle(t *testing.T) {
	u := newScreen(t)
	u.Key(tea.KeyPressMsg{Code: tea.KeyF2})
	u.WaitScreen(t, e2e.Patience, "the notice", e2e.Contains("mouse released"))
	u.Key(tea.KeyPressMsg{Code: tea.KeyF2})
	u.WaitScreen(t, e2e.Patience, "the notice gone", func(s string) bool { return !e2e.Contains("mouse released")(s) })
}

// TestCopyLastAnswer checks the copy key takes the last answer (the /copy
// hook) and says so.
func TestCopyLastAnswer(t *testing.T) {
	u := newScreen(t)
	u.Key(tea.KeyPressMsg{Code: 'y', Mod: tea.ModAlt})
	u.WaitScreen(t, e2e.Patience, "nothing to copy", e2e.Contains("nothing to copy yet"))
	startTurn(t, u, "say hi")
	streamAnswer(t, u, "msg-1", "Hello **there**.", 4)
	itemEvent(t, u, "item/completed", map[string]any{"type": "agentMessage", "id": "msg-1", "text": "Hello **there**."})
	endTurn(t, u)
	u.Key(tea.KeyPressMsg{Code: 'y', Mod: tea.ModAlt})
	u.WaitScreen(t, e2e.Patience, "the copy notice", e2e.Contains("copied the last answer"))
}

// TestLightBackground checks the theme follows a light terminal
// background without losing the transcript.
func TestLightBackground(t *testing.T) {
	u := newScreen(t)
	startTurn(t, u, "hi")
	streamAnswer(t, u, "msg-1", "Some *text*.", 3)
	itemEvent(t, u, "item/completed", map[string]any{"type": "agentMessage", "id": "msg-1", "text": "Some *text*."})
	endTurn(t, u)
	u.WaitScreen(t, e2e.Patience, "the answer", e2e.Contains("Some text."))
	u.TM.Send(tea.BackgroundColorMsg{Color: color.White})
	u.WaitScreen(t, e2e.Patience, "the answer, redrawn", e2e.Contains("Some text.", "▌ hi"))
}
