package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// parseSettingsFlags registers the shared flags on a bare command, parses args
// and runs validate (which resolves the config).
func parseSettingsFlags(t *testing.T, args ...string) (flags, error) {
	t.Helper()
	var f flags
	cmd := &cobra.Command{}
	f.register(cmd)
	if err := cmd.ParseFlags(args); err != nil {
		t.Fatal(err)
	}
	return f, f.validate()
}

func TestResolveConfigWritesBack(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ws := t.TempDir()
	cfg := filepath.Join(t.TempDir(), "config.toml")
	text := "model = \"top\"\nturn_timeout = \"2m\"\ntheme = \"light\"\n[profiles.p]\nsandbox = \"read-only\"\nworkspace = \"" + ws + "\"\n[profiles.p.codex]\nargs = [\"-c\", \"a=1\"]\n"
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := parseSettingsFlags(t, "--config", cfg, "--profile", "p", "-c", "b=2")
	if err != nil {
		t.Fatal(err)
	}
	if f.model != "top" || f.sandbox != "read-only" || f.cd != ws || f.diag.turnTimeout != 2*time.Minute || f.settings.Dark() {
		t.Errorf("model %q sandbox %q cd %q timeout %v dark %v", f.model, f.sandbox, f.cd, f.diag.turnTimeout, f.settings.Dark())
	}
	if got := strings.Join(f.settings.CodexArgs, " "); got != "-c a=1 -c b=2" {
		t.Errorf("codex args %q", got)
	}
	// The --turn-timeout flag (diag.go) beats the file.
	f, err = parseSettingsFlags(t, "--config", cfg, "--turn-timeout", "5s")
	if err != nil || f.diag.turnTimeout != 5*time.Second {
		t.Errorf("flag timeout: %v %v", f.diag.turnTimeout, err)
	}
	// Without a file the turn timeout keeps its default.
	f, err = parseSettingsFlags(t)
	if err != nil || f.diag.turnTimeout != 30*time.Minute || f.settings.ConfigFile != "" {
		t.Errorf("defaults: %v %q %v", f.diag.turnTimeout, f.settings.ConfigFile, err)
	}
}

func TestResolveConfigErrorsAreUsageErrors(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("theme = \"neon\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--config", cfg}, {"--profile", "nope"}, {"--theme", "neon"}, {"--config", cfg + ".missing"}} {
		_, err := parseSettingsFlags(t, args...)
		if _, ok := err.(*usageError); !ok {
			t.Errorf("%v: want a usage error (exit 2), got %T %v", args, err, err)
		}
	}
}

func TestCodexEnvironPerRunHome(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	shared := t.TempDir()
	t.Setenv("CODEX_HOME", shared)
	f, err := parseSettingsFlags(t, "--isolated-home")
	if err != nil {
		t.Fatal(err)
	}
	f.settings.CodexEnv = map[string]string{"RUST_LOG": "warn"}
	env, cleanup, err := f.codexEnviron()
	if err != nil {
		t.Fatal(err)
	}
	home := lookupEnv(env, "CODEX_HOME")
	if home == shared || !strings.HasPrefix(home, filepath.Join(os.Getenv("XDG_STATE_HOME"), "tandem", "homes")) || lookupEnv(env, "RUST_LOG") != "warn" {
		t.Errorf("CODEX_HOME %q RUST_LOG %q", home, lookupEnv(env, "RUST_LOG"))
	}
	if n := strings.Count(strings.Join(env, "\n"), "\nCODEX_HOME="); n != 1 {
		t.Errorf("CODEX_HOME set %d times", n)
	}
	cleanup()
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Errorf("per-run home not removed: %v", err)
	}
}
