package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tandem/backend"
)

// The protocol trace is one JSON object per line with time, direction and
// the message, with secrets redacted and the JSON kept valid.
func TestProtocolTraceRedactsAndStaysJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	tr, err := openTrace(path)
	if err != nil {
		t.Fatal(err)
	}
	tr.now = func() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 5, time.UTC) }
	const key = "sk-proj-TraceKey0123456789abcdefghijklmn"
	tr.Trace(backend.Sent, []byte(`{"jsonrpc":"2.0","id":1,"method":"config/write","params":{"api_key":"`+key+`","password":1234}}`))
	tr.Trace(backend.Received, []byte(`{"method":"item/commandExecution/outputDelta","params":{"delta":"Authorization: Bearer abcdef0123456789\n"}}`))
	tr.Trace(backend.Received, []byte(`not json OPENAI_API_KEY=abc123`))
	// A token streamed in pieces never reaches the file in pieces.
	const gh = "ghp_SplitToken0123456789abcdefghijklmnopq"
	for i := 0; i < len(gh); i += 4 {
		tr.Trace(backend.Received, []byte(`{"method":"item/agentMessage/delta","params":{"itemId":"a1","delta":"`+gh[i:min(len(gh), i+4)]+`"}}`))
	}
	tr.Trace(backend.Received, []byte(`{"method":"item/agentMessage/delta","params":{"itemId":"a1","delta":" done\n"}}`))
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if strings.Contains(string(b), key) || strings.Contains(string(b), "abcdef0123456789") || strings.Contains(string(b), "abc123") || strings.Contains(string(b), "1234") {
		t.Fatalf("secret left in trace:\n%s", b)
	}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	var dirs []string
	for sc.Scan() {
		var tl traceLine
		if err := json.Unmarshal(sc.Bytes(), &tl); err != nil {
			t.Fatalf("trace line is not JSON: %s", sc.Text())
		}
		if tl.Time != "2026-11-29T12:00:00.000000005Z" {
			t.Errorf("time = %q", tl.Time)
		}
		if len(tl.Msg) == 0 && tl.Line == "" {
			t.Errorf("line without message: %s", sc.Text())
		}
		dirs = append(dirs, tl.Dir)
	}
	var deltas strings.Builder
	for _, l := range strings.Split(string(b), "\n") {
		var tl struct {
			Msg struct {
				Params struct {
					Delta string `json:"delta"`
				} `json:"params"`
			} `json:"msg"`
		}
		_ = json.Unmarshal([]byte(l), &tl)
		deltas.WriteString(tl.Msg.Params.Delta)
	}
	if strings.Contains(deltas.String(), "SplitToken") {
		t.Fatalf("the streamed token rebuilds from the trace's deltas: %q", deltas.String())
	}
	if !strings.HasPrefix(strings.Join(dirs, ","), "send,recv,recv,recv") {
		t.Fatalf("directions = %v", dirs)
	}
}
