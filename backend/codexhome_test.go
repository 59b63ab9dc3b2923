package backend

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"tandem/config"
)

func fptr(f float64) *float64 { return &f }
func bptr(b bool) *bool       { return &b }

// testServers are one stdio and one http server with every key set.
func testServers() map[string]config.MCPServer {
	return map[string]config.MCPServer{
		"docs": {Command: "npx", Args: []string{"-y", "docs-mcp"}, Env: map[string]string{"TOKEN": "t", "a b": "c\"d"}, Cwd: "/tmp",
			StartupTimeoutSec: fptr(20), ToolTimeoutSec: fptr(45.5), Enabled: bptr(true), EnabledTools: []string{"search"}, DisabledTools: []string{"rm"}},
		"api-2": {URL: "https://mcp.example.com/mcp", BearerTokenEnvVar: "API_TOKEN", HTTPHeaders: map[string]string{"X-Region": "eu"},
			EnvHTTPHeaders: map[string]string{"X-Auth": "API_AUTH"}, Enabled: bptr(false)},
	}
}

func writeShared(t *testing.T, files map[string]string) string {
	t.Helper()
	shared := t.TempDir()
	for name, text := range files {
		p := filepath.Join(shared, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return shared
}

func TestManagedMCPBlockRoundTrip(t *testing.T) {
	want := testServers()
	block, err := ManagedMCPBlock(want)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		MCPServers map[string]config.MCPServer `toml:"mcp_servers"`
	}
	md, err := toml.Decode(string(block), &got)
	if err != nil {
		t.Fatalf("decoding block: %v\n%s", err, block)
	}
	if und := md.Undecoded(); len(und) > 0 {
		t.Errorf("keys outside codex's MCP server keys: %v", und)
	}
	if !reflect.DeepEqual(got.MCPServers, want) {
		t.Errorf("round trip:\n got %+v\nwant %+v\n%s", got.MCPServers, want, block)
	}
	if !strings.Contains(string(block), "[mcp_servers.api-2]") || strings.Contains(string(block), "[mcp_servers]\n") {
		t.Errorf("block must name each table and not open [mcp_servers] itself:\n%s", block)
	}
	if b, err := ManagedMCPBlock(nil); err != nil || b != nil {
		t.Errorf("no servers: %q %v", b, err)
	}
}

func TestManagedMCPBlockRejects(t *testing.T) {
	tests := []struct {
		name    string
		servers map[string]config.MCPServer
		want    string
	}{
		{"bad name", map[string]config.MCPServer{"a.b": {Command: "x"}}, `invalid server name "a.b"`},
		{"space in name", map[string]config.MCPServer{"a b": {Command: "x"}}, `invalid server name`},
		{"empty server", map[string]config.MCPServer{"x": {}}, `MCP server "x" (mcp_servers.x): set either command`},
		{"empty env value", map[string]config.MCPServer{"x": {Command: "c", Env: map[string]string{"K": ""}}}, `mcp_servers.x.env.K): empty value`},
		{"both transports", map[string]config.MCPServer{"x": {Command: "c", URL: "http://h"}}, `both set`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ManagedMCPBlock(tt.servers)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want it to contain %q", err, tt.want)
			}
		})
	}
	if _, err := config.ValidateMCPServer("x", nil); err == nil || !strings.Contains(err.Error(), "null") {
		t.Errorf("null server: %v", err)
	}
}

