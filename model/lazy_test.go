package model

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
)

// TestKeyEchoesAtOnceWhileStreaming checks deltas are coalesced (a delta
// reuses the last frame) and the next key press is drawn at once, with the
// text streamed so far.
func TestKeyEchoesAtOnceWhileStreaming(t *testing.T) {
	m := benchModel(t)
	m.Update(backend.ItemStartedEvent{Item: backend.Item{Type: "agentMessage", ID: "msg-1"}})
	m.View()
	for _, d := range []string{"Hello ", "there, ", "friend."} {
		m.Update(backend.AgentMessageDeltaEvent{ItemID: "msg-1", Delta: d})
		if v := ansi.Strip(m.View().Content); strings.Contains(v, "friend") {
			t.Fatalf("a delta drew a frame of its own:\n%s", v)
		}
	}
	m.Update(tea.KeyPressMsg{Code: 'z', Text: "z"})
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, "› z") || !strings.Contains(v, "Hello there, friend.") {
		t.Fatalf("the key press and the coalesced text are not on screen:\n%s", v)
	}
}
