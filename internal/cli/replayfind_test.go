package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"tandem/model"
	"tandem/model/keys"
	"tandem/sessions"
	"tandem/sessions/demo"
)

// TestReplayFindSteps: Ctrl+F opens a replay's search line; typing
// counts the matches, Enter seeks to the next, Shift+Enter to the
// previous (both wrapping), Esc closes it and keys reach the playback
// again.
func TestReplayFindSteps(t *testing.T) {
	var (
		ctrlF      = tea.KeyPressMsg{Code: 'f', Mod: tea.ModCtrl}
		enter      = tea.KeyPressMsg{Code: tea.KeyEnter}
		shiftEnter = tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModShift}
		esc        = tea.KeyPressMsg{Code: tea.KeyEscape}
		space      = tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	)
	typed := func(s string) []tea.KeyPressMsg {
		var out []tea.KeyPressMsg
		for _, r := range s {
			out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
		}
		return out
	}
	cases := []struct {
		name      string
		keys      []tea.KeyPressMsg
		wantCalls []string
		wantLine  string // in the last row; "" when the line is closed
	}{
		{"ctrl+f opens an empty line", []tea.KeyPressMsg{ctrlF}, nil, "find: "},
		{"typing counts the matches", append([]tea.KeyPressMsg{ctrlF}, typed("test")...), nil, "3 matches"},
		{"enter seeks to the first", append(append([]tea.KeyPressMsg{ctrlF}, typed("test")...), enter), []string{"seek 1"}, "1/3"},
		{"enter again: the next", append(append([]tea.KeyPressMsg{ctrlF}, typed("test")...), enter, enter, enter), []string{"seek 1", "seek 3", "seek 5"}, "3/3"},
		{"enter wraps", append(append([]tea.KeyPressMsg{ctrlF}, typed("test")...), enter, enter, enter, enter), []string{"seek 1", "seek 3", "seek 5", "seek 1"}, "1/3"},
		{"shift+enter: the previous, wrapping", append(append([]tea.KeyPressMsg{ctrlF}, typed("test")...), enter, shiftEnter), []string{"seek 1", "seek 5"}, "3/3"},
		{"unknown text: no match, no seek", append(append([]tea.KeyPressMsg{ctrlF}, typed("nowhere")...), enter), nil, "no match"},
		{"space is typed, not a pause", append([]tea.KeyPressMsg{ctrlF}, space), nil, "find:  "},
		{"esc closes; space pauses again", []tea.KeyPressMsg{ctrlF, esc, space}, []string{"toggle"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			km := keys.Default()
			m := model.New(replayOptions(model.Options{}.Status, false, km))
			defer m.Close()
			p := &fakePlayback{}
			var r tea.Model = replayModel{Model: m, player: p, keys: km, peer: new(string), find: newReplayFind(), size: &tea.WindowSizeMsg{}}
			r, _ = r.Update(tea.WindowSizeMsg{Width: 100, Height: 12})
			for _, k := range tc.keys {
				r, _ = r.Update(k)
			}
			if !slices.Equal(p.calls, tc.wantCalls) {
				t.Errorf("calls %q, want %q", p.calls, tc.wantCalls)
			}
			rows := strings.Split(ansi.Strip(r.View().Content), "\n")
			last := rows[len(rows)-1]
			if tc.wantLine == "" {
				if strings.HasPrefix(last, "find:") {
					t.Errorf("the search line is still open: %q", last)
				}
			} else if !strings.HasPrefix(last, "find:") || !strings.Contains(last, tc.wantLine) {
				t.Errorf("last row %q, want the search line with %q", last, tc.wantLine)
			}
		})
	}
}

// TestReplayFindGolden: the search line over the demo's replay, after
// `--find greeting` sought to its first match (golden:
// testdata/TestReplayFindGolden.golden; -update rewrites it).
func TestReplayFindGolden(t *testing.T) {
	km := keys.Default()
	rec := demoRec(t)
	opts := ReplayOptions{Speed: 1, IdleLimit: 2, Demo: true}
	p, err := opts.player(rec)
	if err != nil {
		t.Fatal(err)
	}
	find := newReplayFind()
	if !find.start(p, "greeting") {
		t.Fatal("the demo has no \"greeting\"")
	}
	m := model.New(replayOptions(model.Options{}.Status, false, km))
	defer m.Close()
	var r tea.Model = replayModel{Model: m, player: p, keys: km, peer: new(string), find: find, size: &tea.WindowSizeMsg{}}
	r, _ = r.Update(tea.WindowSizeMsg{Width: 90, Height: 8})
	got := ansi.Strip(r.View().Content)
	golden.RequireEqual(t, []byte(got))
}

func demoRec(t *testing.T) *sessions.Recording {
	t.Helper()
	rec, err := sessions.ReadRecording(bytes.NewReader(demo.Transcript))
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestReplayFindUnknownText: `tandem replay FILE --find TEXT` with text
// the recording does not hold says so before any screen opens (exit
// status 1, not a usage error, not a replay waiting forever); text it
// holds gets past the search (here to the no-terminal error).
func TestReplayFindUnknownText(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // the keymap reads the default config file
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	rec := writeFile(t, filepath.Join(t.TempDir(), "x.jsonl"), string(demo.Transcript))
	for _, tc := range []struct {
		find, want string
		usage      bool
	}{
		{"zzz-nowhere", `--find: "zzz-nowhere" is not in ` + rec, false},
		{"PIRATE", "replay needs a terminal", true},
	} {
		root := newRootCmd()
		root.SetArgs([]string{"replay", rec, "--find", tc.find})
		root.SetIn(devnull)
		root.SetOut(devnull)
		root.SetErr(devnull)
		err := root.Execute()
		var ue *usageError
		if err == nil || !strings.Contains(err.Error(), tc.want) || errors.As(err, &ue) != tc.usage {
			t.Errorf("--find %s: %v; want %q (usage error: %v)", tc.find, err, tc.want, tc.usage)
		}
	}
}
