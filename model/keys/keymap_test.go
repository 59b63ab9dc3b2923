package keys

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The default map has no clash: within a scope only the shared pairs
// share a key.
func TestDefaultHasNoClash(t *testing.T) {
	if c := Default().Clashes(); len(c) > 0 {
		t.Fatalf("the default keymap clashes: %s", strings.Join(c, "; "))
	}
}

// Every action has a unique name, keys and a help text.
func TestActionsNamedAndDocumented(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range Default().Actions() {
		if seen[a.Name] {
			t.Errorf("action %q twice", a.Name)
		}
		seen[a.Name] = true
		if len(a.Binding.Keys()) == 0 || a.Binding.Help().Desc == "" {
			t.Errorf("%s: keys %v, help %q", a.Name, a.Binding.Keys(), a.Binding.Help().Desc)
		}
	}
	for _, p := range shared {
		if !seen[p[0]] || !seen[p[1]] {
			t.Errorf("shared pair %v names an action the map lacks", p)
		}
	}
}

func TestRebind(t *testing.T) {
	cases := []struct {
		name  string
		binds map[string][]string
		err   string // "" for none
	}{
		{"a free key", map[string][]string{"pager": {"alt+t"}}, ""},
		{"unknown action", map[string][]string{"pagr": {"alt+t"}}, `unknown action "pagr"`},
		{"no key", map[string][]string{"pager": {}}, "no key given"},
		{"clash in a scope", map[string][]string{"pager": {"ctrl+o"}}, `"ctrl+o" is expand's key`},
		{"clash with an editing key", map[string][]string{"copy": {"ctrl+k"}}, `"ctrl+k" is kill_to_end's key`},
		{"another scope may share", map[string][]string{"pager_close": {"ctrl+o", "q"}}, ""},
		{"a swap", map[string][]string{"pager": {"ctrl+o"}, "expand": {"ctrl+t"}}, ""},
		{"a shared pair", map[string][]string{"quit_empty": {"ctrl+d", "alt+q"}}, ""},
		// A refused entry after a good one (by name) leaves the good one
		// unbound too.
		{"a good entry and an unknown one", map[string][]string{"pager": {"alt+t"}, "pagr": {"f9"}}, `unknown action "pagr"`},
		{"a good entry and an empty one", map[string][]string{"pager": {"alt+t"}, "quit": {}}, "no key given"},
		// A clash puts back the help as it was (the form's shift+↑).
		{"a clash undone", map[string][]string{"diff_line_up": {"alt+up"}, "full_screen": {"esc"}}, `"esc" is form_abort's key`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := Default()
			before := Default()
			err := m.Rebind(tc.binds)
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				for name, ks := range tc.binds {
					a, _ := m.Lookup(name)
					if !slices.Equal(a.Binding.Keys(), ks) {
						t.Errorf("%s bound to %v, want %v", name, a.Binding.Keys(), ks)
					}
				}
				return
			}
			var re *RebindError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want one saying %q", err, tc.err)
			}
			for i, a := range m.Actions() {
				b := before.Actions()[i].Binding
				if !slices.Equal(a.Binding.Keys(), b.Keys()) || a.Binding.Help() != b.Help() {
					t.Errorf("a refused rebind changed %s: %v %q, was %v %q", a.Name, a.Binding.Keys(), a.Binding.Help().Key, b.Keys(), b.Help().Key)
				}
			}
		})
	}
}

// A rebound key acts: key.Matches follows the new keys, and the old ones
// no longer match.
func TestReboundKeyMatches(t *testing.T) {
	m := Default()
	if err := m.Rebind(map[string][]string{"pager": {"alt+t"}}); err != nil {
		t.Fatal(err)
	}
	altT := tea.KeyPressMsg{Code: 't', Mod: tea.ModAlt}
	ctrlT := tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl}
	if !key.Matches(altT, m.Pager) || key.Matches(ctrlT, m.Pager) {
		t.Fatalf("pager matches alt+t %v, ctrl+t %v", key.Matches(altT, m.Pager), key.Matches(ctrlT, m.Pager))
	}
	if m.Pager.Help().Key != "alt+t" {
		t.Errorf("help still says %q", m.Pager.Help().Key)
	}
}

// The forms' huh keymap takes the map's form keys, keeps huh's help, and
// lets no letter, Tab or half page act on a choice.
func TestHuhKeyMap(t *testing.T) {
	km := Default().Huh()
	for _, tc := range []struct {
		name string
		b    key.Binding
		keys []string
	}{
		{"quit", km.Quit, []string{"esc"}},
		{"select next", km.Select.Next, []string{"enter"}},
		{"select up", km.Select.Up, []string{"up", "ctrl+p"}},
		{"select down", km.Select.Down, []string{"down", "ctrl+n"}},
		{"select top", km.Select.GotoTop, []string{"home"}},
		{"select bottom", km.Select.GotoBottom, []string{"end"}},
		{"select filter", km.Select.Filter, nil},
		{"select half up", km.Select.HalfPageUp, nil},
		{"select half down", km.Select.HalfPageDown, nil},
		{"multi toggle", km.MultiSelect.Toggle, []string{"space"}},
		{"multi filter", km.MultiSelect.Filter, nil},
		{"multi half down", km.MultiSelect.HalfPageDown, nil},
	} {
		if !slices.Equal(tc.b.Keys(), tc.keys) {
			t.Errorf("%s: keys %v, want %v", tc.name, tc.b.Keys(), tc.keys)
		}
	}
	if h := km.Select.Up.Help(); h.Key != "↑" || h.Desc != "up" {
		t.Errorf("huh's help for up changed: %+v", h)
	}
}

// form_choose rebound is every field's choosing key, Enter none's, and
// the help names it: a key that answers is the key the forms check.
func TestHuhKeyMapFollowsFormChoose(t *testing.T) {
	m := Default()
	if err := m.Rebind(map[string][]string{"form_choose": {"ctrl+y"}}); err != nil {
		t.Fatal(err)
	}
	km := m.Huh()
	for name, b := range map[string]key.Binding{
		"select next": km.Select.Next, "select submit": km.Select.Submit, "multi next": km.MultiSelect.Next,
		"multi submit": km.MultiSelect.Submit, "input submit": km.Input.Submit, "confirm submit": km.Confirm.Submit,
		"input next": km.Input.Next, "confirm next": km.Confirm.Next,
	} {
		if slices.Contains(b.Keys(), "enter") || !slices.Contains(b.Keys(), "ctrl+y") || b.Help().Key != "ctrl+y" {
			t.Errorf("%s: keys %v, help %q; want ctrl+y", name, b.Keys(), b.Help().Key)
		}
	}
}

func TestDisplay(t *testing.T) {
	for _, tc := range []struct {
		keys []string
		want string
	}{
		{[]string{"ctrl+t"}, "Ctrl+T"},
		{[]string{"shift+enter", "ctrl+j"}, "Shift+Enter, Ctrl+J"},
		{[]string{"pgup"}, "PgUp"},
		{[]string{"f5"}, "F5"},
		{[]string{"q"}, "q"},
		{[]string{"G"}, "G"},
		{[]string{"alt+<"}, "Alt+<"},
		{[]string{"space"}, "Space"},
		{[]string{"right"}, "→"},
		{[]string{"+", "="}, "+, ="},
		{[]string{"-", "_", "−"}, "-, _, −"},
	} {
		if got := Display(key.NewBinding(key.WithKeys(tc.keys...))); got != tc.want {
			t.Errorf("Display(%v) = %q, want %q", tc.keys, got, tc.want)
		}
	}
}
