package cli

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// --worktree takes its NAME as =NAME or as the first of the arguments,
// and leaves the prompt its place.
func TestWorktreeArgs(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		worktree string // "-": no --worktree
		prompt   string
		bad      bool
	}{
		{args: []string{"fix it"}, worktree: "-", prompt: "fix it"},
		{args: []string{}, worktree: "-"},
		{args: []string{"a", "b"}, bad: true},
		{args: []string{"--worktree"}, worktree: ""},
		{args: []string{"--worktree", "fix-login"}, worktree: "fix-login"},
		{args: []string{"--worktree", "fix-login", "fix the login test"}, worktree: "fix-login", prompt: "fix the login test"},
		{args: []string{"--worktree", "", "fix the login test"}, worktree: "", prompt: "fix the login test"},
		{args: []string{"--worktree=fix-login", "fix the login test"}, worktree: "fix-login", prompt: "fix the login test"},
		{args: []string{"--worktree=", "fix the login test"}, worktree: "", prompt: "fix the login test"},
		{args: []string{"fix-login", "fix the login test", "--worktree"}, worktree: "fix-login", prompt: "fix the login test"},
		{args: []string{"--worktree=x", "a", "b"}, bad: true},
		{args: []string{"--worktree", "x", "a", "b"}, bad: true},
	} {
		var opts ChatOptions
		ran := false
		cmd := &cobra.Command{Use: "tandem", Args: chatArgs(&opts), RunE: func(*cobra.Command, []string) error { ran = true; return nil }}
		registerWorktree(cmd.Flags(), &opts.worktreeName)
		cmd.SetArgs(tc.args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		err := cmd.Execute()
		if tc.bad {
			if err == nil {
				t.Errorf("%q: accepted (worktree %v, prompt %q)", tc.args, opts.Worktree, opts.Prompt)
			}
			continue
		}
		if err != nil || !ran {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		got := "-"
		if opts.Worktree != nil {
			got = *opts.Worktree
		}
		if got != tc.worktree || opts.Prompt != tc.prompt {
			t.Errorf("%q: worktree %q prompt %q; want %q, %q", tc.args, got, opts.Prompt, tc.worktree, tc.prompt)
		}
	}
}

// A --worktree name git could never take is a usage error before
// anything starts (exit 2), not a failed start the user can only retry.
func TestWorktreeBadNameIsAUsageError(t *testing.T) {
	for _, name := range []string{"has space", "..", "a..b", "x/y", "-x", "end.lock"} {
		_, _, err := runTandem(t, "", "--codex", "/bin/true", "--worktree="+name, "a prompt")
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "--worktree") {
			t.Errorf("--worktree %q: %v; want a usage error naming --worktree", name, err)
		}
	}
}
