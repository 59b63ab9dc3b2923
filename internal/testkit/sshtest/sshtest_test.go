package sshtest

import (
	"strings"
	"testing"
)

// TestServerRunsCommands proves the test sshd accepts the generated key and
// runs a command, and that the banner wrapper prints before it.
func TestServerRunsCommands(t *testing.T) {
	s := Start(t, Options{Banner: []string{"Welcome to the test box", "it's noisy"}})
	out, err := s.Run("echo hello-from-remote")
	if err != nil {
		t.Fatalf("ssh: %v: %s\n%s", err, out, s.Log())
	}
	want := "Welcome to the test box\nit's noisy\nhello-from-remote\n"
	if out != want {
		t.Fatalf("output = %q, want %q", out, want)
	}
	if !strings.Contains(s.Log(), "Accepted publickey") {
		t.Fatalf("sshd log lacks the key login:\n%s", s.Log())
	}
}

// TestServerLoginShell proves Options.Shell runs the client's command
// under that shell, with $SHELL set to it, alone and after a banner.
func TestServerLoginShell(t *testing.T) {
	tests := []struct {
		name, shell string
		banner      []string
		command     string
		want        string
	}{
		{name: "dash", shell: "dash", command: `echo "$SHELL" "$0"`, want: "{SHELL} {SHELL}\n"},
		{name: "dash after banner", shell: "dash", banner: []string{"hi, it's me"}, command: `echo "$SHELL"`, want: "hi, it's me\n{SHELL}\n"},
		// `set -q`/`and` are fish syntax: another shell would fail.
		{name: "fish", shell: "fish", command: `echo "$SHELL"; set -q FISH_VERSION; and echo fish`, want: "{SHELL}\nfish\n"},
		{name: "fish after banner", shell: "fish", banner: []string{"Welcome"}, command: `set -q FISH_VERSION; and echo fish`, want: "Welcome\nfish\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			shell := RequireShell(t, tc.shell)
			s := Start(t, Options{Shell: shell, Banner: tc.banner})
			out, err := s.Run(tc.command)
			if err != nil {
				t.Fatalf("ssh: %v: %s\n%s", err, out, s.Log())
			}
			if want := strings.ReplaceAll(tc.want, "{SHELL}", shell); out != want {
				t.Fatalf("output = %q, want %q", out, want)
			}
		})
	}
}
