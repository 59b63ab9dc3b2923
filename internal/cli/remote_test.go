package cli

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"tandem/backend"
)

// parseFlags registers the interactive flags on a bare command, parses
// args and validates them (which resolves the config file).
func parseFlags(t *testing.T, args ...string) (*runConfig, error) {
	t.Helper()
	var o SessionOptions
	cmd := &cobra.Command{Use: "tandem"}
	o.register(cmd.Flags())
	if err := cmd.ParseFlags(args); err != nil {
		return nil, err
	}
	c, err := o.resolve()
	return &c, err
}

func TestRemoteFlagsValidate(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--ssh", "-oProxyCommand=x"}, `invalid value "-oProxyCommand=x" for --ssh`},
		{[]string{"--ssh", "dev:99999"}, "port must be 1-65535"},
		{[]string{"--remote", "http://x:1"}, "expected ws://HOST:PORT"},
		{[]string{"--ssh", "dev", "--remote", "ws://x:1"}, "--ssh and --remote are exclusive"},
		{[]string{"--remote-token-file", "/tmp/t"}, "--remote-token-file needs --remote"},
	} {
		_, err := parseFlags(t, tc.args...)
		var ue *usageError
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &ue) {
			t.Errorf("%v: error = %v, want usage error %q", tc.args, err, tc.want)
		}
	}
}

// TestRemoteTransportFromProfileAndFlags: a profile's ssh target and
// options are used; flags win (their -o options come first, since ssh
// keeps the first value) and replace the remote codex and workspace.
func TestRemoteTransportFromProfileAndFlags(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, []byte(`
[profiles.box]
ssh = "me@box:2222"
ssh_options = ["-o", "ConnectTimeout=5", "ServerAliveInterval=5"]
remote_codex = "/opt/codex"
remote_workspace = "/srv/app"
`), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := parseFlags(t, "--config", cfg, "--profile", "box", "--ssh-option", "ConnectTimeout=1", "--remote-workspace", "/srv/other")
	if err != nil {
		t.Fatal(err)
	}
	if !f.isRemote() {
		t.Fatal("profile ssh target not used")
	}
	tr, err := f.remoteTransport(nil)
	if err != nil {
		t.Fatal(err)
	}
	st, ok := tr.(*backend.SSHTransport)
	if !ok {
		t.Fatalf("transport %T, want *backend.SSHTransport", tr)
	}
	if st.Target != "me@box:2222" || st.RemoteCodex != "/opt/codex" || st.RemoteWorkspace != "/srv/other" {
		t.Errorf("transport = %+v", st)
	}
	if want := []string{"ConnectTimeout=1", "ConnectTimeout=5", "ServerAliveInterval=5"}; !slices.Equal(st.Options, want) {
		t.Errorf("options = %q, want %q", st.Options, want)
	}
	if got := f.threadCwd("/local/dir"); got != "/srv/other" {
		t.Errorf("thread cwd = %q, want the remote workspace", got)
	}

	// Without a remote workspace the server's own directory is used.
	f, err = parseFlags(t, "--ssh", "dev")
	if err != nil {
		t.Fatal(err)
	}
	if got := f.threadCwd("/local/dir"); got != "" {
		t.Errorf("thread cwd = %q, want \"\"", got)
	}
	tr, err = f.remoteTransport(nil)
	if err != nil || tr.(*backend.SSHTransport).Target != "dev" {
		t.Fatalf("--ssh dev: %v %+v", err, tr)
	}

	// --remote attaches over websocket.
	f, err = parseFlags(t, "--remote", "ws://127.0.0.1:9", "--remote-token-file", "/tmp/tok")
	if err != nil {
		t.Fatal(err)
	}
	tr, _ = f.remoteTransport(nil)
	if ws, ok := tr.(*backend.WSTransport); !ok || ws.URL != "ws://127.0.0.1:9" || ws.TokenFile != "/tmp/tok" || f.threadCwd("/x") != "" {
		t.Fatalf("--remote: %+v", tr)
	}
}

func TestSSHOptionsFromConfig(t *testing.T) {
	got, err := sshOptions([]string{"-o", "A=1", "-oB=2", "C 3", "D=4"})
	if err != nil || !slices.Equal(got, []string{"A=1", "B=2", "C 3", "D=4"}) {
		t.Fatalf("got %q, %v", got, err)
	}
	if _, err := sshOptions([]string{"-v"}); err == nil || !strings.Contains(err.Error(), `invalid ssh_options entry "-v"`) {
		t.Fatalf("-v: %v", err)
	}
}

// Before the server names its workspace, the status line shows the local
// one only for a local server: never the local cwd for a remote one.
func TestStatusCwd(t *testing.T) {
	home, _ := os.UserHomeDir()
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"local folds home", nil, "~/proj"},
		{"ssh with a workspace", []string{"--ssh", "dev", "--remote-workspace", "/srv/app"}, "/srv/app"},
		{"ssh with a relative workspace", []string{"--ssh", "dev", "--remote-workspace", "app"}, "app"},
		{"ssh without one", []string{"--ssh", "dev"}, ""},
		{"websocket", []string{"--remote", "ws://127.0.0.1:9"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := parseFlags(t, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.statusCwd(filepath.Join(home, "proj")); got != tc.want {
				t.Errorf("statusCwd = %q; want %q", got, tc.want)
			}
		})
	}
	if got := peerPath("ssh dev", filepath.Join(home, "x")); got != filepath.Join(home, "x") {
		t.Errorf("a remote path was folded with the local home: %q", got)
	}
	if got := peerPath("local", filepath.Join(home, "x")); got != "~/x" {
		t.Errorf("peerPath local = %q; want ~/x", got)
	}
}
