package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tandem/backend"
)

// TestDaemonDocumented: the daemon's flag, its config key, the unix://
// form of --remote and /detach and /stop are in docs/REMOTE.md and in
// tandem --help.
func TestDaemonDocumented(t *testing.T) {
	readme, err := os.ReadFile("../../docs/REMOTE.md")
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
			t.Errorf("docs/REMOTE.md does not mention %s", want)
		}
		if !strings.Contains(help.String(), want) {
			t.Errorf("tandem --help does not mention %s", want)
		}
	}
	if !strings.Contains(string(readme), "daemon = true") {
		t.Error("docs/REMOTE.md does not show daemon = true")
	}
	if !strings.Contains(string(readme), "codex --remote unix://") {
		t.Error("docs/REMOTE.md does not say how Codex's own TUI joins the thread")
	}
}

// TestDaemonTransportChoice: how each way of asking for the daemon
// reaches it — --daemon locally dials the local daemon (started by
// tandem), over --ssh the ssh transport carries it, --remote unix://PATH
// attaches to PATH (unix:// alone: the daemon of $CODEX_HOME) without
// starting one; all are durable and need no local codex to attach;
// without any of them nothing is durable. The resume command on exit
// comes back the same way.
func TestDaemonTransportChoice(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	home := t.TempDir()
	t.Setenv("CODEX_HOME", home)
	tests := []struct {
		args       []string
		wantSocket string // for a DaemonTransport: its Socket ("" starts the daemon)
		wantSSH    bool
		durable    bool
		resume     string
	}{
		{[]string{}, "", false, false, "tandem resume --last"},
		{[]string{"--daemon"}, "", false, true, "tandem resume --last --daemon"},
		{[]string{"--daemon", "--ssh", "me@box", "--remote-workspace", "/srv/my app"}, "", true, true, "tandem resume --last --ssh me@box --remote-workspace '/srv/my app' --daemon"},
		{[]string{"--remote", "unix:///run/d.sock"}, "/run/d.sock", false, true, "tandem resume --last --remote unix:///run/d.sock"},
		{[]string{"--remote", "unix://"}, home + "/app-server-control/app-server-control.sock", false, true, ""},
	}
	for _, tt := range tests {
		c, err := parseFlags(t, tt.args...)
		if err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		if c.durable() != tt.durable {
			t.Errorf("%v: durable %v", tt.args, c.durable())
		}
		if tt.resume != "" && resumeCommand(*c) != tt.resume {
			t.Errorf("%v: resume command %q; want %q", tt.args, resumeCommand(*c), tt.resume)
		}
		tr, _, _, err := c.appServerTransport("/usr/bin/codex", t.TempDir(), nil)
		if err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		_, durable := backend.IsDurable(tr)
		switch x := tr.(type) {
		case *backend.DaemonTransport:
			if x.Socket != tt.wantSocket || tt.wantSSH || !durable {
				t.Errorf("%v: daemon transport socket %q durable %v", tt.args, x.Socket, durable)
			}
			if x.Socket == "" && !strings.Contains(strings.Join(x.Env, "\n"), "CODEX_HOME="+home) {
				t.Errorf("%v: the daemon does not get the CODEX_HOME in use", tt.args)
			}
		case *backend.SSHTransport:
			if !tt.wantSSH || x.Daemon != tt.durable || !durable {
				t.Errorf("%v: ssh transport daemon %v", tt.args, x.Daemon)
			}
		case *backend.ProcessTransport:
			if tt.durable || durable {
				t.Errorf("%v: a child app-server", tt.args)
			}
		default:
			t.Errorf("%v: transport %T", tt.args, tr)
		}
	}
}

// A CODEX_HOME set in the config's codex.env is the daemon's home both
// ways: --daemon starts the daemon there, and --remote unix:// attaches
// to that daemon's socket, not to the one of tandem's own environment.
func TestDaemonHomeFromConfigEnv(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("CODEX_HOME", t.TempDir()) // tandem's own: not the one used
	cfgHome := t.TempDir()
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	if err := os.MkdirAll(filepath.Join(xdg, "tandem"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(xdg, "tandem", "config.toml"), []byte("[codex]\nenv = { CODEX_HOME = "+strconv.Quote(cfgHome)+" }\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--daemon"}, {"--remote", "unix://"}} {
		c, err := parseFlags(t, args...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		tr, _, _, err := c.appServerTransport("/usr/bin/codex", t.TempDir(), nil)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		d, ok := tr.(*backend.DaemonTransport)
		switch {
		case !ok:
			t.Errorf("%v: transport %T", args, tr)
		case d.Socket == "" && !slices.Contains(d.Env, "CODEX_HOME="+cfgHome):
			t.Errorf("%v: the daemon starts without the config's CODEX_HOME", args)
		case d.Socket != "" && d.Socket != backend.DaemonSocket(cfgHome):
			t.Errorf("%v: attaches to %s, want the daemon of the config's CODEX_HOME %s", args, d.Socket, cfgHome)
		}
	}
}
