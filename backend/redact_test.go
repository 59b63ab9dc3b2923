package backend

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"tandem/internal/lib/redact"
)

// Planted secrets (the same as sessions' recording tests plant).
const (
	secretBearerValue = "eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2VuLXZhbHVl.QmVhcmVyU2VjcmV0"
	secretBearer      = "Bearer " + secretBearerValue
	secretSK          = "sk-proj-Zq8v2LmN4pR7sT1uW3xY5aB6cD9eF0gH"
	secretAPIValue    = "mcpSecretValue9f8e7d6c5b4a"
)

// deltaLine builds an item/agentMessage/delta notification.
func deltaLine(item, delta string) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "item/agentMessage/delta",
		"params": map[string]any{"threadId": "th", "turnId": "tu", "itemId": item, "delta": delta}})
	return b
}

func deltaOf(t *testing.T, line []byte) string {
	t.Helper()
	var m struct {
		Params struct {
			Delta string `json:"delta"`
		} `json:"params"`
	}
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatalf("redacted line is not JSON: %s", line)
	}
	return m.Params.Delta
}

// A secret streamed in small pieces never leaves in pieces.
func TestStreamRedactorSplitSecrets(t *testing.T) {
	text := "Use Authorization: " + secretBearer + " now.\nexport OPENAI_API_KEY=" + secretSK + "\nkey " + secretSK + " end\napi_key=" + secretAPIValue + "\nplain words stay\n"
	for _, size := range []int{1, 3, 4, 7, 16} {
		red := NewStreamRedactor()
		var got strings.Builder
		for i := 0; i < len(text); i += size {
			got.WriteString(deltaOf(t, red.Line(deltaLine("a1", text[i:min(len(text), i+size)]))))
		}
		s := got.String()
		for _, secret := range []string{secretBearerValue[:8], secretSK[8:16], secretAPIValue[:8]} {
			if strings.Contains(s, secret) {
				t.Errorf("size %d: streamed text leaks %q: %q", size, secret, s)
			}
		}
		want := redact.String(text)
		if s != want {
			t.Errorf("size %d: streamed text\n got %q\nwant %q", size, s, want)
		}
	}
}

// Deltas of different items are redacted independently, and other lines
// are redacted whole.
func TestStreamRedactorItemsAndOtherLines(t *testing.T) {
	red := NewStreamRedactor()
	a := deltaOf(t, red.Line(deltaLine("a", "Bearer ")))
	b := deltaOf(t, red.Line(deltaLine("b", "hello ")))
	a += deltaOf(t, red.Line(deltaLine("a", secretBearerValue+" ")))
	if a != "Bearer "+redact.Marker+" " || b != "hello " {
		t.Errorf("a = %q, b = %q", a, b)
	}
	line := red.Line([]byte(`{"id":1,"result":{"text":"OPENAI_API_KEY=` + secretSK + `"}}`))
	if strings.Contains(string(line), secretSK) || !json.Valid(line) {
		t.Errorf("response line = %s", line)
	}
}

// Redacting a JSON line keeps it valid JSON even where redacting the raw
// text would not (an empty value before the closing quote).
func TestRedactJSONStaysValid(t *testing.T) {
	for _, in := range []string{
		`{"delta":"Authorization: ","itemId":"a1"}`,
		`{"text":"api_key=","x":1}`,
		`{"text":"api_key=` + secretAPIValue + `","n":12345678901234567890}`,
	} {
		out := RedactJSON([]byte(in))
		if !json.Valid(out) {
			t.Errorf("RedactJSON(%s) = %s: not JSON", in, out)
		}
		if strings.Contains(string(out), secretAPIValue) {
			t.Errorf("RedactJSON(%s) leaks", in)
		}
	}
}

// BenchmarkStreamRedactorDelta measures the redaction cost per streamed
// delta (a --record run pays it on every delta).
func BenchmarkStreamRedactorDelta(b *testing.B) {
	benchStreamRedactor(b, strings.Repeat("Some **Markdown** with `code`, a | table | row and words.\n", 2000), 12)
}

// BenchmarkStreamRedactorLongLine streams one 1 MiB line (command output
// with no newline, such as minified JSON) in 4 KiB deltas: the cost per
// delta must not grow with the line's length.
func BenchmarkStreamRedactorLongLine(b *testing.B) {
	benchStreamRedactor(b, strings.Repeat(`{"key":"value","n":12345,"words":"some words here"} `, 1<<20/52), 4096)
}

