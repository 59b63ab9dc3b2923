package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
)

// A log, trace or state file that can't be written is told in one line,
// not silence and not a flood: `tandem exec` with --log-file /dev/full,
// --trace-protocol /dev/full, or a state folder that is a file (the log
// then has no folder either), writes exactly one warning per file to
// stderr, and the turn runs.
func TestUnwritableFilesWarnOnce(t *testing.T) {
	env := execEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("one")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("two")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("three")}})
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		args  []string
		state string // XDG_STATE_HOME
		want  string // the one warning's start
	}{
		{"log", []string{"--log-file", "/dev/full"}, t.TempDir(), "tandem: warning: --log-file /dev/full can't be written"},
		{"trace", []string{"--trace-protocol", "/dev/full"}, t.TempDir(), "tandem: warning: --trace-protocol /dev/full can't be written"},
		{"state folder", nil, notDir, "tandem: warning: the log " + filepath.Join(notDir, "tandem", "tandem.log") + " can't be written"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("XDG_STATE_HOME", c.state)
			args := append([]string{"exec", "--codex", env.Codex, "-C", env.Dir}, c.args...)
			_, errOut, err := runTandem(t, "", append(args, "say it")...)
			if err != nil {
				t.Fatalf("exec: %v\nstderr: %s", err, errOut)
			}
			if n := strings.Count(errOut, "can't be written"); n != 1 || !strings.Contains(errOut, c.want) {
				t.Fatalf("%d warnings, want one starting %q; stderr:\n%s", n, c.want, errOut)
			}
		})
	}
}

// The state file (the workspace's last thread, the prompt history) in a
// folder that can't be made: the first change that is not saved is told
// once in the TUI, the later ones not again.
func TestUnwritableStateWarnsOnce(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_STATE_HOME", notDir)
	e := &runEnv{warn: newWarner(nil, true)}
	st := e.state()
	for _, p := range []string{"one", "two", "three"} {
		if err := st.AddHistory("/w", p); err == nil {
			t.Fatal("the state file was written")
		}
	}
	got := make(chan tea.Msg, 10)
	e.warn.attach(func(m tea.Msg) { got <- m })
	_ = st.SetLastThread("/w", "t1") // after attach: still not told again
	w := (<-got).(backend.WarningEvent)
	if want := "the state file " + filepath.Join(notDir, "tandem", "workspaces.json") + " can't be written"; !strings.HasPrefix(w.Message, want) {
		t.Fatalf("warning %q, want it to start %q", w.Message, want)
	}
	select {
	case m := <-got:
		t.Fatalf("a second warning: %v", m)
	default:
	}
}
