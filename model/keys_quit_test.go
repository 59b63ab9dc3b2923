package model

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
	"tandem/model/status"
)

// Ctrl+C on an empty composer arms quit with a hint and plans the
// window's end; a second one within status.QuitWindow quits, one after
// it arms again instead (the window's own end is model/status's:
// TestQuitWindow).
func TestQuitHintEndsWithItsWindow(t *testing.T) {
	now := time.Unix(1000, 0)
	m := ready(t, newFake(), Options{Clock: act.FuncClock(func() time.Time { return now })})
	ctrlC := tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	_, cmd := m.Update(ctrlC)
	if cmd == nil || !strings.Contains(viewText(m), quitHint) {
		t.Fatalf("no hint, or no end planned for it:\n%s", viewText(m))
	}
	now = now.Add(status.QuitWindow + time.Second)
	if _, cmd := m.Update(ctrlC); cmd == nil || m.quitting || !strings.Contains(viewText(m), quitHint) {
		t.Fatalf("a Ctrl+C after the window quit, or did not arm again:\n%s", viewText(m))
	}
	now = now.Add(status.QuitWindow / 2)
	if _, cmd := m.Update(ctrlC); cmd == nil || !m.quitting {
		t.Fatal("Ctrl+C within the new window did not quit")
	}
}
