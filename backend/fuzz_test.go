package backend

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"
)

// refusingHandler answers every server request at once the way Session
// would route it: decode, then the safest answer (or the fixed one for
// requests that need no person). Unknown methods fall back to -32601.
type refusingHandler struct{}

func (refusingHandler) HandleNotification(string, json.RawMessage) {}

func (refusingHandler) HandleRequest(in *IncomingRequest) bool {
	req, err := decodeIncoming(in)
	if err != nil {
		_ = in.RespondError(CodeInvalidParams, err.Error())
		return true
	}
	if req == nil {
		return false
	}
	if a, ok := req.(AutoAnswered); ok {
		_ = a.AutoAnswer()
	} else {
		_ = req.Refuse()
	}
	return true
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *lockedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// expectedRequestIDs splits input the way Conn does and returns the ids
// of the lines that are JSON-RPC requests, in order.
func expectedRequestIDs(input []byte) []string {
	var ids []string
	for _, line := range bytes.Split(input, []byte("\n")) {
		line = bytes.TrimRight(line, "\r\n")
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var m Message
		if json.Unmarshal(line, &m) != nil {
			continue
		}
		if m.Kind() == "request" {
			ids = append(ids, m.ID.String())
		}
	}
	return ids
}

// FuzzDispatch feeds arbitrary bytes to the line decoder and dispatcher.
// It must never panic, every line written must be one valid JSON-RPC
// response, and every request line gets exactly one response, in order,
// echoing its id byte for byte.
func FuzzDispatch(f *testing.F) {
	seeds := []string{
		"",
		"\n\n\r\n",
		"not json\n",
		`{"jsonrpc":"2.0","id":1,"method":"item/commandExecution/requestApproval","params":` + cmdParams + "}\n",
		`{"jsonrpc":"2.0","id":"s-1","method":"item/fileChange/requestApproval","params":{"threadId":"t","turnId":"u","itemId":"i"}}` + "\n",
		`{"jsonrpc":"2.0","id":2,"method":"item/permissions/requestApproval","params":` + permParams + "}\r\n",
		`{"jsonrpc":"2.0","id":3,"method":"item/tool/requestUserInput","params":` + inputParams + "}\n",
		`{"jsonrpc":"2.0","id":4,"method":"mcpServer/elicitation/request","params":` + elicitForm + "}\n",
		`{"jsonrpc":"2.0","id":5,"method":"mcpServer/elicitation/request","params":` + elicitURL + "}\n",
		`{"jsonrpc":"2.0","id":6,"method":"execCommandApproval","params":` + execParams + "}\n",
		`{"jsonrpc":"2.0","id":7,"method":"applyPatchApproval","params":` + patchParams + "}\n",
		`{"jsonrpc":"2.0","id":8,"method":"account/chatgptAuthTokens/refresh","params":{"reason":"unauthorized"}}` + "\n",
		`{"jsonrpc":"2.0","id":9,"method":"attestation/generate"}` + "\n",
		`{"jsonrpc":"2.0","id":10,"method":"currentTime/read","params":{"threadId":"t"}}` + "\n",
		`{"jsonrpc":"2.0","id":11,"method":"item/tool/call","params":{"threadId":"t","tool":"x","arguments":{}}}` + "\n",
		`{"id":12,"method":"no/such/method","params":[1,2]}` + "\n",
		`{"id":13,"method":"item/permissions/requestApproval","params":"wrong"}` + "\n",
		`{"method":"turn/started","params":{}}` + "\n" + `{"id":99,"result":{}}` + "\n",
		`{"id":null,"method":"x"}` + "\n" + `{"id":{"a":1},"method":"y"}` + "\n",
		`{"id":1e400,"method":"z"}` + "\n" + `{"id":-0,"method":"z"}`,
		strings.Repeat("x", 70<<10) + "\n" + `{"id":"after-long","method":"q"}` + "\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		var out lockedBuffer
		c := NewConn(bytes.NewReader(input), &out, refusingHandler{}, nil)
		_ = c.Serve()
		want := expectedRequestIDs(input)
		var got []string
		for _, line := range bytes.Split(out.b.Bytes(), []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			var m Message
			if err := json.Unmarshal(line, &m); err != nil {
				t.Fatalf("wrote invalid JSON %q: %v", line, err)
			}
			if m.Kind() != "response" || m.JSONRPC != "2.0" {
				t.Fatalf("wrote a non-response %q", line)
			}
			got = append(got, m.ID.String())
		}
		if len(got) != len(want) {
			t.Fatalf("%d requests got %d responses\nwant ids %q\n got ids %q", len(want), len(got), want, got)
		}
		for i := range want {
			// The id is echoed as received, modulo insignificant
			// whitespace json.Marshal compacts away.
			var wb bytes.Buffer
			if err := json.Compact(&wb, []byte(want[i])); err != nil {
				t.Fatalf("request id %q: %v", want[i], err)
			}
			if got[i] != wb.String() {
				t.Fatalf("response %d has id %s, want %s", i, got[i], wb.String())
			}
		}
	})
}
