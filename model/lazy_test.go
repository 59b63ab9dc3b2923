package model

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestLongHistoryIsDrawnLazily loads 2,000 finished turns and checks the
// first frame and a page up render only about a screen's worth of
// Markdown, not the whole history.
func TestLongHistoryIsDrawnLazily(t *testing.T) {
	m := history(t, 2000)
	before := m.transcript.Renders
	if got := len(m.tv.frame); got == 0 {
		t.Fatal("no frame")
	}
	if p := len(m.transcript.PartialCells()); p < 1900 {
		t.Fatalf("only %d of the 2,000 answers were left for later", p)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyPgUp})
	m.View()
	if n := m.transcript.Renders - before; n > 100 {
		t.Fatalf("a page up rendered %d cells", n)
	}
	if p := len(m.transcript.PartialCells()); p < 1800 {
		t.Fatalf("a page up drew %d answers fully", 2000-p)
	}
}
