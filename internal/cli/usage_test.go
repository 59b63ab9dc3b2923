package cli

import (
	"errors"
	"io"
	"testing"
)

// Every way of calling tandem wrongly is a usage error (exit 2) that names
// what is wrong; none of these starts anything.
func TestBadUsageIsAUsageError(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"bad approval policy", []string{"-a", "sometimes"}},
		{"bad sandbox", []string{"-s", "open"}},
		{"override without =", []string{"-c", "novalue"}},
		{"missing --cd dir", []string{"-C", "/nonexistent/dir"}},
		{"two prompts", []string{"one", "two"}},
		{"export without file", []string{"export"}},
		{"replay without file", []string{"replay"}},
		{"exec without prompt", []string{"exec"}},
		{"flag without value", []string{"--model"}},
		{"bad --codex", []string{"--codex", "/nonexistent/codex", "exec", "hi"}},
		{"bad --record", []string{"--codex", "/bin/true", "--record", "/nonexistent/dir/x.jsonl", "exec", "hi"}},
		{"bad --trace-protocol", []string{"--codex", "/bin/true", "--trace-protocol", "/nonexistent/dir/t", "exec", "hi"}},
		{"--daemon with --remote", []string{"--daemon", "--remote", "ws://127.0.0.1:1"}},
		{"bad --remote scheme", []string{"--remote", "tcp://127.0.0.1:1"}},
		{"token for a unix socket", []string{"--remote", "unix:///tmp/x.sock", "--remote-token-file", "/etc/hostname"}},
		{"serve --daemon", []string{"serve", "--daemon", "--codex", "/bin/true", "--authorized-keys", "/etc/hostname"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := newRootCmd()
			usageArgs(root)
			root.SetArgs(c.args)
			root.SetOut(io.Discard)
			root.SetErr(io.Discard)
			err := root.Execute()
			var ue *usageError
			if !errors.As(err, &ue) {
				t.Fatalf("tandem %v: got %v, want a usage error", c.args, err)
			}
		})
	}
}
