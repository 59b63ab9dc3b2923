package model

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

// TestGuestRunsNothingOnTheHost: for an SSH client of tandem serve
// (Options.Guest) the keys that would hand the terminal to $EDITOR or
// $PAGER on the host only say why; the same keys work for the host's own
// terminal. (/copy's OSC 52 alone: model/commands' TestCopy.)
func TestGuestRunsNothingOnTheHost(t *testing.T) {
	t.Setenv("VISUAL", "/bin/true")
	t.Setenv("PAGER", "/bin/true")
	keys := []struct {
		name string
		msg  tea.KeyPressMsg
	}{
		{"ctrl+g editor", tea.KeyPressMsg{Code: 'g', Mod: tea.ModCtrl}},
		{"alt+o pager", tea.KeyPressMsg{Code: 'o', Mod: tea.ModAlt}},
	}
	for _, guest := range []bool{false, true} {
		for _, k := range keys {
			m := ready(t, newFake(), Options{Shared: true, Guest: guest})
			m.Update(backend.ItemStartedEvent{Item: backend.Item{Type: "commandExecution", ID: "c1", Command: "ls", Status: "inProgress"}})
			m.Update(backend.CommandOutputDeltaEvent{ItemID: "c1", Delta: "a\nb\n"})
			typeText(t, m, "draft")
			_, cmd := m.Update(k.msg)
			if guest {
				if cmd != nil {
					t.Errorf("guest %s: got a command, want none", k.name)
				}
				if got := noticeText(m); got != guestNoHostProgram {
					t.Errorf("guest %s: notice %q", k.name, got)
				}
				continue
			}
			if cmd == nil {
				t.Errorf("host %s: no command", k.name)
			} else if got := fmt.Sprintf("%T", cmd()); got != "tea.execMsg" {
				t.Errorf("host %s: got %s, want tea.ExecProcess's message", k.name, got)
			}
		}
	}

}

// A guest cannot loosen the host's approval policy or sandbox: /approvals
// is refused with a notice; the host's own terminal opens it.
func TestGuestCannotChangeApprovals(t *testing.T) {
	for _, guest := range []bool{false, true} {
		m := ready(t, newFake(), Options{Shared: true, Guest: guest})
		typeText(t, m, "/approvals")
		press(t, m, tea.KeyEnter, 0)
		refused := strings.Contains(noticeText(m), "is the host's")
		if refused != guest {
			t.Errorf("guest=%v: refused=%v (notice %q)", guest, refused, noticeText(m))
		}
		if !guest && !strings.Contains(viewText(m), "sandbox") {
			t.Errorf("host: /approvals did not open its picker:\n%s", viewText(m))
		}
	}
}
