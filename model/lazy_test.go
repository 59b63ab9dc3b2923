package model

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
)

// TestLongHistoryIsDrawnLazily loads 2,000 finished turns and checks the
// first frame and a page up render only about a screen's worth of
// Markdown, not the whole history.
func TestLongHistoryIsDrawnLazily(t *testing.T) {
	m := history(t, 2000)
	before := m.view.transcript.Renders
	if got := len(m.view.frame); got == 0 {
		t.Fatal("no frame")
	}
	if p := len(m.view.transcript.PartialCells()); p < 1900 {
		t.Fatalf("only %d of the 2,000 answers were left for later", p)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyPgUp})
	m.View()
	if n := m.view.transcript.Renders - before; n > 100 {
		t.Fatalf("a page up rendered %d cells", n)
	}
	if p := len(m.view.transcript.PartialCells()); p < 1800 {
		t.Fatalf("a page up drew %d answers fully", 2000-p)
	}
}

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