func TestPrepareCodexHome(t *testing.T) {
	shared := writeShared(t, map[string]string{
		"auth.json":             `{"token":"secret"}`,
		"sessions/2026/x.jsonl": "{}\n",
		"config.toml":           "model = \"m\"\n\n[mcp_servers.theirs]\ncommand = \"t\"", // no final newline
		"config.json":           "{}",
		"instructions.md":       "be nice",
		"history.jsonl":         "not copied",
	})
	state := t.TempDir()
	dir, cleanup, err := PrepareCodexHome(shared, state, testServers())
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(dir) != filepath.Join(state, "homes") {
		t.Errorf("home %q not under the state dir", dir)
	}
	st, err := os.Stat(dir)
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("dir mode %v %v", st.Mode().Perm(), err)
	}
	for _, name := range []string{"auth.json", "sessions"} {
		target, err := os.Readlink(filepath.Join(dir, name))
		if err != nil || target != filepath.Join(shared, name) {
			t.Errorf("%s: link to %q (%v)", name, target, err)
		}
	}
	for _, name := range []string{"config.json", "instructions.md"} {
		fi, err := os.Lstat(filepath.Join(dir, name))
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: want a 0600 copy, got %v %v", name, fi, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "history.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("history.jsonl must not be carried over: %v", err)
	}
	cfg := filepath.Join(dir, "config.toml")
	fi, err := os.Stat(cfg)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("config.toml mode %v %v", fi.Mode().Perm(), err)
	}
	var doc struct {
		Model      string                      `toml:"model"`
		MCPServers map[string]config.MCPServer `toml:"mcp_servers"`
	}
	if _, err := toml.DecodeFile(cfg, &doc); err != nil {
		t.Fatal(err)
	}
	want := testServers()
	want["theirs"] = config.MCPServer{Command: "t"}
	if doc.Model != "m" || !reflect.DeepEqual(doc.MCPServers, want) {
		t.Errorf("config.toml decodes to %+v", doc)
	}
	// A new rollout written through the link lands in the shared home.
	if err := os.WriteFile(filepath.Join(dir, "sessions", "new.jsonl"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	cleanup()
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("home not removed: %v", err)
	}
	for _, p := range []string{"auth.json", "sessions/2026/x.jsonl", "sessions/new.jsonl", "config.toml"} {
		if _, err := os.Stat(filepath.Join(shared, p)); err != nil {
			t.Errorf("cleanup touched the shared home: %s: %v", p, err)
		}
	}
}

func TestPrepareCodexHomeCopyFallback(t *testing.T) {
	old := symlink
	symlink = func(string, string) error { return errors.New("symlinks not supported") }
	t.Cleanup(func() { symlink = old })
	shared := writeShared(t, map[string]string{"auth.json": "{}", "sessions/a/b.jsonl": "line\n"})
	dir, cleanup, err := PrepareCodexHome(shared, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	for _, p := range []string{"auth.json", "sessions/a/b.jsonl"} {
		fi, err := os.Lstat(filepath.Join(dir, p))
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: want a 0600 copy, got %v %v", p, fi, err)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "sessions/a/b.jsonl")); string(data) != "line\n" {
		t.Errorf("copied content %q", data)
	}
	if _, err := os.Stat(filepath.Join(dir, "config.toml")); err != nil {
		t.Errorf("an empty config.toml is still written: %v", err)
	}
}

func TestPrepareCodexHomeErrors(t *testing.T) {
	shared := writeShared(t, map[string]string{"config.toml": "[mcp_servers.docs]\ncommand = \"x\"\n"})
	state := t.TempDir()
	_, _, err := PrepareCodexHome(shared, state, testServers())
	if err == nil || !strings.Contains(err.Error(), "docs is defined both in") {
		t.Errorf("clash: %v", err)
	}
	_, _, err = PrepareCodexHome(shared, state, map[string]config.MCPServer{"bad name": {Command: "x"}})
	if err == nil || !strings.Contains(err.Error(), "invalid server name") {
		t.Errorf("bad name: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Join(state, "homes"))
	if len(entries) != 0 {
		t.Errorf("failed prepare left %d dirs behind", len(entries))
	}
}

// A shared home whose config.toml is a FIFO, or a link to a device, is
// an error at once, never an open that waits for a writer or a copy that
// fills the disk; nothing is left behind.
func TestPrepareCodexHomeRefusesOddFiles(t *testing.T) {
	for _, odd := range []string{"fifo", "/dev/zero"} {
		shared := writeShared(t, nil)
		p := filepath.Join(shared, "config.toml")
		if odd == "fifo" {
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Fatal(err)
			}
		} else if err := os.Symlink(odd, p); err != nil {
			t.Fatal(err)
		}
		state := t.TempDir()
		done := make(chan error, 1)
		go func() { _, _, err := PrepareCodexHome(shared, state, testServers()); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s: %v, want not a regular file", odd, err)
			}
		case <-time.After(patience):
			t.Fatalf("%s: PrepareCodexHome hangs", odd)
		}
		if entries, _ := os.ReadDir(filepath.Join(state, "homes")); len(entries) != 0 {
			t.Errorf("%s: a failed prepare left %d dirs behind", odd, len(entries))
		}
	}
}

func TestPrepareCodexHomeRemovesStale(t *testing.T) {
	state := t.TempDir()
	homes := filepath.Join(state, "homes")
	// A pid far above pid_max is never alive.
	stale := filepath.Join(homes, "run-99999999-abc")
	live := filepath.Join(homes, "run-1-abc") // init is always alive
	for _, d := range []string{stale, live} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	_, cleanup, err := PrepareCodexHome(t.TempDir(), state, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale home kept: %v", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("live run's home removed: %v", err)
	}
}
