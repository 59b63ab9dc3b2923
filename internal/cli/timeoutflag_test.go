package cli

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// --turn-timeout takes the same values as the config key turn_timeout,
// "off" and "0" included, and a flag "off" beats a file's value.
func TestTurnTimeoutFlag(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("turn_timeout = \"2m\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want time.Duration
	}{
		{nil, 30 * time.Minute},
		{[]string{"--turn-timeout", "off"}, 0},
		{[]string{"--turn-timeout", "none"}, 0},
		{[]string{"--turn-timeout", "0"}, 0},
		{[]string{"--turn-timeout=90s"}, 90 * time.Second},
		{[]string{"--config", cfg}, 2 * time.Minute},
		{[]string{"--config", cfg, "--turn-timeout", "off"}, 0},
	}
	for _, tc := range cases {
		f, err := parseSettingsFlags(t, tc.args...)
		if err != nil || f.settings.TurnTimeout != tc.want {
			t.Errorf("%v: timeout %v err %v, want %v", tc.args, f.settings.TurnTimeout, err, tc.want)
		}
	}
	for _, bad := range []string{"soon", "-5s"} {
		var o SessionOptions
		cmd := &cobra.Command{}
		o.register(cmd.Flags())
		if err := cmd.ParseFlags([]string{"--turn-timeout", bad}); err == nil {
			t.Errorf("--turn-timeout %s accepted", bad)
		}
	}
}
