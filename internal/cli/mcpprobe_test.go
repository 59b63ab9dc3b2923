package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// TestMain lets the test binary double as a tiny stdio MCP server (when
// $TANDEM_TEST_MCP_SERVER is set), so e2e tests can configure a real MCP
// server without extra tools installed.
func TestMain(m *testing.M) {
	if os.Getenv("TANDEM_TEST_MCP_SERVER") != "" {
		serveMCPProbe()
		return
	}
	os.Exit(m.Run())
}

// serveMCPProbe answers MCP `initialize` and `tools/list` (one tool,
// probe_echo) on stdin/stdout until stdin closes.
func serveMCPProbe() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	enc := json.NewEncoder(os.Stdout)
	for sc.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || len(msg.ID) == 0 {
			continue // notifications
		}
		reply := map[string]any{"jsonrpc": "2.0", "id": msg.ID}
		switch msg.Method {
		case "initialize":
			reply["result"] = map[string]any{
				"protocolVersion": msg.Params.ProtocolVersion,
				"capabilities":    map[string]any{"tools": map[string]any{}},
				"serverInfo":      map[string]any{"name": "probe", "version": "1.0.0"},
			}
		case "tools/list":
			reply["result"] = map[string]any{"tools": []any{map[string]any{
				"name": "probe_echo", "description": "Echoes its input.",
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}},
			}}}
		default:
			reply["error"] = map[string]any{"code": -32601, "message": "method not found"}
		}
		_ = enc.Encode(reply)
	}
}
