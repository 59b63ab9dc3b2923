package model

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Typing new lines grows the composer and keeps every line visible (a
// regression: the first line used to scroll out of a too-small box).
func TestComposerShowsEveryTypedLine(t *testing.T) {
	m := New(Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, k := range []tea.KeyPressMsg{
		{Code: 'x', Text: "x"}, {Code: 'j', Mod: tea.ModCtrl},
		{Code: 'y', Text: "y"}, {Code: 'j', Mod: tea.ModCtrl},
		{Code: 'z', Text: "z"},
	} {
		m.Update(k)
	}
	if got := m.Composer(); got != "x\ny\nz" {
		t.Fatalf("composer holds %q", got)
	}
	view := ansi.Strip(m.composer.View())
	lines := strings.Split(view, "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "x") || !strings.Contains(lines[1], "y") || !strings.Contains(lines[2], "z") {
		t.Fatalf("composer shows %q, want the lines x, y, z", lines)
	}
}

// A paste of many lines is kept whole: the composer never cuts content.
func TestComposerKeepsLongPaste(t *testing.T) {
	m := New(Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	text := strings.Repeat("line of pasted text\n", 500) + "end"
	m.Update(tea.PasteMsg{Content: strings.ReplaceAll(text, "\n", "\r\n")})
	if got := m.Composer(); got != text {
		t.Fatalf("paste kept %d of %d bytes", len(got), len(text))
	}
	if h := len(strings.Split(m.composer.View(), "\n")); h > 8 {
		t.Fatalf("composer is %d rows tall, want at most 8", h)
	}
}
