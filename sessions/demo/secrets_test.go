package demo

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tandem/internal/lib/redact"
	"tandem/internal/testkit/mockapi"
	"tandem/sessions"
)

// Planted secrets (fake, but shaped like the real thing).
const (
	plantedBearer = "eyJhbGciOiJIUzI1NiJ9.cGxhbnRlZC1iZWFyZXI.U2VjcmV0QmVhcmVy"
	plantedSK     = "sk-proj-T4nd3mPl4nt3dK3yXyZ0123456789abcd"
	plantedAPIKey = "plantedMcpKey5e4d3c2b1a0f"
)

// TestRecordedSecretsNeverReachDisk runs the real app-server with the mock
// provider: the agent's message carries a Bearer token, a command prints an
// sk- key, and an MCP env block with an api_key= assignment shows up in both.
// The transcript and its Markdown export must hold none of them.
func TestRecordedSecretsNeverReachDisk(t *testing.T) {
	responses := []mockapi.Response{
		{Items: []mockapi.Item{mockapi.Text("Call the API with `Authorization: Bearer " + plantedBearer + "`.\n\n" +
			"```toml\n[mcp_servers.docs.env]\napi_key=" + plantedAPIKey + "\n```\n")}},
		{Items: []mockapi.Item{mockapi.ExecCommand("echo OPENAI_API_KEY=" + plantedSK + " > env.txt; cat env.txt; printf 'api_key=" + plantedAPIKey + "\\n'")}},
		{Items: []mockapi.Item{mockapi.Text("Done.")}},
	}
	turns := []scriptedTurn{{prompt: "How do I call the API?"}, {prompt: "Write the key to env.txt"}}
	path := filepath.Join(t.TempDir(), "secrets.jsonl")
	recordSession(t, path, "", 0, responses, turns)

	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{plantedBearer, plantedSK, plantedAPIKey} {
		if bytes.Contains(raw, []byte(s)) {
			t.Errorf("transcript contains planted secret %q", s)
		}
	}
	// The messages are there, with the secrets replaced.
	for _, want := range []string{"Authorization: Bearer " + redact.Marker, "OPENAI_API_KEY=" + redact.Marker, "api_key=" + redact.Marker, "item/commandExecution/requestApproval"} {
		if !bytes.Contains(raw, []byte(want)) {
			t.Errorf("transcript lacks %q", want)
		}
	}

	rec, err := sessions.LoadRecording(path)
	if err != nil {
		t.Fatal(err)
	}
	// Streamed deltas, put back together, leak nothing either.
	streamed := map[string]string{}
	for _, e := range rec.Entries {
		m, ok := e.Message()
		if !ok || !strings.HasSuffix(m.Method, "Delta") && !strings.HasSuffix(m.Method, "/delta") {
			continue
		}
		var p struct {
			ItemID string `json:"itemId"`
			Delta  string `json:"delta"`
		}
		_ = json.Unmarshal(m.Params, &p)
		streamed[p.ItemID] += p.Delta
	}
	if len(streamed) == 0 {
		t.Error("no streamed deltas recorded")
	}
	for item, text := range streamed {
		for _, s := range []string{plantedBearer, plantedSK[8:], plantedAPIKey} {
			for i := 0; i+6 <= len(s); i += 6 {
				if strings.Contains(text, s[i:i+6]) {
					t.Errorf("deltas of %s put together show %q, a piece of a planted secret", item, s[i:i+6])
				}
			}
		}
	}
	var md bytes.Buffer
	if err := sessions.ExportMarkdown(&md, rec); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{plantedBearer, plantedSK, plantedAPIKey} {
		if bytes.Contains(md.Bytes(), []byte(s)) {
			t.Errorf("markdown contains planted secret %q", s)
		}
	}
	if !strings.Contains(md.String(), "**Command**") || !strings.Contains(md.String(), "OPENAI_API_KEY=") || !strings.Contains(md.String(), "> How do I call the API?") {
		t.Errorf("markdown misses the session:\n%s", md.String())
	}
}
