package cli

import (
	"os"
	"path/filepath"
	"testing"

	"tandem/backend"
)

// resume_cwd reaches the session: "session" by default, the config's
// value otherwise, and "current" whenever -C or --remote-workspace names
// a directory on the command line (as codex's --cd does).
func TestResumeCwdReachesTheSession(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("resume_cwd = \"current\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cases := []struct {
		args []string
		want backend.ResumeCwd
	}{
		{nil, backend.ResumeCwdSession},
		{[]string{"--config", cfg}, backend.ResumeCwdCurrent},
		{[]string{"-C", dir}, backend.ResumeCwdCurrent},
		{[]string{"--ssh", "me@box", "--remote-workspace", "/srv/app"}, backend.ResumeCwdCurrent},
	}
	for _, c := range cases {
		rc, err := parseSettingsFlags(t, c.args...)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		e := &runEnv{cfg: rc, cwd: rc.settings.Workspace}
		if got := e.sessionOptions(nil).ResumeCwd; got != c.want {
			t.Errorf("%v: resume_cwd %q, want %q", c.args, got, c.want)
		}
	}
}