// benchStreamRedactor streams text in deltas of size bytes through a fresh
// StreamRedactor per iteration and reports the cost per delta.
func benchStreamRedactor(b *testing.B, text string, size int) {
	var lines [][]byte
	for i := 0; i < len(text); i += size {
		lines = append(lines, deltaLine("a1", text[i:min(len(text), i+size)]))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		red := NewStreamRedactor()
		for _, l := range lines {
			red.Line(l)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(lines)), "ns/delta")
}

// On a line far longer than the redactor's window, secrets anywhere (and
// around every roll of the window) are still redacted, for any delta size,
// and the streamed text is what redacting the whole line gives.
func TestStreamRedactorLongLineSecrets(t *testing.T) {
	var b strings.Builder
	secrets := []string{"Authorization: " + secretBearer, "OPENAI_API_KEY=" + secretSK, "api_key=" + secretAPIValue, secretSK}
	for i := 0; b.Len() < 64<<10; i++ {
		b.WriteString("plain words in a very long line ")
		if i%97 == 0 {
			b.WriteString(secrets[(i/97)%len(secrets)] + " ")
		}
	}
	text := b.String() + "\n"
	want := redact.String(text)
	for _, size := range []int{97, 4096} {
		red := NewStreamRedactor()
		var got strings.Builder
		for i := 0; i < len(text); i += size {
			got.WriteString(deltaOf(t, red.Line(deltaLine("a1", text[i:min(len(text), i+size)]))))
		}
		s := got.String()
		for _, leak := range []string{secretBearerValue[:8], secretSK[8:16], secretAPIValue[:8]} {
			if strings.Contains(s, leak) {
				t.Fatalf("size %d: leaks %q", size, leak)
			}
		}
		if s != want {
			t.Errorf("size %d: streamed text differs from the whole line redacted (len %d vs %d)", size, len(s), len(want))
		}
	}
}

// The --record transcript of an answer with an unclosed quote hides the
// value and keeps the rest of the text, streamed or completed: the value
// ends at the first line break.
func TestStreamRedactorUnclosedQuote(t *testing.T) {
	const text = "Step 1: set password='abc\n\nStep 2 …\n\nStep 3 …\n\nThat's all."
	const want = "Step 1: set password='" + redact.Marker + "\n\nStep 2 …\n\nStep 3 …\n\nThat's all."
	red := NewStreamRedactor()
	var streamed strings.Builder
	for _, d := range strings.SplitAfter(text, " ") {
		streamed.WriteString(deltaOf(t, red.Line(deltaLine("m1", d))))
	}
	if s := streamed.String(); !strings.HasPrefix(want, s) || !strings.Contains(s, "Step 3") {
		t.Errorf("streamed %q, want a prefix of %q", s, want)
	}
	b, _ := json.Marshal(map[string]any{"method": "item/completed", "params": map[string]any{"item": map[string]any{"type": "agentMessage", "id": "m1", "text": text}}})
	var got struct {
		Params struct {
			Item struct {
				Text string `json:"text"`
			} `json:"item"`
		} `json:"params"`
	}
	if line := red.Line(b); json.Unmarshal(line, &got) != nil || got.Params.Item.Text != want {
		t.Errorf("item/completed text = %q, want %q", got.Params.Item.Text, want)
	}
}

// File contents (fs/readFile, fs/writeFile) are never recorded: base64
// would hide a secret from the redactor.
func TestStreamRedactorDropsFileData(t *testing.T) {
	secret := base64.StdEncoding.EncodeToString([]byte("OPENAI_API_KEY=sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789\n"))
	for _, line := range []string{
		`{"id":7,"result":{"dataBase64":"` + secret + `"}}`,
		`{"id":8,"method":"fs/writeFile","params":{"path":"/w/.env","dataBase64":"` + secret + `"}}`,
	} {
		got := string(NewStreamRedactor().Line([]byte(line)))
		if strings.Contains(got, secret) || !strings.Contains(got, fileDataNote) || !json.Valid([]byte(got)) {
			t.Errorf("%s\n→ %s", line, got)
		}
	}
	if got := string(NewStreamRedactor().Line([]byte(`{"id":9,"method":"fs/writeFile","params":{"path":"/w/a"}}`))); !strings.Contains(got, `"path":"/w/a"`) {
		t.Errorf("a line without file data changed: %s", got)
	}
}
