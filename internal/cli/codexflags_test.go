package cli

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// isolate points the config and codex homes at empty temp dirs.
func isolate(t *testing.T) (codexHome string) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	codexHome = t.TempDir()
	t.Setenv("CODEX_HOME", codexHome)
	return codexHome
}

func writeFile(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// --yolo, --search and --add-dir, as codex names and means them: what the
// run sends, or the usage error.
func TestCodexFlagsResolve(t *testing.T) {
	home := isolate(t)
	ws := t.TempDir()
	extra := filepath.Join(ws, "extra")
	if err := os.Mkdir(extra, 0o700); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	writeFile(t, filepath.Join(home, "config.toml"), "")
	cases := []struct {
		name               string
		args               []string
		approval, sandbox  string
		codexArgs, addDirs []string
		err                string
	}{
		{name: "nothing", args: nil},
		{name: "--yolo", args: []string{"--yolo"}, approval: "never", sandbox: "danger-full-access"},
		{name: "the long name", args: []string{"--dangerously-bypass-approvals-and-sandbox"}, approval: "never", sandbox: "danger-full-access"},
		{name: "--yolo with -a", args: []string{"--yolo", "-a", "untrusted"}, err: "leave out -a and -s"},
		{name: "--yolo with -s", args: []string{"--yolo", "-s", "read-only"}, err: "leave out -a and -s"},
		{name: "--search", args: []string{"--search", "-c", "x=1"}, codexArgs: []string{"-c", "x=1", "-c", `web_search="live"`}},
		{name: "--add-dir relative to -C, and absolute", args: []string{"--add-dir", "extra", "--add-dir", other}, addDirs: []string{extra, other}},
		{name: "--add-dir missing", args: []string{"--add-dir", "nope"}, err: `invalid value "nope" for --add-dir: ` + filepath.Join(ws, "nope") + " is not a directory"},
		{name: "--add-dir empty", args: []string{"--add-dir", ""}, err: "--add-dir: expected a directory"},
		{name: "--add-dir over ssh must be absolute", args: []string{"--ssh", "me@box", "--add-dir", "rel"}, err: "give an absolute path on the remote machine"},
		{name: "--add-dir over ssh", args: []string{"--ssh", "me@box", "--add-dir", "/srv/data/"}, addDirs: []string{"/srv/data"}},
		// The local daemon is on this machine: a relative directory is
		// this machine's, as without it.
		{name: "--add-dir relative, the local daemon", args: []string{"--remote", "unix://", "--add-dir", "extra"}, addDirs: []string{extra}},
		{name: "--add-dir relative, --daemon", args: []string{"--daemon", "--add-dir", "extra"}, addDirs: []string{extra}},
		{name: "--add-dir over a websocket must be absolute", args: []string{"--remote", "ws://127.0.0.1:1", "--add-dir", "rel"}, err: "give an absolute path on the remote machine"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rc, err := parseSettingsFlags(t, append([]string{"-C", ws}, c.args...)...)
			if c.err != "" {
				var ue *usageError
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want a usage error with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s := rc.settings
			if s.ApprovalPolicy != c.approval || s.Sandbox != c.sandbox {
				t.Errorf("approval %q sandbox %q, want %q %q", s.ApprovalPolicy, s.Sandbox, c.approval, c.sandbox)
			}
			if !slices.Equal(s.CodexArgs, c.codexArgs) {
				t.Errorf("codex args %q, want %q", s.CodexArgs, c.codexArgs)
			}
			if !slices.Equal(rc.addDirs, c.addDirs) {
				t.Errorf("add dirs %q, want %q", rc.addDirs, c.addDirs)
			}
		})
	}
}

// -p NAME applies tandem's [profiles.NAME] and codex's NAME.config.toml,
// whichever exist; codex's goes to the app-server as -c overrides before
// the config's and the flags' (which win); neither is an error naming
// both places.
func TestProfileTandemAndCodex(t *testing.T) {
	home := isolate(t)
	ws := t.TempDir()
	cfg := writeFile(t, filepath.Join(t.TempDir(), "config.toml"), "[profiles.both]\ntheme = \"light\"\n[profiles.mine]\ntheme = \"dark\"\n")
	writeFile(t, filepath.Join(home, "both.config.toml"), "model = \"codex-both\"\n")
	writeFile(t, filepath.Join(home, "theirs.config.toml"), "model = \"codex-theirs\"\nmodel_reasoning_effort = \"high\"\n[sandbox_workspace_write]\nnetwork_access = true\n")
	cases := []struct {
		name      string
		args      []string
		theme     string
		codexArgs []string
		err       string
	}{
		{name: "both", args: []string{"-p", "both", "-c", "model=\"flag\""}, theme: "light",
			codexArgs: []string{"-c", `model="codex-both"`, "-c", `model="flag"`}},
		{name: "tandem's only", args: []string{"--profile", "mine"}, theme: "dark"},
		{name: "codex's only", args: []string{"-p", "theirs"}, theme: "auto",
			codexArgs: []string{"-c", `model="codex-theirs"`, "-c", `model_reasoning_effort="high"`, "-c", "sandbox_workspace_write.network_access=true"}},
		{name: "neither", args: []string{"-p", "nope"},
			err: `unknown profile "nope": no [profiles.nope] in ` + cfg + " (it defines: both, mine), and no codex profile " + filepath.Join(home, "nope.config.toml")},
		{name: "codex's only, remote", args: []string{"-p", "theirs", "--remote", "ws://127.0.0.1:1"},
			err: "codex's own profiles (NAME.config.toml) are read only for a local codex"},
		{name: "tandem's, remote", args: []string{"-p", "mine", "--remote", "ws://127.0.0.1:1"}, theme: "dark"},
		// The local daemon's home is this machine's: codex's profile is
		// found (its args then get the daemon's note, as with --daemon).
		{name: "codex's only, the local daemon", args: []string{"-p", "theirs", "--remote", "unix://"}, theme: "auto",
			codexArgs: []string{"-c", `model="codex-theirs"`, "-c", `model_reasoning_effort="high"`, "-c", "sandbox_workspace_write.network_access=true"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rc, err := parseSettingsFlags(t, append([]string{"--config", cfg, "-C", ws}, c.args...)...)
			if c.err != "" {
				var ue *usageError
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want a usage error with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if rc.settings.Theme != c.theme {
				t.Errorf("theme %q, want %q", rc.settings.Theme, c.theme)
			}
			if !slices.Equal(rc.settings.CodexArgs, c.codexArgs) {
				t.Errorf("codex args %q, want %q", rc.settings.CodexArgs, c.codexArgs)
			}
		})
	}
}

// A codex profile's values become -c overrides codex parses back to the
// same TOML: nested tables as dotted keys, arrays and tables in arrays
// inline, strings escaped; a key codex can't name in a dotted path is an
// error; a missing file is not found.
func TestCodexProfileArgs(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, text string
		want       []string
		err        string
	}{
		{name: "scalars and tables", text: "model = \"m\"\nmodel_auto_compact_token_limit = 9000\nx_float = 1.0\n[tui]\nanimations = false\n[tools.web]\ndepth = 2\n",
			want: []string{"-c", `model="m"`, "-c", "model_auto_compact_token_limit=9000", "-c", "tools.web.depth=2", "-c", "tui.animations=false", "-c", "x_float=1.0"}},
		{name: "strings escaped", text: "developer_instructions = \"say \\\"hi\\\"\\nthen \\\\ go\\u0001\"\n",
			want: []string{"-c", `developer_instructions="say \"hi\"\nthen \\ go\u0001"`}},
		{name: "arrays and tables in arrays", text: "notify = [\"a\", \"b\"]\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"true\"\n",
			want: []string{"-c", `hooks.PreToolUse=[{matcher = "Bash", hooks = [{command = "true", type = "command"}]}]`, "-c", `notify=["a", "b"]`}},
		{name: "a dotted key", text: "[model_providers.\"azure.eu\"]\nname = \"x\"\n", err: `key "azure.eu" in model_providers can't be passed`},
		{name: "bad TOML", text: "model = \n", err: "codex profile"},
		{name: "a secret", text: "[mcp_servers.docs.env]\nDOCS_API_KEY = \"sk-proj-abcdefghijklmnopqrstuvwxyz0123456789\"\n", err: "mcp_servers.docs.env.DOCS_API_KEY holds a secret"},
		{name: "a bearer token", text: "[model_providers.corp]\nexperimental_bearer_token = \"abcdefghijklmnopqrstuvwxyz0123456789\"\n", err: "experimental_bearer_token holds a secret"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := writeFile(t, filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".config.toml"), c.text)
			got, found, err := codexProfileArgs(p)
			if !found {
				t.Fatal("not found")
			}
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("args\n %q\nwant\n %q", got, c.want)
			}
		})
	}
	if _, found, err := codexProfileArgs(filepath.Join(dir, "missing.config.toml")); found || err != nil {
		t.Errorf("missing file: found %v, err %v", found, err)
	}
}

