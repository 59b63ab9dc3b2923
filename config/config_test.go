package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// full is a file that sets every key, at the top level and in a profile.
const full = `# tandem config
model = "gpt-5"
approval_policy = "on-request"
sandbox = "workspace-write"
workspace = "WORKSPACE"
theme = "dark"
alt_screen = false
turn_timeout = "10m"
unresponsive_after_secs = 42
codex_home = "shared"
ssh = "me@devbox:2222"
ssh_options = ["-o", "ConnectTimeout=5"]
remote_codex = "/opt/codex"
remote_workspace = "~/src/app"

[codex]
command = "/usr/local/bin/codex"
args = ["-c", "model_reasoning_effort=high"]
env = { RUST_LOG = "warn", A = "top" }

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]
env = { DOCS_TOKEN = "x" }
cwd = "/tmp"
startup_timeout_sec = 20
tool_timeout_sec = 45.5
enabled = true
enabled_tools = ["search"]
disabled_tools = ["delete"]

[mcp_servers.api]
url = "https://mcp.example.com/mcp"
bearer_token_env_var = "API_TOKEN"
http_headers = { "X-Region" = "eu" }
env_http_headers = { "X-Auth" = "API_AUTH" }

[profiles.work]
model = "o3"
approval_policy = "untrusted"
theme = "light"
alt_screen = true
turn_timeout = "90s"
unresponsive_after_secs = 0

[profiles.work.codex]
env = { A = "work" }

[profiles.work.mcp_servers.docs]
url = "http://localhost:9000/mcp"

[profiles.fast]
sandbox = "read-only"
codex = { args = [] }
`

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func loadFull(t *testing.T) (*File, string) {
	t.Helper()
	ws := t.TempDir()
	p := writeFile(t, "config.toml", strings.Replace(full, "WORKSPACE", ws, 1))
	f, err := Load(p)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return f, ws
}

