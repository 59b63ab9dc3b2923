package model

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// The quit hint lasts as long as its window: when the window passes, the
// hint goes and the next Ctrl+C arms again instead of quitting; a
// window's end never clears a newer one.
func TestQuitHintEndsWithItsWindow(t *testing.T) {
	now := time.Unix(1000, 0)
	m := ready(t, newFake(), Options{Now: func() time.Time { return now }})
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if cmd == nil || !strings.Contains(viewText(m), quitHint) {
		t.Fatalf("no hint, or no end planned for it:\n%s", viewText(m))
	}
	first := m.quitArmed
	now = now.Add(quitWindow + time.Second)
	m.Update(quitDisarmMsg{at: first})
	if strings.Contains(viewText(m), quitHint) || !m.quitArmed.IsZero() {
		t.Fatalf("the hint outlived its window:\n%s", viewText(m))
	}
	// Armed again; the old window's end (late) leaves the new one be.
	m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	m.Update(quitDisarmMsg{at: first})
	if !strings.Contains(viewText(m), quitHint) {
		t.Fatalf("a stale end cleared the new hint:\n%s", viewText(m))
	}
	if _, cmd := m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}); cmd == nil || !m.quitting {
		t.Fatal("Ctrl+C within the new window did not quit")
	}
}
