package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tandem/internal/testkit/sshtest"
)

// TestServeRecordFlagsAreUsed: serve's --record and --trace-protocol are
// opened (a bad path is the usual usage error), never silently ignored.
func TestServeRecordFlagsAreUsed(t *testing.T) {
	keys := filepath.Join(t.TempDir(), "drivers")
	_ = os.WriteFile(keys, []byte(sshtest.NewKey(t, "d").Line()), 0o600)
	for _, flag := range []string{"--record", "--trace-protocol"} {
		_, _, err := runTandem(t, "", "serve", "--codex", "/bin/true", "--authorized-keys", keys, flag, "/nonexistent/dir/file.jsonl")
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), flag) {
			t.Errorf("serve %s into a missing directory: %v", flag, err)
		}
	}
}

// TestServeLoginGraceMustBePositive: --login-grace 0 or below is a usage
// error naming the flag.
func TestServeLoginGraceMustBePositive(t *testing.T) {
	keys := filepath.Join(t.TempDir(), "drivers")
	_ = os.WriteFile(keys, []byte(sshtest.NewKey(t, "d").Line()), 0o600)
	for _, v := range []string{"0", "-5s"} {
		_, _, err := runTandem(t, "", "serve", "--codex", "/bin/true", "--authorized-keys", keys, "--login-grace", v)
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "--login-grace") {
			t.Errorf("serve --login-grace %s: %v", v, err)
		}
	}
}