func TestResolvePrecedence(t *testing.T) {
	f, ws := loadFull(t)
	other := t.TempDir()
	tests := []struct {
		name    string
		profile string
		flags   Flags
		check   func(t *testing.T, s Settings)
	}{
		{"top level", "", Flags{}, func(t *testing.T, s Settings) {
			want := map[string]string{"model": "gpt-5", "approval": "on-request", "sandbox": "workspace-write", "workspace": ws, "theme": "dark", "codex": "/usr/local/bin/codex", "home": "per-run"}
			got := map[string]string{"model": s.Model, "approval": s.ApprovalPolicy, "sandbox": s.Sandbox, "workspace": s.Workspace, "theme": s.Theme, "codex": s.Codex, "home": s.CodexHome}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
			if s.TurnTimeout != 10*time.Minute {
				t.Errorf("turn timeout %v", s.TurnTimeout)
			}
			if s.UnresponsiveAfter != 42*time.Second {
				t.Errorf("unresponsive after %v", s.UnresponsiveAfter)
			}
			if s.AltScreen {
				t.Error("alt_screen = false left the alternate screen on")
			}
			if s.SSH == nil || *s.SSH != (SSHTarget{User: "me", Host: "devbox", Port: 2222}) {
				t.Errorf("ssh %+v", s.SSH)
			}
			if !reflect.DeepEqual(s.SSHOptions, []string{"-o", "ConnectTimeout=5"}) || s.RemoteCodex != "/opt/codex" || s.RemoteWorkspace != "~/src/app" {
				t.Errorf("ssh extras %v %q %q", s.SSHOptions, s.RemoteCodex, s.RemoteWorkspace)
			}
			if s.MCPServers["docs"].Command != "npx" || s.MCPServers["api"].URL == "" {
				t.Errorf("mcp %+v", s.MCPServers)
			}
			if s.CodexEnv["A"] != "top" || !reflect.DeepEqual(s.CodexArgs, []string{"-c", "model_reasoning_effort=high"}) {
				t.Errorf("codex env/args %v %v", s.CodexEnv, s.CodexArgs)
			}
		}},
		{"profile over top level", "work", Flags{}, func(t *testing.T, s Settings) {
			if s.Model != "o3" || s.ApprovalPolicy != "untrusted" || s.Theme != "light" || s.TurnTimeout != 90*time.Second {
				t.Errorf("got model %q approval %q theme %q timeout %v", s.Model, s.ApprovalPolicy, s.Theme, s.TurnTimeout)
			}
			if s.Sandbox != "workspace-write" {
				t.Errorf("unset in profile falls back to top level: sandbox %q", s.Sandbox)
			}
			if !s.AltScreen {
				t.Error("the profile's alt_screen = true lost to the top level's false")
			}
			if s.UnresponsiveAfter != 0 {
				t.Errorf("the profile's unresponsive_after_secs = 0 lost: %v", s.UnresponsiveAfter)
			}
			if s.CodexEnv["A"] != "work" || s.CodexEnv["RUST_LOG"] != "warn" {
				t.Errorf("env merge %v", s.CodexEnv)
			}
			if d := s.MCPServers["docs"]; d.URL != "http://localhost:9000/mcp" || d.Command != "" {
				t.Errorf("profile server replaces the top-level one: %+v", d)
			}
			if s.MCPServers["api"].URL == "" {
				t.Errorf("top-level server kept: %+v", s.MCPServers)
			}
		}},
		{"profile empty args replace", "fast", Flags{}, func(t *testing.T, s Settings) {
			if len(s.CodexArgs) != 0 || s.Sandbox != "read-only" {
				t.Errorf("args %v sandbox %q", s.CodexArgs, s.Sandbox)
			}
		}},
		{"flags over profile", "work", Flags{Model: "m-flag", Approval: "never", Sandbox: "danger-full-access", Workspace: other, Theme: "auto", NoAltScreen: true, TurnTimeout: "off", Codex: "/bin/true", CodexArgs: []string{"-c", "k=v"}, SSH: "host"}, func(t *testing.T, s Settings) {
			if s.Model != "m-flag" || s.ApprovalPolicy != "never" || s.Sandbox != "danger-full-access" || s.Workspace != other || s.Theme != "auto" || s.AltScreen || s.TurnTimeout != 0 || s.Codex != "/bin/true" {
				t.Errorf("got %+v", s)
			}
			if !reflect.DeepEqual(s.CodexArgs, []string{"-c", "model_reasoning_effort=high", "-c", "k=v"}) {
				t.Errorf("flag args append: %v", s.CodexArgs)
			}
			if s.SSH == nil || s.SSH.Host != "host" || s.SSH.User != "" || s.SSH.Port != 0 {
				t.Errorf("ssh %+v", s.SSH)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Resolve(f, tt.profile, tt.flags)
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, s)
		})
	}
}

func TestResolveDefaults(t *testing.T) {
	s, err := Resolve(nil, "", Flags{})
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if s.Theme != "auto" || !s.AltScreen || s.CodexHome != "shared" || s.Workspace != wd || s.TurnTimeout != DefaultTurnTimeout || s.Model != "" || s.SSH != nil || s.PerRunHome() {
		t.Errorf("defaults: %+v", s)
	}
	s, err = Resolve(nil, "", Flags{IsolatedHome: true})
	if err != nil || !s.PerRunHome() {
		t.Errorf("--isolated-home: %v %+v", err, s)
	}
}

