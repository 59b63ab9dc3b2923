// Command mcpstub is a tiny MCP server over stdio for tandem's tests: it
// answers initialize (after --start-delay), lists one tool, "echo", and
// answers its calls (after --call-delay, sending a progress notification
// first when the call asks for progress). With --fail it exits at once
// with an error on stderr, as a server that cannot start does.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"
)

type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  any             `json:"result,omitempty"`
}

func main() {
	startDelay := flag.Duration("start-delay", 0, "wait this long before answering initialize")
	callDelay := flag.Duration("call-delay", 0, "wait this long before answering a tool call")
	fail := flag.Bool("fail", false, "exit at once with an error")
	flag.Parse()
	if *fail {
		fmt.Fprintln(os.Stderr, "mcpstub: configured to fail")
		os.Exit(1)
	}
	out := json.NewEncoder(os.Stdout)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var m message
		if json.Unmarshal(sc.Bytes(), &m) != nil || len(m.ID) == 0 {
			continue // a notification (initialized, cancelled)
		}
		reply := message{JSONRPC: "2.0", ID: m.ID}
		switch m.Method {
		case "initialize":
			time.Sleep(*startDelay)
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(m.Params, &p)
			if p.ProtocolVersion == "" {
				p.ProtocolVersion = "2025-06-18"
			}
			reply.Result = map[string]any{"protocolVersion": p.ProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "mcpstub", "version": "1.0.0"}}
		case "tools/list":
			reply.Result = map[string]any{"tools": []any{map[string]any{"name": "echo", "description": "Echo the text back.",
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}}}}
		case "tools/call":
			var p struct {
				Arguments struct {
					Text string `json:"text"`
				} `json:"arguments"`
				Meta struct {
					ProgressToken any `json:"progressToken"`
				} `json:"_meta"`
			}
			_ = json.Unmarshal(m.Params, &p)
			if p.Meta.ProgressToken != nil {
				_ = out.Encode(message{JSONRPC: "2.0", Method: "notifications/progress",
					Params: mustJSON(map[string]any{"progressToken": p.Meta.ProgressToken, "progress": 1, "total": 2, "message": "echoing"})})
			}
			time.Sleep(*callDelay)
			reply.Result = map[string]any{"content": []any{map[string]any{"type": "text", "text": "echo: " + p.Arguments.Text}}}
		default:
			reply.Result = map[string]any{}
		}
		_ = out.Encode(reply)
	}
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
