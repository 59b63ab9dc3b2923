package cli

import (
	"errors"
	"os"
	"strings"
	"testing"

	"tandem/sessions/demo"
)

// Without a terminal, tandem and tandem resume stop with one line that
// points at tandem exec (exit 2), before starting anything (a missing
// codex is told first: TestNoCodexOffersDemo).
func TestInteractiveNeedsTerminal(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	for _, args := range [][]string{{}, {"hello"}, {"resume", "--last"}} {
		for _, in := range []any{strings.NewReader(""), devnull} {
			root := newRootCmd()
			root.SetArgs(append([]string{"--codex", "/bin/true"}, args...))
			if r, ok := in.(*os.File); ok {
				root.SetIn(r)
			} else {
				root.SetIn(in.(*strings.Reader))
			}
			root.SetOut(devnull)
			root.SetErr(devnull)
			err := root.Execute()
			var ue *usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), "tandem needs a terminal; use `tandem exec PROMPT` for scripts") {
				t.Errorf("%v (stdin %T): got %v, want the no-terminal usage error", args, in, err)
			}
		}
	}
}

// tandem demo and tandem replay say the same without a terminal, pointing
// at tandem export, instead of Bubble Tea's "error opening TTY".
func TestReplayNeedsTerminal(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // the keymap reads the default config file
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	rec := t.TempDir() + "/x.jsonl"
	if err := os.WriteFile(rec, demo.Transcript, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"demo"}, {"replay", rec}} {
		root := newRootCmd()
		root.SetArgs(args)
		root.SetIn(devnull)
		root.SetOut(devnull)
		root.SetErr(devnull)
		err := root.Execute()
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), args[0]+" needs a terminal") || !strings.Contains(err.Error(), "tandem export") {
			t.Errorf("%v: got %v, want the no-terminal usage error", args, err)
		}
	}
}