func TestResolveErrors(t *testing.T) {
	f, _ := loadFull(t)
	tests := []struct {
		name    string
		file    *File
		profile string
		flags   Flags
		want    string
	}{
		{"unknown profile lists profiles", f, "home", Flags{}, `unknown profile "home": ` + f.Path + " defines: fast, work"},
		{"profile without a file", nil, "home", Flags{}, `unknown profile "home": no config file was found`},
		{"bad approval flag", f, "", Flags{Approval: "always"}, `invalid value "always" for -a/--ask-for-approval: allowed values are untrusted, on-request, never`},
		{"bad sandbox flag", f, "", Flags{Sandbox: "none"}, `allowed values are read-only, workspace-write, danger-full-access`},
		{"bad theme flag", f, "", Flags{Theme: "blue"}, `--theme: allowed values are auto, dark, light`},
		{"bad timeout flag", f, "", Flags{TurnTimeout: "5 minutes"}, `--turn-timeout: invalid duration "5 minutes"`},
		{"bad ssh flag", f, "", Flags{SSH: "me@host:99999"}, `--ssh: invalid ssh target "me@host:99999": port must be`},
		{"missing workspace", f, "", Flags{Workspace: "/does/not/exist"}, `invalid value "/does/not/exist" for -C/--cd: not a directory`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Resolve(tt.file, tt.profile, tt.flags)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(strings.ReplaceAll(err.Error(), "for --theme", "--theme"), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		text string
		line int
		key  string
		msg  string // substring
	}{
		{"syntax", "model = \"a\"\ntheme = \n", 2, "theme", "expected value"},
		{"wrong type", "model = \"a\"\n\nsandbox = 3\n", 3, "sandbox", "expected a string, got an integer"},
		// Wrong types are told in TOML's words, never Go's (types.go).
		{"profiles as string", "model = \"a\"\nprofiles = \"x\"\n", 2, "profiles", "expected a table ([profiles.NAME]), got a string"},
		{"profile as integer", "[profiles]\nx = 1\n", 2, "profiles.x", "expected a table ([profiles.x]), got an integer"},
		{"profile key wrong type", "[profiles.w]\n\nmodel = true\n", 3, "profiles.w.model", "expected a string, got a boolean"},
		{"codex as string", "codex = \"/bin/codex\"\n", 1, "codex", "expected a table ([codex]), got a string"},
		{"codex args as string", "[codex]\nargs = \"-c x=1\"\n", 2, "codex.args", "expected an array of strings, got a string"},
		{"codex env as array", "[codex]\ncommand = \"c\"\nenv = [\"A=1\"]\n", 3, "codex.env", "expected a table of strings"},
		{"ssh_options of integers", "ssh_options = [1, 2]\n", 1, "ssh_options", "expected an array of strings, got an array holding an integer"},
		{"mcp_servers as integer", "mcp_servers = 1\n", 1, "mcp_servers", "expected a table ([mcp_servers.NAME]), got an integer"},
		{"mcp server as string", "[mcp_servers]\nfs = \"npx fs\"\n", 2, "mcp_servers.fs", "expected a table ([mcp_servers.fs]), got a string"},
		{"mcp timeout as string", "[mcp_servers.s]\ncommand = \"a\"\nstartup_timeout_sec = \"10\"\n", 3, "mcp_servers.s.startup_timeout_sec", "expected a number, got a string"},
		{"turn_timeout as integer", "turn_timeout = 600\n", 1, "turn_timeout", "expected a string, got an integer"},
		{"alt_screen as string", "theme = \"dark\"\nalt_screen = \"no\"\n", 2, "alt_screen", "expected a boolean (true or false), got a string"},
		{"bad enum top", "model = \"x\"\napproval_policy = \"sometimes\"\n", 2, "approval_policy", `invalid value "sometimes": allowed values are untrusted, on-request, never`},
		{"bad enum in profile", "[profiles.a]\nmodel = \"x\"\n\n[profiles.b]\nsandbox = \"open\"\n", 5, "profiles.b.sandbox", "allowed values are read-only, workspace-write, danger-full-access"},
		{"bad theme", "theme = 'neon'\n", 1, "theme", "allowed values are auto, dark, light"},
		{"bad codex_home", "\n\ncodex_home = \"tmp\"\n", 3, "codex_home", "allowed values are shared, per-run"},
		{"bad duration", "turn_timeout = \"10 minutes\"\n", 1, "turn_timeout", `invalid duration "10 minutes"`},
		{"negative unresponsive_after_secs", "unresponsive_after_secs = -5\n", 1, "unresponsive_after_secs", "from 0 (off)"},
		{"unresponsive_after_secs as string", "unresponsive_after_secs = \"30s\"\n", 1, "unresponsive_after_secs", "expected an integer, got a string"},
		{"bad ssh", "ssh = \"me@\"\n", 1, "ssh", "expected [user@]host[:port]"},
		{"empty model", "model = \"\"\n", 1, "model", "empty value"},
		{"mcp neither", "[mcp_servers.x]\nenabled = true\n", 1, "mcp_servers.x", "set either command"},
		{"mcp both", "[mcp_servers.x]\ncommand = \"a\"\nurl = \"http://h\"\n", 3, "mcp_servers.x.url", "both set"},
		{"mcp bad name", "[mcp_servers.\"a b\"]\ncommand = \"a\"\n", 1, `mcp_servers."a b"`, "invalid server name"},
		{"mcp empty env value", "[mcp_servers.x]\ncommand = \"a\"\n\n[mcp_servers.x.env]\nK = \"\"\n", 5, "mcp_servers.x.env.K", "empty value"},
		{"mcp http with args", "[profiles.p.mcp_servers.h]\nurl = \"https://h\"\nargs = [\"a\"]\n", 3, "profiles.p.mcp_servers.h.args", "stdio servers"},
		{"mcp bad url", "[mcp_servers.h]\nurl = \"ftp://h\"\n", 2, "mcp_servers.h.url", "http:// or https://"},
		{"codex empty command", "[codex]\ncommand = \" \"\n", 2, "codex.command", "empty value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, "config.toml", tt.text)
			_, err := Load(p)
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("want *Error, got %v", err)
			}
			if ce.File != p || ce.Line != tt.line || ce.Key != tt.key || !strings.Contains(ce.Msg, tt.msg) {
				t.Errorf("got file %q line %d key %q msg %q; want line %d key %q msg ~%q", ce.File, ce.Line, ce.Key, ce.Msg, tt.line, tt.key, tt.msg)
			}
			if want := p + ":"; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("message %q does not start with %q", err, want)
			}
			for _, goWord := range []string{"config.", "int64", "float64", "slice", "type mismatch", "incompatible types"} {
				if strings.Contains(ce.Msg, goWord) {
					t.Errorf("message %q shows Go type words (%q)", ce.Msg, goWord)
				}
			}
		})
	}
}

