package backend

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// The config's workspace-write settings, with --add-dir added: the
// config's roots first, each once; the policy keeps the config's network
// and /tmp settings instead of codex's defaults.
func TestWorkspaceWriteWithRootsAndPolicy(t *testing.T) {
	cases := []struct {
		name   string
		w      WorkspaceWrite
		add    []string
		roots  []string
		policy string
	}{
		{"defaults, nothing added", WorkspaceWrite{}, nil, nil,
			`{"type":"workspaceWrite","writableRoots":[],"networkAccess":false,"excludeTmpdirEnvVar":false,"excludeSlashTmp":false}`},
		{"config roots kept, added after", WorkspaceWrite{WritableRoots: []string{"/a"}}, []string{"/b", "/c"}, []string{"/a", "/b", "/c"},
			`{"type":"workspaceWrite","writableRoots":["/a","/b","/c"],"networkAccess":false,"excludeTmpdirEnvVar":false,"excludeSlashTmp":false}`},
		{"a root already in the config is not repeated", WorkspaceWrite{WritableRoots: []string{"/a", "/b"}}, []string{"/b", "", "/a"}, []string{"/a", "/b"},
			`{"type":"workspaceWrite","writableRoots":["/a","/b"],"networkAccess":false,"excludeTmpdirEnvVar":false,"excludeSlashTmp":false}`},
		{"the user's network and /tmp settings survive", WorkspaceWrite{NetworkAccess: true, ExcludeTmpdirEnvVar: true, ExcludeSlashTmp: true}, []string{"/x"}, []string{"/x"},
			`{"type":"workspaceWrite","writableRoots":["/x"],"networkAccess":true,"excludeTmpdirEnvVar":true,"excludeSlashTmp":true}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			orig := slices.Clone(c.w.WritableRoots)
			got := c.w.WithRoots(c.add)
			if !slices.Equal(got.WritableRoots, c.roots) {
				t.Errorf("roots %q, want %q", got.WritableRoots, c.roots)
			}
			if !slices.Equal(c.w.WritableRoots, orig) {
				t.Errorf("WithRoots changed its receiver's roots: %q", c.w.WritableRoots)
			}
			if p := string(got.Policy()); p != c.policy {
				t.Errorf("policy\n %s\nwant\n %s", p, c.policy)
			}
			var v map[string]any
			if err := json.Unmarshal(got.Policy(), &v); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// config/read's answer: the table's keys as codex names them; a config
// without the table decodes to none.
func TestConfigReadResponseDecodes(t *testing.T) {
	var r configReadResponse
	in := `{"config":{"model":"m","sandbox_workspace_write":{"writable_roots":["/a"],"network_access":true,"exclude_tmpdir_env_var":false,"exclude_slash_tmp":true}},"origins":{}}`
	if err := json.Unmarshal([]byte(in), &r); err != nil {
		t.Fatal(err)
	}
	w := r.Config.SandboxWorkspaceWrite
	if w == nil || !slices.Equal(w.WritableRoots, []string{"/a"}) || !w.NetworkAccess || !w.ExcludeSlashTmp || w.ExcludeTmpdirEnvVar {
		t.Errorf("decoded %+v", w)
	}
	var none configReadResponse
	if err := json.Unmarshal([]byte(`{"config":{"sandbox_workspace_write":null}}`), &none); err != nil || none.Config.SandboxWorkspaceWrite != nil {
		t.Errorf("null table: %+v, %v", none.Config.SandboxWorkspaceWrite, err)
	}
}

// A workspace-write turn reads the config's sandbox settings once per
// session, not before every turn/start.
func TestWorkspaceWriteTurnsReadTheConfigOnce(t *testing.T) {
	s, pt, _ := startFakeSession(t)
	var methods []string
	for i := range 2 {
		errc := make(chan error, 1)
		go func() {
			_, err := s.StartTurn(context.Background(), TurnInput{Text: "go", TurnOptions: TurnOptions{Sandbox: "workspace-write"}})
			errc <- err
		}()
		for {
			req := pt.next(t)
			methods = append(methods, req["method"].(string))
			id := string(mustJSON(req["id"]))
			if req["method"] == "config/read" {
				pt.say(t, `{"id":`+id+`,"result":{"config":{"sandbox_workspace_write":{"network_access":true}}}}`)
				continue
			}
			sb, _ := json.Marshal(req["params"].(map[string]any)["sandboxPolicy"])
			if !strings.Contains(string(sb), `"networkAccess":true`) {
				t.Errorf("turn %d: sandboxPolicy %s lacks the config's network access", i, sb)
			}
			pt.say(t, `{"id":`+id+`,"result":{"turn":{"id":"turn-`+string(rune('1'+i))+`","items":[],"status":"inProgress"}}}`)
			break
		}
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(methods, " "); got != "config/read turn/start turn/start" {
		t.Errorf("requests %q; want one config/read", got)
	}
}
