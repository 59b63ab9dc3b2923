package demo

import (
	"bytes"
	"strings"
	"testing"

	"tandem/sessions"
)

// The embedded demo holds everything the README promises, and exports.
func TestDemoTranscriptShowsEverything(t *testing.T) {
	rec, err := sessions.ReadRecording(bytes.NewReader(Transcript))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Header.Codex == "" {
		t.Error("demo header names no codex version")
	}
	seen := map[string]bool{}
	for _, e := range rec.Entries {
		m, ok := e.Message()
		if !ok {
			continue
		}
		seen[m.Method] = true
		if m.Method == "item/completed" {
			for _, kind := range []string{`"type":"plan"`, `"type":"fileChange"`, `"type":"commandExecution"`, `"type":"reasoning"`} {
				if bytes.Contains(m.Params, []byte(kind)) {
					seen[kind] = true
				}
			}
		}
	}
	for _, want := range []string{"item/agentMessage/delta", "item/commandExecution/requestApproval", "item/fileChange/requestApproval", "item/tool/call", "turn/plan/updated",
		`"type":"plan"`, `"type":"fileChange"`, `"type":"commandExecution"`, `"type":"reasoning"`} {
		if !seen[want] {
			t.Errorf("demo transcript has no %s", want)
		}
	}
	var md bytes.Buffer
	if err := sessions.ExportMarkdown(&md, rec); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| Item | Cell | Streams |", "```go", "**Command** `sh greet.sh tandem | tee greeting.txt`", "```diff", "**Greeting style**", "  - **Pirate**", "**Plan**", "## Turn 4"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("demo export lacks %q", want)
		}
	}
}
