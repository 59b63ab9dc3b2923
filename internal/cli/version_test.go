package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --version names the codex --codex gives, not the default one.
func TestVersionNamesTheCodexFlag(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "codex")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho codex-cli 0.171.0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ args, want string }{
		{"--codex " + fake + " --version", "codex 0.171.0 (" + fake},
		{"--codex /nonexistent/codex --version", "codex: /nonexistent/codex can't be run"},
	}
	for _, tt := range tests {
		out, _, err := runTandem(t, "", strings.Fields(tt.args)...)
		if err != nil || !strings.Contains(out, tt.want) {
			t.Errorf("tandem %s: %q, %v; want %q", tt.args, out, err, tt.want)
		}
	}
}
