package model

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// A long draft on one line wraps into as many rows (up to 8), and only the
// first row carries the "›" prompt; wrapped rows are indented by as much.
func TestComposerWrapsLongLineWithOnePrompt(t *testing.T) {
	m := New(Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 24})
	text := strings.Repeat("abcd efgh ", 10)
	for _, r := range text {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		_ = m.View()
	}
	if got := m.State().Composer; got != text {
		t.Fatalf("composer holds %q", got)
	}
	var rows []string
	for _, l := range m.bottom() {
		l = ansi.Strip(l)
		if strings.Contains(l, "abcd") {
			rows = append(rows, l)
		}
	}
	if len(rows) < 3 {
		t.Fatalf("the draft shows in %d rows, want it wrapped: %q", len(rows), rows)
	}
	if !strings.HasPrefix(rows[0], "› abcd") {
		t.Fatalf("first row %q, want the › prompt", rows[0])
	}
	for _, r := range rows[1:] {
		if !strings.HasPrefix(r, "  ") || strings.Contains(r, "›") {
			t.Fatalf("wrapped row %q, want blank indentation and no ›", r)
		}
	}
}

// Typing disarms a pending Ctrl+C quit, as any composer key does.
func TestComposerTypingDisarmsQuit(t *testing.T) {
	m := New(Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if !strings.HasSuffix(noticeText(m), quitHint) {
		t.Fatalf("notice %q after Ctrl+C", noticeText(m))
	}
	m.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	if noticeText(m) != "" || m.State().Composer != "x" {
		t.Fatalf("notice %q, draft %q", noticeText(m), m.State().Composer)
	}
}

// A pasted long line wraps too (the paste path pins the height to one row
// for a single line; drawing refits it).
func TestComposerWrapsPastedLine(t *testing.T) {
	m := New(Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 24})
	m.Update(tea.PasteMsg{Content: strings.Repeat("abcd efgh ", 10)})
	n := 0
	for _, l := range m.bottom() {
		if strings.Contains(l, "abcd") {
			n++
		}
	}
	if n < 3 {
		t.Fatalf("the pasted line shows in %d rows, want it wrapped", n)
	}
}
