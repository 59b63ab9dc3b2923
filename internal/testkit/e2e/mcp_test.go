package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// mcpStub builds the test MCP server (internal/testkit/mockapi/cmd/mcpstub).
func mcpStub(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcpstub")
	if out, err := exec.Command("go", "build", "-o", bin, "tandem/internal/testkit/mockapi/cmd/mcpstub").CombinedOutput(); err != nil {
		t.Fatalf("building mcpstub: %v\n%s", err, out)
	}
	return bin
}

// A slow MCP server shows as starting on the status line while typing
// and sending go on; a failing one is a banner, once, with its error; the
// slow one's tool then works, with its progress.
func TestMcpStartupOnRealServer(t *testing.T) {
	stub := mcpStub(t)
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Answered while MCP starts.")}},
	)
	cfg := fmt.Sprintf("\n[mcp_servers.slow]\ncommand = %q\nargs = [\"--start-delay\", \"4s\"]\nstartup_timeout_sec = 30\n"+
		"\n[mcp_servers.broken]\ncommand = %q\nargs = [\"--fail\"]\n", stub, stub)
	f, err := os.OpenFile(filepath.Join(e.Home, "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(cfg); err != nil {
		t.Fatal(err)
	}
	f.Close()
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 140, 40)
	u.Connect(t, e, "never", "workspace-write")
	u.WaitScreen(t, Patience, "slow starting", Contains("MCP slow starting"))
	// Typing and sending are not blocked by the start-up.
	u.Submit("hello")
	u.WaitScreen(t, Patience, "the answer while slow starts", Contains("Answered while MCP starts."))
	s := u.WaitScreen(t, Patience, "start-up over", func(s string) bool {
		return strings.Contains(s, "MCP server broken failed to start") && !strings.Contains(s, "MCP slow starting") && strings.Contains(s, "MCP broken failed")
	})
	if n := strings.Count(s, "MCP server broken failed to start"); n != 1 {
		t.Errorf("the failure is shown %d times:\n%s", n, s)
	}
	// /mcp lists them; /mcp login reaches the server, which says a stdio
	// server has no OAuth.
	u.Submit("/mcp")
	u.WaitScreen(t, Patience, "the /mcp list", Contains("MCP servers", "slow", "echo"))
	u.Submit("/mcp login slow")
	u.WaitScreen(t, Patience, "the login's answer", func(s string) bool {
		return strings.Contains(s, "/mcp login: OAuth login is only supported for streamable HTTP servers")
	})
}
