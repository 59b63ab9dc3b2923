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
