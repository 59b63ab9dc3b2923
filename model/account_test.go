package model

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/ui"
)

// Logout implements backend.Client for the fake (account/logout); once it
// succeeds, account/read answers loggedOut when that is set.
func (f *fakeDriver) Logout(context.Context) error {
	err := f.answer("account/logout", nil, nil)
	f.mu.Lock()
	defer f.mu.Unlock()
	if r, ok := f.results["account/read after logout"]; ok && err == nil {
		f.results["account/read"] = r
	}
	return err
}

// run runs cmd and feeds what it yields back into m, the results of this
// file's commands included, until only timers are left.
func run(t *testing.T, m *Model, cmd tea.Cmd) {
	t.Helper()
	for i := 0; cmd != nil && i < 20; i++ {
		msg := cmd()
		switch msg := msg.(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				run(t, m, c)
			}
			return
		case act.Done:
			_, cmd = m.Update(msg)
		default:
			return
		}
	}
}

func lastBanner(m *Model) string {
	cells := m.State().Cells
	for i := len(cells) - 1; i >= 0; i-- {
		if b, ok := cells[i].(*ui.BannerCell); ok {
			return b.Text
		}
	}
	return ""
}

// /init sends Codex's own /init prompt as a turn when the workspace has
// no AGENTS.md, and shows "/init" for it; with AGENTS.md there it sends
// nothing and says so; a failed check is an error, not a turn.
func TestInitCommand(t *testing.T) {
	cases := []struct {
		name   string
		files  map[string]string
		errs   map[string]error
		turn   bool
		banner string
	}{
		{name: "no AGENTS.md", turn: true},
		{name: "AGENTS.md exists", files: map[string]string{"/w/AGENTS.md": "# Guide"}, banner: "AGENTS.md already exists here"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake()
			f.files = c.files
			m := ready(t, f, Options{})
			m.panes.SetCwd("/w")
			typeText(t, m, "/init")
			_, cmd := enterNow(m)
			run(t, m, cmd)
			if !slices.Contains(f.called(), "fs/readFile") {
				t.Fatalf("AGENTS.md was not looked for: %v", f.called())
			}
			if got := len(f.turns) == 1; got != c.turn {
				t.Fatalf("turn sent %v (%q), want %v", got, f.turns, c.turn)
			}
			if c.turn {
				if f.turns[0] != act.InitPrompt || !strings.HasPrefix(act.InitPrompt, "Generate a file named AGENTS.md") {
					t.Errorf("sent %q, not Codex's /init prompt", f.turns[0])
				}
				var shown []string
				for _, cell := range m.State().Cells {
					if u, ok := cell.(*ui.UserCell); ok {
						shown = append(shown, u.Text)
					}
				}
				if !slices.Equal(shown, []string{"/init"}) {
					t.Errorf("the transcript shows %q for it", shown)
				}
			}
			if c.banner != "" && !strings.Contains(lastBanner(m), c.banner) {
				t.Errorf("banner %q, want %q", lastBanner(m), c.banner)
			}
		})
	}
	// While a turn runs /init waits (an idle-only command).
	f := newFake()
	m := ready(t, f, Options{})
	m.panes.SetCwd("/w")
	startTurn(m)
	typeText(t, m, "/init")
	_, cmd := enterNow(m)
	run(t, m, cmd)
	if slices.Contains(f.called(), "fs/readFile") || !strings.Contains(noticeText(m), "can't run while a turn is running") {
		t.Errorf("during a turn: calls %v, notice %q", f.called(), noticeText(m))
	}
}

// /logout calls account/logout, says what it logged out of, marks the
// status line, and checks the account again (the login form opens when
// the provider needs one); an error is a banner.
func TestLogoutCommand(t *testing.T) {
	f := newFake()
	email := "me@example.com"
	f.results["account/read"] = backend.AccountReadResponse{Account: &backend.Account{Type: "chatgpt", Email: &email, PlanType: "plus"}, RequiresOpenaiAuth: true}
	m := ready(t, f, Options{})
	f.results["account/read after logout"] = backend.AccountReadResponse{RequiresOpenaiAuth: true}
	typeText(t, m, "/logout")
	_, cmd := enterNow(m)
	run(t, m, cmd)
	if !slices.Contains(f.called(), "account/logout") {
		t.Fatalf("account/logout not called: %v", f.called())
	}
	found := false
	for _, cell := range m.State().Cells {
		if b, ok := cell.(*ui.BannerCell); ok && strings.Contains(b.Text, "Logged out of ChatGPT me@example.com (plus)") {
			found = true
		}
	}
	if !found {
		t.Errorf("no logged-out banner; last %q", lastBanner(m))
	}
	if !slices.Contains(m.statusInfo().Hints, "logged out") {
		t.Errorf("status hints %q", m.statusInfo().Hints)
	}
	if !m.State().LoginOpen {
		t.Errorf("the login form did not open after logging out")
	}

	f2 := newFake()
	f2.errs["account/logout"] = errors.New("boom")
	m2 := ready(t, f2, Options{})
	typeText(t, m2, "/logout")
	_, cmd = enterNow(m2)
	run(t, m2, cmd)
	if got := lastBanner(m2); !strings.Contains(got, "/logout: boom") || loggedOut(m2) {
		t.Errorf("error banner %q, logged out %v", got, loggedOut(m2))
	}
}