// -c overrides cannot reach a daemon's app-server, which is running
// already: every way to the daemon says so, none drops them silently.
func TestDaemonNotesCodexArgs(t *testing.T) {
	home := isolate(t)
	writeFile(t, filepath.Join(home, "config.toml"), "")
	cases := []struct {
		name string
		args []string
		note bool
	}{
		{"--daemon", []string{"--daemon", "-c", "x=1"}, true},
		{"the local daemon's socket", []string{"--remote", "unix://", "-c", "x=1"}, true},
		{"--daemon, no overrides", []string{"--daemon"}, false},
		{"the socket, no overrides", []string{"--remote", "unix://"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rc, err := parseSettingsFlags(t, append([]string{"-C", t.TempDir()}, c.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			_, cleanup, notes, err := rc.appServerTransport("codex", t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			cleanup()
			all := strings.Join(notes, "\n")
			said := strings.Contains(all, "do not reach the daemon")
			if said != c.note {
				t.Errorf("notes %q: the daemon note said %v, want %v", notes, said, c.note)
			}
			// It names the setting and where to put it.
			if c.note && !strings.Contains(all, "(x): set them in "+filepath.Join(home, "config.toml")) {
				t.Errorf("the note names neither the key nor the file: %q", all)
			}
		})
	}
}

// -p takes a name, never a path out of $CODEX_HOME or nothing at all.
func TestProfileName(t *testing.T) {
	for name, ok := range map[string]bool{"fast": true, "work-2": true, "my_p.v1": true, "": false, "../x": false, ".hidden": false, "a/b": false, `a\b`: false} {
		var o SessionOptions
		cmd := &cobra.Command{}
		o.register(cmd.Flags())
		err := cmd.ParseFlags([]string{"-p", name})
		if (err == nil) != ok || (ok && o.Profile != name) {
			t.Errorf("-p %q: %v (profile %q), want ok %v", name, err, o.Profile, ok)
		}
	}
}