func TestUnknownKeys(t *testing.T) {
	text := "model = \"a\"\nmodle = \"b\"\n\n[codex]\ncomand = \"x\"\n\n[profiles.p]\nthemes = \"dark\"\n\n[mcp_servers.s]\ncommand = \"a\"\nargz = []\n"
	p := writeFile(t, "config.toml", text)
	_, err := Load(p)
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("want *Error, got %v", err)
	}
	if ce.Line != 2 {
		t.Errorf("line %d, want 2 (the first unknown key)", ce.Line)
	}
	for _, want := range []string{"modle (line 2)", "codex.comand (line 5)", "profiles.p.themes (line 8)", "mcp_servers.s.argz (line 12)", "allowed keys are"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not mention %q", err, want)
		}
	}
}

func TestLoadMissing(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	f, err := Load("")
	if err != nil || f == nil || f.Path != "" {
		t.Errorf("missing default file must be fine: %v %+v", err, f)
	}
	if got := DefaultPath(); !strings.HasSuffix(got, filepath.Join("tandem", "config.toml")) || !strings.HasPrefix(got, os.Getenv("XDG_CONFIG_HOME")) {
		t.Errorf("DefaultPath %q", got)
	}
	missing := filepath.Join(t.TempDir(), "nope.toml")
	if _, err := Load(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing --config file must be an error naming it: %v", err)
	}
}

