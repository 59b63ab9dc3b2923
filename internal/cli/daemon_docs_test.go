package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestDaemonDocumented: the daemon's flag, its config key, the unix://
// form of --remote and /detach and /stop are in the README and in
// tandem --help.
func TestDaemonDocumented(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	root := newRootCmd()
	var help bytes.Buffer
	root.SetOut(&help)
	root.SetArgs([]string{"--help"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--daemon", "--remote unix://PATH", "/detach", "/stop"} {
		if !strings.Contains(string(readme), want) {
			t.Errorf("the README does not mention %s", want)
		}
		if !strings.Contains(help.String(), want) {
			t.Errorf("tandem --help does not mention %s", want)
		}
	}
	if !strings.Contains(string(readme), "daemon = true") {
		t.Error("the README does not show daemon = true")
	}
	if !strings.Contains(string(readme), "codex --remote unix://") {
		t.Error("the README does not say how Codex's own TUI joins the thread")
	}
}
