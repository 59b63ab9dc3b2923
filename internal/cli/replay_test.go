package cli

import (
	"bytes"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
	"tandem/internal/frames"
	"tandem/model"
	"tandem/model/keys"
	"tandem/sessions"
	"tandem/sessions/demo"
)

// fakePlayback records the playback calls the keys make.
type fakePlayback struct{ calls []string }

func (f *fakePlayback) Toggle() { f.calls = append(f.calls, "toggle") }
func (f *fakePlayback) Step()   { f.calls = append(f.calls, "step") }
func (f *fakePlayback) Faster() { f.calls = append(f.calls, "faster") }
func (f *fakePlayback) Slower() { f.calls = append(f.calls, "slower") }
func (f *fakePlayback) Seek(n int) {
	f.calls = append(f.calls, "seek "+strconv.Itoa(n))
}

// Find finds text in the steps of fakeSteps.
func (f *fakePlayback) Find(text string) []int {
	var out []int
	for i, s := range fakeSteps {
		if text != "" && strings.Contains(s, text) {
			out = append(out, i)
		}
	}
	return out
}

// fakeSteps are the texts of a fakePlayback's steps.
var fakeSteps = []string{"ready", "fix the test", "ok", "the test passes", "bye", "test again"}

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

// TestReplayStatusFollowsThePlayback: the replay's status line says what
// the playback is doing — waiting for the recorded session only until it
// opens, then playing at its speed, paused, faster, and finished — and
// never "waiting" once the session streams.
func TestReplayStatusFollowsThePlayback(t *testing.T) {
	rec, err := sessions.ReadRecording(bytes.NewReader(demo.Transcript))
	if err != nil {
		t.Fatal(err)
	}
	km := keys.Default()
	m := model.New(replayOptions(frames.Status(rec), false, km))
	defer m.Close()
	var r tea.Model = replayModel{Model: m, player: &fakePlayback{}, keys: km, peer: new(string)}
	r, _ = r.Update(tea.WindowSizeMsg{Width: 160, Height: 20})
	line := func() string {
		v := strings.TrimRight(ansi.Strip(r.View().Content), "\n")
		return v[strings.LastIndex(v, "\n")+1:]
	}
	var started any // the demo's first turn, as the player delivers it
	for _, e := range sessions.Timeline(rec, 0) {
		if _, ok := e.Value.(backend.TurnStartedEvent); ok && started == nil {
			started = e.Value
		}
	}
	if started == nil {
		t.Fatal("the demo starts no turn")
	}
	const waiting = "waiting for the recorded session"
	steps := []struct {
		name    string
		msg     tea.Msg
		want    string // on the status line
		waiting bool   // the line still says it waits for the session
	}{
		{"before the session opens", sessions.PlayerStatus{Speed: 1, Steps: 9}, "replay playing at 1×", true},
		{"the session opened", frames.Ready(sessions.ThreadReady{ThreadID: "th", Model: "mock-model", Cwd: "/w"}), "replay playing at 1×", false},
		{"streaming", started, "replay playing at 1×", false},
		{"paused", sessions.PlayerStatus{Paused: true, Speed: 1, Step: 3, Steps: 9}, "replay paused at 1×", false},
		{"faster", sessions.PlayerStatus{Speed: 2, Step: 4, Steps: 9}, "replay playing at 2×", false},
		{"finished", sessions.PlayerStatus{Done: true, Speed: 2, Step: 9, Steps: 9}, "replay finished", false},
	}
	for _, s := range steps {
		r, _ = r.Update(s.msg)
		got := line()
		if !strings.Contains(got, s.want) {
			t.Errorf("%s: status line %q lacks %q", s.name, got, s.want)
		}
		if strings.Contains(got, waiting) != s.waiting {
			t.Errorf("%s: status line %q; says %q: %v, want %v", s.name, got, waiting, !s.waiting, s.waiting)
		}
	}
}