func TestDefaultPathFromXDG(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	if err := os.MkdirAll(filepath.Join(dir, "tandem"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tandem", "config.toml"), []byte("model = \"from-xdg\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Load("")
	if err != nil || f.Top.Model == nil || *f.Top.Model != "from-xdg" {
		t.Fatalf("Load default: %v %+v", err, f)
	}
}

// TestParseSSHTarget covers the one ssh target parser (the --ssh flag, a
// profile's ssh key and backend.SSHTransport all use it): the cases of
// the two parsers it replaced (config's and backend's), where the
// stricter rule now holds for both, and the rules each had alone.
func TestParseSSHTarget(t *testing.T) {
	tests := []struct {
		in   string
		want SSHTarget
		err  string // a substring of the error; "" = accepted
	}{
		// Accepted.
		{in: "host", want: SSHTarget{Host: "host"}},
		{in: "dev", want: SSHTarget{Host: "dev"}},
		{in: "u@host", want: SSHTarget{User: "u", Host: "host"}},
		{in: "me@dev", want: SSHTarget{User: "me", Host: "dev"}},
		{in: "u@host:22", want: SSHTarget{User: "u", Host: "host", Port: 22}},
		{in: "me@10.0.0.1:2222", want: SSHTarget{User: "me", Host: "10.0.0.1", Port: 2222}},
		{in: "[::1]:2200", want: SSHTarget{Host: "::1", Port: 2200}},
		{in: "[::1]:22", want: SSHTarget{Host: "::1", Port: 22}},
		{in: "u@[fe80::1]", want: SSHTarget{User: "u", Host: "fe80::1"}},
		{in: "dev:65535", want: SSHTarget{Host: "dev", Port: 65535}},
		{in: "dev.example.com:1", want: SSHTarget{Host: "dev.example.com", Port: 1}},
		// Empty parts.
		{in: "", err: "empty host"},
		{in: "me@", err: "empty host"},
		{in: "u@[]:22", err: "empty host"},
		{in: "@host", err: "empty user"},
		{in: "@dev", err: "empty user"},
		// Anything ssh would read as an option.
		{in: "-oProxyCommand=x", err: "must not start with -"},
		{in: "-oProxyCommand=evil", err: "must not start with -"},
		{in: "-l@host", err: "must not start with -"},
		{in: "u@-host", err: "must not start with -"},
		{in: "[-oProxyCommand=x]:22", err: "must not start with -"},
		// Ports.
		{in: "u@host:0", err: "port must be"},
		{in: "dev:0", err: "port must be"},
		{in: "dev:70000", err: "port must be"},
		{in: "u@host:ssh", err: "port must be"},
		{in: "dev:ssh", err: "port must be"},
		{in: "dev:+22", err: "port must be"},
		{in: "dev:", err: "port must be"},
		{in: "[::1]:", err: "port must be"},
		// Whitespace, quotes, backslashes (backend's rule), anywhere.
		{in: "a b", err: "whitespace"},
		{in: "de v", err: "whitespace"},
		{in: "dev\t", err: "whitespace"},
		{in: "u\n@dev", err: "whitespace"},
		{in: "dev'", err: "quote"},
		{in: `u"@dev`, err: "quote"},
		{in: `dev\x`, err: "quote"},
		// "/" or "@" in the host (config's rule): the user ends at the
		// first @, so a second one is in the host.
		{in: "a@b@host", err: "unexpected @ or / in the host"},
		{in: "dev/x", err: "unexpected @ or / in the host"},
		{in: "u@host/path:22", err: "unexpected @ or / in the host"},
		// IPv6 goes in brackets.
		{in: "::1", err: "in brackets"},
		{in: "u@fe80::1:22", err: "in brackets"},
		{in: "[::1", err: "missing ]"},
		{in: "[::1]22", err: "after ]"},
	}
	for _, tt := range tests {
		got, err := ParseSSHTarget(tt.in)
		if tt.err != "" {
			var te *SSHTargetError
			if err == nil || !strings.Contains(err.Error(), tt.err) || !errors.As(err, &te) || te.Target != tt.in {
				t.Errorf("ParseSSHTarget(%q) = %+v, %v; want an *SSHTargetError %q", tt.in, got, err, tt.err)
			}
			if err != nil && !strings.HasPrefix(err.Error(), fmt.Sprintf("invalid ssh target %q: ", tt.in)) {
				t.Errorf("ParseSSHTarget(%q) error %q does not name the target", tt.in, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseSSHTarget(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
			continue
		}
		if back, err := ParseSSHTarget(got.String()); err != nil || back != got {
			t.Errorf("round trip %q → %q → %+v, %v", tt.in, got.String(), back, err)
		}
	}
	if d := (SSHTarget{User: "me", Host: "::1", Port: 22}).Destination(); d != "me@::1" {
		t.Errorf("Destination = %q", d)
	}
	if d := (SSHTarget{Host: "dev"}).Destination(); d != "dev" {
		t.Errorf("Destination = %q", d)
	}
}

func TestEnvironAndDark(t *testing.T) {
	s := Settings{CodexEnv: map[string]string{"B": "2", "A": "1"}}
	got := s.Environ([]string{"A=0", "PATH=/bin"})
	if want := []string{"PATH=/bin", "A=1", "B=2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Environ %v want %v", got, want)
	}
	t.Setenv("COLORFGBG", "0;15")
	if (Settings{Theme: "auto"}).Dark() || !(Settings{Theme: "dark"}).Dark() || (Settings{Theme: "light"}).Dark() {
		t.Error("Dark with a light COLORFGBG")
	}
	t.Setenv("COLORFGBG", "15;0")
	if !(Settings{Theme: "auto"}).Dark() {
		t.Error("auto on dark background")
	}
}

// TestDocExample keeps docs/CONFIG.md honest: its full example parses,
// and sets every key a layer and an MCP server may have.
func TestDocExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "CONFIG.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```toml\n")
	if !ok {
		t.Fatal("no ```toml block in docs/CONFIG.md")
	}
	example, _, _ := strings.Cut(rest, "```")
	f, err := Parse("CONFIG.md", []byte(example))
	if err != nil {
		t.Fatalf("the example does not parse: %v", err)
	}
	if len(f.Profiles) < 2 {
		t.Errorf("profiles %v", f.ProfileNames())
	}
	keys := []string{"command", "args", "env", "cwd", "url", "bearer_token_env_var", "http_headers", "env_http_headers",
		"startup_timeout_sec", "tool_timeout_sec", "enabled", "enabled_tools", "disabled_tools"}
	for _, k := range layerKeys {
		_, last, _ := strings.Cut(k, ".")
		if last == "" {
			last = k
		}
		keys = append(keys, last)
	}
	for _, k := range keys {
		if !strings.Contains(example, "\n"+k+" = ") {
			t.Errorf("the example does not set %s", k)
		}
	}
}

// TestReadmeExample keeps the README's short example valid, including its
// profile.
func TestReadmeExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```toml\n")
	if !ok {
		t.Fatal("no ```toml block in README.md")
	}
	example, _, _ := strings.Cut(rest, "```")
	f, err := Parse("README.md", []byte(example))
	if err != nil {
		t.Fatalf("the README example does not parse: %v", err)
	}
	s, err := Resolve(f, "devbox", Flags{})
	if err != nil {
		t.Fatalf("resolving the README's profile: %v", err)
	}
	if s.ApprovalPolicy != "on-request" || s.SSH.String() == "" || len(s.MCPServers) != 1 {
		t.Errorf("README example resolved to %+v", s)
	}
}
