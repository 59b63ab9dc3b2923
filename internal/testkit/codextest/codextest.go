// Package codextest finds the pinned codex executable for tests that run
// the real app-server (scripts/install-codex.sh installs it). It imports
// nothing of tandem, so backend, mockapi and e2e tests can all use it.
package codextest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Path returns the codex executable: $TANDEM_CODEX (which must exist),
// else .codex-bin/node_modules/.bin/codex at the module root. A missing
// codex skips the test, or fails it when $CI is set, so e2e tests never
// skip silently there.
func Path(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("TANDEM_CODEX"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("TANDEM_CODEX=%s: %v", p, err)
		}
		return p
	}
	if root, err := moduleRoot(); err == nil {
		p := filepath.Join(root, ".codex-bin", "node_modules", ".bin", "codex")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("codex not installed: run scripts/install-codex.sh or set TANDEM_CODEX (CI must not skip e2e tests)")
	}
	t.Skip("codex not installed: run scripts/install-codex.sh or set TANDEM_CODEX")
	return ""
}

// moduleRoot walks up from the working directory to the go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}
