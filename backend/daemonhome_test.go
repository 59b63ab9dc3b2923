package backend_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tandem/backend"
	"tandem/config"
)

// TestPrepareDaemonHome: the daemon's home is the same directory run after
// run (so the daemon and its managed codex stay), linked to the shared
// home's login and rollouts, with the MCP block appended to a fresh copy
// of config.toml; changed says when that config differs from the last
// run's.
func TestPrepareDaemonHome(t *testing.T) {
	shared, state := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(shared, "config.toml"), []byte("model = \"a\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(shared, "auth.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	servers := map[string]config.MCPServer{"docs": {Command: "docs-mcp"}}
	steps := []struct {
		name        string
		before      func()
		servers     map[string]config.MCPServer
		wantChanged bool
		wantConfig  []string
		notConfig   []string
	}{
		{"first run", nil, servers, true, []string{`model = "a"`, "[mcp_servers.docs]"}, nil},
		{"same again", nil, servers, false, []string{"[mcp_servers.docs]"}, nil},
		{"shared config edited", func() {
			_ = os.WriteFile(filepath.Join(shared, "config.toml"), []byte("model = \"b\"\n"), 0o600)
		}, servers, true, []string{`model = "b"`, "[mcp_servers.docs]"}, []string{`model = "a"`}},
		{"servers dropped", nil, nil, true, []string{`model = "b"`}, []string{"mcp_servers"}},
	}
	var first string
	for _, st := range steps {
		if st.before != nil {
			st.before()
		}
		dir, changed, err := backend.PrepareDaemonHome(shared, state, st.servers)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if first == "" {
			first = dir
			// Something codex keeps there itself stays between runs.
			_ = os.MkdirAll(filepath.Join(dir, "packages"), 0o700)
		}
		if dir != first {
			t.Errorf("%s: dir %s; want the same %s every run", st.name, dir, first)
		}
		if changed != st.wantChanged {
			t.Errorf("%s: changed = %v; want %v", st.name, changed, st.wantChanged)
		}
		b, _ := os.ReadFile(filepath.Join(dir, "config.toml"))
		for _, w := range st.wantConfig {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s: config.toml lacks %q:\n%s", st.name, w, b)
			}
		}
		for _, w := range st.notConfig {
			if strings.Contains(string(b), w) {
				t.Errorf("%s: config.toml still has %q:\n%s", st.name, w, b)
			}
		}
		if l, err := os.Readlink(filepath.Join(dir, "sessions")); err != nil || l != filepath.Join(shared, "sessions") {
			t.Errorf("%s: sessions link %q %v", st.name, l, err)
		}
		if l, err := os.Readlink(filepath.Join(dir, "auth.json")); err != nil || l != filepath.Join(shared, "auth.json") {
			t.Errorf("%s: auth.json link %q %v", st.name, l, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "packages")); err != nil {
			t.Errorf("%s: the daemon's own files went: %v", st.name, err)
		}
	}
	if st, _ := os.Stat(first); st.Mode().Perm() != 0o700 {
		t.Errorf("mode %v; want 0700", st.Mode().Perm())
	}
}
