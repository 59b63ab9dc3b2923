package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An explicit --log-file that is a directory or lies in a missing folder
// is a usage error (exit 2) naming the flag, and no folder is created.
func TestLogFileFlag(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	missing := filepath.Join(dir, "no", "such")
	cases := []struct {
		path    string
		wantErr string // "" = accepted
	}{
		{dir, "is a directory"},
		{filepath.Join(missing, "t.log"), "does not exist"},
		{filepath.Join(dir, "t.log"), ""},
	}
	for _, tc := range cases {
		_, err := parseSettingsFlags(t, "--log-file", tc.path)
		if tc.wantErr == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.path, err)
			}
			continue
		}
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "--log-file") || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%s: got %T %v, want a usage error naming --log-file and %q", tc.path, err, err, tc.wantErr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "no")); err == nil {
		t.Error("a missing --log-file folder was created")
	}
	// The whole command fails the same way, before codex is looked for.
	_, _, err := runTandem(t, "", "exec", "--codex", "/nonexistent/codex", "--log-file", dir, "hi")
	var ue *usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "--log-file") {
		t.Errorf("exec --log-file DIR: %T %v", err, err)
	}
}
