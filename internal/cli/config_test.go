package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// parseSettingsFlags registers the shared flags on a bare command, parses args
// and resolves them (validate, then the config).
func parseSettingsFlags(t *testing.T, args ...string) (runConfig, error) {
	t.Helper()
	var o SessionOptions
	cmd := &cobra.Command{}
	o.register(cmd.Flags())
	if err := cmd.ParseFlags(args); err != nil {
		t.Fatal(err)
	}
	return o.resolve()
}

// TestResolveConfig: the resolved configuration holds the effective
// values (flags > profile > file > defaults); the options keep the flags
// as given.
func TestResolveConfig(t *testing.T) {
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
	if s := f.settings; s.Model != "top" || s.Sandbox != "read-only" || s.Workspace != ws || s.TurnTimeout != 2*time.Minute || s.Dark() {
		t.Errorf("model %q sandbox %q cd %q timeout %v dark %v", s.Model, s.Sandbox, s.Workspace, s.TurnTimeout, s.Dark())
	}
	if got := strings.Join(f.settings.CodexArgs, " "); got != "-c a=1 -c b=2" {
		t.Errorf("codex args %q", got)
	}
	// The --turn-timeout flag (options.go) beats the file.
	f, err = parseSettingsFlags(t, "--config", cfg, "--turn-timeout", "5s")
	if err != nil || f.settings.TurnTimeout != 5*time.Second {
		t.Errorf("flag timeout: %v %v", f.settings.TurnTimeout, err)
	}
	// Without a file the turn timeout keeps its default.
	f, err = parseSettingsFlags(t)
	if err != nil || f.settings.TurnTimeout != 30*time.Minute || f.settings.ConfigFile != "" {
		t.Errorf("defaults: %v %q %v", f.settings.TurnTimeout, f.settings.ConfigFile, err)
	}
	// Nothing is written back into the options.
	var o SessionOptions
	cmd := &cobra.Command{}
	o.register(cmd.Flags())
	if err := cmd.ParseFlags([]string{"--config", cfg, "--profile", "p"}); err != nil {
		t.Fatal(err)
	}
	if _, err := o.resolve(); err != nil {
		t.Fatal(err)
	}
	if o.Model != "" || o.Sandbox != "" || o.Cd != "" || o.Codex != "" || o.TurnTimeout != 30*time.Minute || o.TurnTimeoutSet {
		t.Errorf("resolve wrote back into the options: %+v", o)
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

// --no-alt-screen and alt_screen: the flag turns the alternate screen off
// over a file that keeps it on; the file alone may turn it off.
func TestResolveAltScreen(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	on := filepath.Join(t.TempDir(), "on.toml")
	off := filepath.Join(t.TempDir(), "off.toml")
	for p, text := range map[string]string{on: "alt_screen = true\n", off: "alt_screen = false\n"} {
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		args []string
		alt  bool
	}{
		{nil, true},
		{[]string{"--no-alt-screen"}, false},
		{[]string{"--config", on, "--no-alt-screen"}, false},
		{[]string{"--config", off}, false},
		{[]string{"--config", on}, true},
	}
	for _, tt := range tests {
		var o SessionOptions
		cmd := &cobra.Command{}
		o.register(cmd.Flags())
		o.registerScreen(cmd.Flags())
		if err := cmd.ParseFlags(tt.args); err != nil {
			t.Fatal(err)
		}
		f, err := o.resolve()
		if err != nil || f.settings.AltScreen != tt.alt {
			t.Errorf("%v: alt screen %v (%v), want %v", tt.args, f.settings.AltScreen, err, tt.alt)
		}
	}
}
