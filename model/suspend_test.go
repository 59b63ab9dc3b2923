package model

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// suspends reports whether cmd (or a command of its batch) is tea.Suspend.
func suspends(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	switch msg := cmd().(type) {
	case tea.SuspendMsg:
		return true
	case tea.BatchMsg:
		for _, c := range msg {
			if suspends(c) {
				return true
			}
		}
	}
	return false
}

// Ctrl+Z and an outside SIGTSTP (SuspendMsg) suspend tandem on its own
// terminal under a shell with job control (Options.Suspend) — also with
// the pager open; anywhere else they only say why not: a guest of tandem
// serve (it would stop the host), the host of tandem serve (the guests
// would freeze), no job control (nobody would resume it).
func TestSuspend(t *testing.T) {
	ctrlZ := tea.KeyPressMsg{Code: 'z', Mod: tea.ModCtrl}
	cases := []struct {
		name    string
		opts    Options
		pager   bool
		suspend bool
		notice  string
	}{
		{"host", Options{Suspend: true}, false, true, ""},
		{"host, pager open", Options{Suspend: true}, true, true, ""},
		{"replay", Options{Suspend: true, Shared: true}, false, true, ""},
		{"no job control", Options{}, false, false, "no job control"},
		{"serve host", Options{Shared: true}, false, false, "the guests would freeze"},
		{"guest", Options{Shared: true, Guest: true, Suspend: true}, false, false, "it would stop the host"},
	}
	for _, c := range cases {
		for _, msg := range []tea.Msg{ctrlZ, SuspendMsg{}} {
			name := c.name + " ctrl+z"
			if _, ok := msg.(SuspendMsg); ok {
				name = c.name + " SIGTSTP"
			}
			t.Run(name, func(t *testing.T) {
				m := ready(t, newFake(), c.opts)
				if c.pager {
					press(t, m, 't', tea.ModCtrl)
					if !m.panes.PagerOpen() {
						t.Fatal("the pager did not open")
					}
				}
				pace(m)
				_, cmd := m.Update(msg)
				if got := suspends(cmd); got != c.suspend {
					t.Fatalf("suspends = %v, want %v (notice %q)", got, c.suspend, noticeText(m))
				}
				if got := noticeText(m); c.notice == "" && got != "" || !strings.Contains(got, c.notice) {
					t.Fatalf("notice %q, want one with %q", got, c.notice)
				}
			})
		}
	}
}
