package model

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/model/keys"
)

// TestReboundKeyActs: a model built with a rebound keymap (the config's
// [keys], Options.Keys) acts on the new key and no longer on the old one,
// and /help lists the new one; the default map (nil) keeps Ctrl+T.
func TestReboundKeyActs(t *testing.T) {
	altT := tea.KeyPressMsg{Code: 't', Mod: tea.ModAlt}
	ctrlT := tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl}
	f6 := tea.KeyPressMsg{Code: tea.KeyF6}
	tests := []struct {
		name   string
		binds  map[string][]string // nil: Options.Keys nil (the default map)
		opens  []tea.KeyPressMsg
		inert  []tea.KeyPressMsg
		helpOf string // /help's keys column for the pager
	}{
		{"default", nil, []tea.KeyPressMsg{ctrlT}, []tea.KeyPressMsg{altT, f6}, "ctrl+t"},
		{"pager on alt+t", map[string][]string{"pager": {"alt+t"}}, []tea.KeyPressMsg{altT}, []tea.KeyPressMsg{ctrlT, f6}, "alt+t"},
		{"pager on two keys", map[string][]string{"pager": {"f6", "alt+t"}}, []tea.KeyPressMsg{f6, altT}, []tea.KeyPressMsg{ctrlT}, "f6/alt+t"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var km *keys.Map
			if tt.binds != nil {
				km = keys.Default()
				if err := km.Rebind(tt.binds); err != nil {
					t.Fatal(err)
				}
			}
			for _, k := range tt.inert {
				m := ready(t, newFake(), Options{Keys: km})
				press(t, m, k.Code, k.Mod)
				if m.State().PagerOpen {
					t.Errorf("%s opened the pager", k)
				}
				m.Close()
			}
			for _, k := range tt.opens {
				m := ready(t, newFake(), Options{Keys: km})
				press(t, m, k.Code, k.Mod)
				if !m.State().PagerOpen {
					t.Errorf("%s did not open the pager:\n%s", k, viewText(m))
				}
				m.Close()
			}
			m := ready(t, newFake(), Options{Keys: km})
			defer m.Close()
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 80}) // all of /help on screen
			typeText(t, m, "/help")
			press(t, m, tea.KeyEnter, 0)
			var line string
			for _, l := range strings.Split(viewText(m), "\n") {
				if strings.Contains(l, "the whole transcript in a pager") {
					line = strings.TrimSpace(strings.TrimLeft(l, "│ ")) // the banner's border
				}
			}
			if !strings.HasPrefix(line, tt.helpOf+" ") {
				t.Errorf("/help's pager line %q, want it to start with %q", line, tt.helpOf)
			}
		})
	}
}
