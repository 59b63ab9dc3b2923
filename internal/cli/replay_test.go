package cli

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/model"
	"tandem/model/keys"
)

// fakePlayback records the playback calls the keys make.
type fakePlayback struct{ calls []string }

func (f *fakePlayback) Toggle() { f.calls = append(f.calls, "toggle") }
func (f *fakePlayback) Step()   { f.calls = append(f.calls, "step") }
func (f *fakePlayback) Faster() { f.calls = append(f.calls, "faster") }
func (f *fakePlayback) Slower() { f.calls = append(f.calls, "slower") }

// TestReplayKeys: a replay's playback keys are the keymap's Replay
// bindings — by default space pauses, → steps, + and = play faster, - _
// and − slower, Ctrl+C quits at once — and [keys] rebinds them (the old
// key then reaches the model like any other).
func TestReplayKeys(t *testing.T) {
	var (
		space  = tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
		right  = tea.KeyPressMsg{Code: tea.KeyRight}
		left   = tea.KeyPressMsg{Code: tea.KeyLeft}
		ctrlC  = tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
		char   = func(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }
		rebind = map[string][]string{"replay_pause": {"p"}, "replay_quit": {"q"}, "replay_slower": {"alt+down"}}
	)
	cases := []struct {
		name     string
		binds    map[string][]string // [keys] of the config; nil: the defaults
		msg      tea.KeyPressMsg
		call     string // the playback call the key makes; "" for none
		wantQuit bool
	}{
		{"space pauses", nil, space, "toggle", false},
		{"→ steps", nil, right, "step", false},
		{"+ plays faster", nil, char('+'), "faster", false},
		{"= plays faster", nil, char('='), "faster", false},
		{"- plays slower", nil, char('-'), "slower", false},
		{"_ plays slower", nil, char('_'), "slower", false},
		{"− (U+2212) plays slower", nil, char('−'), "slower", false},
		{"ctrl+c quits at once", nil, ctrlC, "", true},
		{"← is no playback key", nil, left, "", false},
		{"q is no playback key", nil, char('q'), "", false},
		{"a rebound pause key pauses", rebind, char('p'), "toggle", false},
		{"the old pause key no longer does", rebind, space, "", false},
		{"a rebound quit key quits", rebind, char('q'), "", true},
		{"the old quit key no longer quits at once", rebind, ctrlC, "", false},
		{"a rebound slower key", rebind, tea.KeyPressMsg{Code: tea.KeyDown, Mod: tea.ModAlt}, "slower", false},
		{"an action not rebound keeps its key", rebind, right, "step", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			km := keys.Default()
			if err := km.Rebind(tc.binds); err != nil {
				t.Fatal(err)
			}
			m := model.New(replayOptions(model.Options{}.Status, false, km))
			defer m.Close()
			p := &fakePlayback{}
			r := replayModel{Model: m, player: p, keys: km, peer: new(string)}
			_, cmd := r.Update(tc.msg)
			var want []string
			if tc.call != "" {
				want = []string{tc.call}
			}
			if !slices.Equal(p.calls, want) {
				t.Errorf("%s made the calls %q, want %q", tc.msg, p.calls, want)
			}
			if quit := quits(cmd); quit != tc.wantQuit {
				t.Errorf("%s quits: %v, want %v", tc.msg, quit, tc.wantQuit)
			}
		})
	}
}

// quits reports whether cmd is tea.Quit, what the model's Quit gives in
// the alternate screen. It is compared, not run: the model's other
// commands are ticks that would only make the test wait.
func quits(cmd tea.Cmd) bool {
	return cmd != nil && reflect.ValueOf(cmd).Pointer() == reflect.ValueOf(tea.Quit).Pointer()
}

// replay's and demo's --help list the keymap's playback keys, so the text
// follows the keymap.
func TestReplayHelpListsThePlaybackKeys(t *testing.T) {
	km := keys.Default()
	for _, name := range []string{"replay", "demo"} {
		root := newRootCmd()
		cmd, _, err := root.Find([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range km.Groups()[keys.Replay].Actions {
			h := a.Binding.Help()
			if !strings.Contains(cmd.Long, h.Key) || !strings.Contains(cmd.Long, h.Desc) {
				t.Errorf("%s --help lacks %s (%q %q):\n%s", name, a.Name, h.Key, h.Desc, cmd.Long)
			}
		}
	}
}
