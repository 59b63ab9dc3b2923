package pair

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/hub"
	"tandem/model/keys"
)

// Every viewer's model — the host's own view, a guest driver, a watcher —
// gets the server's keymap (the host's [keys]): the rebound key opens the
// pager and the default one no longer does; without a keymap the defaults
// hold.
func TestViewersShareTheKeymap(t *testing.T) {
	rebound := keys.Default()
	if err := rebound.Rebind(map[string][]string{"pager": {"alt+t"}}); err != nil {
		t.Fatal(err)
	}
	altT := tea.KeyPressMsg{Code: 't', Mod: tea.ModAlt}
	ctrlT := tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl}
	viewers := []struct {
		name  string
		role  hub.Role
		guest bool
	}{{"host", hub.Driver, false}, {"guest driver", hub.Driver, true}, {"watcher", hub.Watcher, true}}
	for _, tc := range []struct {
		name         string
		km           *keys.Map
		opens, inert tea.KeyPressMsg
	}{{"rebound", rebound, altT, ctrlT}, {"default", nil, ctrlT, altT}} {
		srv := New(Options{KeyMap: tc.km})
		for _, v := range viewers {
			t.Run(tc.name+"/"+v.name, func(t *testing.T) {
				for _, k := range []tea.KeyPressMsg{tc.inert, tc.opens} {
					m := srv.newModel("viewer", v.role, v.guest)
					m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
					m.Update(k)
					if got, want := m.State().PagerOpen, k == tc.opens; got != want {
						t.Errorf("%s: pager open %v, want %v", k, got, want)
					}
					m.Close()
				}
			})
		}
	}
}
