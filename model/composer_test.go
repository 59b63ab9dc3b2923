package model

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// A terminal that reports Unicode core mode (2027) has the renderer
// measure by grapheme cluster; the composer follows, so its rows are the
// terminal's: नमस्ते दुनिया is 10 cells before (code point by code point)
// and 7 after.
func TestComposerFollowsUnicodeCore(t *testing.T) {
	m := New(Options{})
	m.Update(tea.WindowSizeMsg{Width: 11 + 2, Height: 30}) // the prompt column is 2 wide
	m.composer.SetDraft("नमस्ते दुनिया ab")
	if got := m.composer.Height(); got != 2 {
		t.Fatalf("%d rows without the mode, want 2", got)
	}
	m.Update(tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeNotRecognized})
	if got := m.composer.Height(); got != 2 {
		t.Fatalf("a terminal without the mode: %d rows, want 2", got)
	}
	m.Update(tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeReset})
	if got := m.composer.Height(); got != 1 {
		t.Fatalf("%d rows with the mode, want 1", got)
	}
}
