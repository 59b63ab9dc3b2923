package mockapi_test

// Tests of the mock itself, without codex.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"tandem/backend"
	"tandem/internal/testkit/codextest"
	"tandem/internal/testkit/mockapi"
)

func TestSplitRunesNeverSplitsRunes(t *testing.T) {
	inputs := []string{"", "a", "héllo wörld", "你好，世界！こんにちは", "👩‍💻🚀✅ mixed ascii 🇯🇵", strings.Repeat("€", 11)}
	for _, s := range inputs {
		for n := 0; n <= 5; n++ {
			parts := mockapi.SplitRunes(s, n)
			if strings.Join(parts, "") != s {
				t.Fatalf("SplitRunes(%q, %d) loses text: %q", s, n, parts)
			}
			for _, p := range parts {
				if !utf8.ValidString(p) || p == "" {
					t.Fatalf("SplitRunes(%q, %d) gives bad piece %q", s, n, p)
				}
				if k := utf8.RuneCountInString(p); k > max(n, 1) {
					t.Fatalf("SplitRunes(%q, %d) piece %q has %d runes", s, n, p, k)
				}
			}
		}
	}
	if got := mockapi.Text("abcdefghij").Chunks; len(got) != 3 || got[0] != "abcd" {
		t.Errorf("Text chunks %q", got)
	}
}

func TestSplitBytes(t *testing.T) {
	s := strings.Repeat("ab你好🚀", 100)
	for _, parts := range []int{1, 7, 100, 300, 500, 10000} {
		got := mockapi.SplitBytes(s, parts)
		if strings.Join(got, "") != s {
			t.Fatalf("SplitBytes(_, %d) loses text", parts)
		}
		want := min(parts, utf8.RuneCountInString(s))
		if len(got) != want {
			t.Errorf("SplitBytes(_, %d) gives %d pieces, want %d", parts, len(got), want)
		}
		for _, p := range got {
			if p == "" || !utf8.ValidString(p) {
				t.Fatalf("SplitBytes(_, %d) gives bad piece %q", parts, p)
			}
		}
	}
}

func TestBigMarkdown(t *testing.T) {
	r := mockapi.BigMarkdown(mockapi.BigMarkdownBytes, mockapi.BigMarkdownDeltas)
	if len(r.Items) != 1 || r.Items[0].Kind != mockapi.KindMessage {
		t.Fatalf("items %v", r.Items)
	}
	text := r.Items[0].Text()
	if len(text) != mockapi.BigMarkdownBytes || !utf8.ValidString(text) {
		t.Fatalf("text is %d bytes (valid %v), want %d", len(text), utf8.ValidString(text), mockapi.BigMarkdownBytes)
	}
	if text != mockapi.BigMarkdownText(mockapi.BigMarkdownBytes) {
		t.Error("BigMarkdown is not deterministic")
	}
	if n := len(r.Items[0].Chunks); n != mockapi.BigMarkdownDeltas {
		t.Errorf("%d deltas, want %d", n, mockapi.BigMarkdownDeltas)
	}
	for _, c := range r.Items[0].Chunks {
		if !utf8.ValidString(c) {
			t.Fatalf("delta %q splits a rune", c)
		}
	}
	for _, want := range []string{"\n## ", "\n- ", "\n1. ", "| Metric |", "```go\n", "```\n", "> **Note**", "- [x]", "---", "基准测试", "日本語", "한국어", "🚀", "👩‍💻", "[link to the docs]("} {
		if !strings.Contains(text, want) {
			t.Errorf("benchmark markdown lacks %q", want)
		}
	}
	if fences := strings.Count(text, "```"); fences%2 != 0 {
		t.Errorf("odd number of code fences: %d", fences)
	}
	for _, n := range []int{0, 1, 2, 10, 100, 5000} {
		if got := len(mockapi.BigMarkdownText(n)); got != n {
			t.Errorf("BigMarkdownText(%d) has %d bytes", n, got)
		}
	}
}

type sseEvent struct {
	name string
	data map[string]any
}

// post sends a Responses API request to the mock and parses the SSE answer.
func post(t *testing.T, url string, header map[string]string, body string) (int, []sseEvent, []byte) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, nil, b
	}
	var evs []sseEvent
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var cur sseEvent
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &cur.data); err != nil {
				t.Fatalf("bad data line %q: %v", line, err)
			}
		case line == "":
			if cur.name != "" {
				evs = append(evs, cur)
			}
			cur = sseEvent{}
		}
	}
	return resp.StatusCode, evs, nil
}

const turnBody = `{"model":"m","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]},` +
	`{"type":"function_call","call_id":"c1","name":"exec_command","arguments":"{}"},` +
	`{"type":"function_call_output","call_id":"c1","output":"done"},` +
	`{"type":"function_call_output","call_id":"c2","output":[{"type":"input_text","text":"a"},{"type":"input_text","text":"b"}]}]}`

func TestServerStreamsSSE(t *testing.T) {
	call := mockapi.Call("my_tool", `{"x":1}`)
	srv := mockapi.New(mockapi.Response{
		Items: []mockapi.Item{mockapi.Reasoning("think"), mockapi.TextChunks("Hel", "lo ✨"), call},
		Usage: mockapi.Usage{InputTokens: 10, OutputTokens: 5, ReasoningTokens: 2, CachedTokens: 3},
	})
	defer srv.Close()
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") || !strings.HasSuffix(srv.URL, "/v1") {
		t.Fatalf("URL %q", srv.URL)
	}
	status, evs, _ := post(t, srv.URL+"/responses", nil, turnBody)
	if status != 200 {
		t.Fatalf("status %d", status)
	}
	var names []string
	for i, e := range evs {
		names = append(names, e.name)
		if e.data["type"] != e.name {
			t.Errorf("event %d: name %q but data type %v", i, e.name, e.data["type"])
		}
		if num(e.data["sequence_number"]) != int64(i) {
			t.Errorf("event %d: sequence_number %v", i, e.data["sequence_number"])
		}
	}
	if names[0] != "response.created" || names[len(names)-1] != "response.completed" {
		t.Errorf("events %v", names)
	}
	var deltas []string
	var done []map[string]any
	for _, e := range evs {
		switch e.name {
		case "response.output_text.delta":
			deltas = append(deltas, e.data["delta"].(string))
			if e.data["item_id"] == "" || e.data["content_index"] == nil || e.data["output_index"] == nil {
				t.Errorf("delta lacks ids: %v", e.data)
			}
		case "response.output_item.done":
			done = append(done, e.data["item"].(map[string]any))
		}
	}
	if strings.Join(deltas, "|") != "Hel|lo ✨" {
		t.Errorf("deltas %q", deltas)
	}
	if len(done) != 3 {
		t.Fatalf("%d items done", len(done))
	}
	if done[0]["type"] != "reasoning" || path(done[0], "summary") == nil {
		t.Errorf("reasoning item %v", done[0])
	}
	if done[1]["type"] != "message" || done[1]["role"] != "assistant" {
		t.Errorf("message item %v", done[1])
	}
	content := done[1]["content"].([]any)[0].(map[string]any)
	if content["type"] != "output_text" || content["text"] != "Hello ✨" {
		t.Errorf("message content %v", content)
	}
	if done[2]["type"] != "function_call" || done[2]["name"] != "my_tool" || done[2]["call_id"] != call.CallID || done[2]["arguments"] != `{"x":1}` {
		t.Errorf("function_call item %v", done[2])
	}
	usage := path(evs[len(evs)-1].data, "response", "usage").(map[string]any)
	if num(usage["input_tokens"]) != 10 || num(usage["output_tokens"]) != 5 || num(usage["total_tokens"]) != 15 ||
		num(path(usage, "input_tokens_details", "cached_tokens")) != 3 ||
		num(path(usage, "output_tokens_details", "reasoning_tokens")) != 2 {
		t.Errorf("usage %v", usage)
	}

	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if r.Kind != "" || r.Aux || r.Index != 0 || r.Path != "/v1/responses" {
		t.Errorf("request %+v", r)
	}
	if got := r.FunctionCallOutputs(); got["c1"] != "done" || got["c2"] != "ab" || len(got) != 2 {
		t.Errorf("FunctionCallOutputs %v", got)
	}
	if got := r.UserTexts(); len(got) != 1 || got[0] != "hi" {
		t.Errorf("UserTexts %q", got)
	}

	// Exhausted script: default answer, nothing hangs.
	_, evs, _ = post(t, srv.URL+"/responses", nil, turnBody)
	var text strings.Builder
	for _, e := range evs {
		if e.name == "response.output_text.delta" {
			text.WriteString(e.data["delta"].(string))
		}
	}
	if text.String() != mockapi.ExhaustedText {
		t.Errorf("exhausted answer %q", text.String())
	}
	if reqs := srv.Requests(); len(reqs) != 2 || reqs[1].Index != -1 {
		t.Errorf("requests after exhaustion: %+v", reqs)
	}
}

func TestServerFailStatusAndAux(t *testing.T) {
	srv := mockapi.New(
		mockapi.Response{FailStatus: 429, FailMessage: "slow down"},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("scripted")}},
	)
	defer srv.Close()
	status, _, body := post(t, srv.URL+"/responses", nil, `{"model":"m","input":[]}`)
	if status != 429 || !strings.Contains(string(body), "slow down") {
		t.Errorf("fail answer %d %s", status, body)
	}
	// A compaction (by metadata header) does not consume the script.
	meta := map[string]string{"X-Codex-Turn-Metadata": `{"request_kind":"compaction"}`}
	_, evs, _ := post(t, srv.URL+"/responses", meta, `{"model":"m","input":[]}`)
	if len(evs) == 0 {
		t.Fatal("no SSE for compaction")
	}
	// A compaction recognised by its shape (no metadata).
	shape := `{"model":"m","tools":[],"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"You are performing a CONTEXT CHECKPOINT COMPACTION. Summarise."}]}]}`
	post(t, srv.URL+"/responses", nil, shape)
	srv.SetAuxResponse(mockapi.RequestKindCompaction, mockapi.Response{Items: []mockapi.Item{mockapi.Text("custom summary")}})
	status, _, body = post(t, srv.URL+"/responses/compact", nil, `{"model":"m","input":[]}`)
	if status != 200 || !strings.Contains(string(body), "custom summary") {
		t.Errorf("remote compact answer %d %s", status, body)
	}
	if srv.Pending() != 1 {
		t.Errorf("aux requests consumed the script: %d pending", srv.Pending())
	}
	// A turn (by metadata) consumes it.
	_, evs, _ = post(t, srv.URL+"/responses", map[string]string{"X-Codex-Turn-Metadata": `{"request_kind":"turn"}`}, `{"model":"m","input":[]}`)
	if len(evs) == 0 || srv.Pending() != 0 {
		t.Errorf("turn not served from the script (%d pending)", srv.Pending())
	}
	all := srv.AllRequests()
	if len(all) != 5 {
		t.Fatalf("%d requests recorded", len(all))
	}
	for i, wantAux := range []bool{false, true, true, true, false} {
		if all[i].Aux != wantAux {
			t.Errorf("request %d: aux %v, want %v (kind %q)", i, all[i].Aux, wantAux, all[i].Kind)
		}
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("Requests() has %d turn requests, want 2", n)
	}
	if resp, err := http.Get(srv.URL + "/models"); err != nil || resp.StatusCode != 200 {
		t.Errorf("GET /models: %v %v", resp, err)
	}
}

func TestWaitRequestsAndChunkDelay(t *testing.T) {
	srv := mockapi.New()
	defer srv.Close()
	if _, err := srv.WaitRequests(1, 50*time.Millisecond); err == nil {
		t.Fatal("WaitRequests succeeded with no request")
	}
	srv.Enqueue(mockapi.Response{Items: []mockapi.Item{mockapi.TextChunks("a", "b", "c")}, ChunkDelay: 30 * time.Millisecond})
	done := make(chan struct{})
	go func() {
		defer close(done)
		start := time.Now()
		_, evs, _ := post(t, srv.URL+"/responses", nil, `{"input":[]}`)
		if el := time.Since(start); el < time.Duration(len(evs)-1)*30*time.Millisecond {
			t.Errorf("%d events in %v: ChunkDelay not applied", len(evs), el)
		}
	}()
	reqs, err := srv.WaitRequests(1, patience)
	if err != nil || len(reqs) != 1 {
		t.Fatalf("WaitRequests: %v %d", err, len(reqs))
	}
	<-done
}

func TestParseScript(t *testing.T) {
	script := `{"responses": [
	  {"items": [
	    {"reasoning": "hmm"},
	    {"text": "héllo", "chunk_runes": 2},
	    {"chunks": ["a", "b"]},
	    {"exec": "echo hi"},
	    {"exec": {"cmd": "rm -rf x", "sandbox_permissions": "require_escalated", "justification": "why"}},
	    {"call": "ask_user_question", "arguments": {"question": "Q?"}, "call_id": "call_fixed"},
	    {"call": "other", "arguments": "{\"raw\":true}"}
	  ], "usage": {"input_tokens": 5, "output_tokens": 2}, "chunk_delay_ms": 1.5},
	  {"fail_status": 503, "fail_message": "down"},
	  {"big_markdown": {"bytes": 2000, "deltas": 50}, "items": [{"text": "after"}]}
	]}`
	rs, err := mockapi.ParseScript([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 3 {
		t.Fatalf("%d responses", len(rs))
	}
	its := rs[0].Items
	if len(its) != 7 {
		t.Fatalf("%d items", len(its))
	}
	if its[0].Kind != mockapi.KindReasoning || its[0].Text() != "hmm" {
		t.Errorf("reasoning %+v", its[0])
	}
	if its[1].Kind != mockapi.KindMessage || strings.Join(its[1].Chunks, "|") != "hé|ll|o" {
		t.Errorf("text %+v", its[1])
	}
	if strings.Join(its[2].Chunks, "|") != "a|b" {
		t.Errorf("chunks %+v", its[2])
	}
	if its[3].Name != "exec_command" || its[3].Arguments != `{"cmd":"echo hi"}` {
		t.Errorf("exec %+v", its[3])
	}
	var args mockapi.ExecCommandArgs
	if err := json.Unmarshal([]byte(its[4].Arguments), &args); err != nil || args.SandboxPermissions != "require_escalated" || args.Cmd != "rm -rf x" {
		t.Errorf("exec object %+v (%v)", its[4], err)
	}
	if its[5].CallID != "call_fixed" || its[5].Arguments != `{"question":"Q?"}` {
		t.Errorf("call %+v", its[5])
	}
	if its[6].Arguments != `{"raw":true}` || its[6].CallID == "" {
		t.Errorf("call with string arguments %+v", its[6])
	}
	if rs[0].Usage.InputTokens != 5 || rs[0].ChunkDelay != 1500*time.Microsecond {
		t.Errorf("usage/delay %+v %v", rs[0].Usage, rs[0].ChunkDelay)
	}
	if rs[1].FailStatus != 503 || rs[1].FailMessage != "down" {
		t.Errorf("fail %+v", rs[1])
	}
	if len(rs[2].Items) != 2 || len(rs[2].Items[0].Text()) != 2000 || len(rs[2].Items[0].Chunks) != 50 || rs[2].Items[1].Text() != "after" {
		t.Errorf("big_markdown response, then its items, wrong")
	}

	// A bare array works too; mistakes are errors.
	if rs, err := mockapi.ParseScript([]byte(`[{"items":[{"text":"x"}]}]`)); err != nil || len(rs) != 1 {
		t.Errorf("bare array: %v", err)
	}
	for _, bad := range []string{
		`{"responses":[{"itmes":[]}]}`,
		`{"responses":[{"items":[{"txt":"x"}]}]}`,
		`{"responses":[{"items":[{"text":"x","exec":"y"}]}]}`,
		`{"responses":[{"items":[{}]}]}`,
		`{"responses":[{"items":[{"exec":{"command":"x"}}]}]}`,
		`{"responses":[{"fail_status":200}]}`,
		`{"responses":[]} trailing`,
	} {
		if _, err := mockapi.ParseScript([]byte(bad)); err == nil {
			t.Errorf("ParseScript(%s) succeeded", bad)
		}
	}

	path := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(path, []byte(script), 0o644)
	if rs, err := mockapi.LoadScript(path); err != nil || len(rs) != 3 {
		t.Errorf("LoadScript: %v", err)
	}
}

func TestWriteCodexHomeAndOverrides(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	url := "http://127.0.0.1:1234/v1"
	if err := mockapi.WriteCodexHome(dir, url); err != nil {
		t.Fatal(err)
	}
	cfg, err := os.ReadFile(filepath.Join(dir, "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`model = "mock-model"`, `model_provider = "mock"`, "[model_providers.mock]",
		`base_url = "` + url + `"`, `wire_api = "responses"`, "request_max_retries = 0",
		"stream_max_retries = 0", "model_catalog_json = ",
	} {
		if !strings.Contains(string(cfg), want) {
			t.Errorf("config.toml lacks %q:\n%s", want, cfg)
		}
	}
	var catalog struct {
		Models []map[string]any `json:"models"`
	}
	b, err := os.ReadFile(filepath.Join(dir, mockapi.CatalogFile))
	if err != nil || json.Unmarshal(b, &catalog) != nil || len(catalog.Models) != 1 || catalog.Models[0]["slug"] != mockapi.DefaultModel {
		t.Errorf("catalog: %v %s", err, b)
	}
	ov := mockapi.Overrides(url)
	if len(ov)%2 != 0 {
		t.Fatalf("odd overrides %q", ov)
	}
	joined := strings.Join(ov, " ")
	for _, want := range []string{`-c model_provider="mock"`, `-c model="mock-model"`, `base_url="` + url + `"`, `wire_api="responses"`} {
		if !strings.Contains(joined, want) {
			t.Errorf("overrides lack %q: %q", want, ov)
		}
	}
	for i := 0; i < len(ov); i += 2 {
		if ov[i] != "-c" || !strings.Contains(ov[i+1], "=") {
			t.Errorf("bad override pair %q %q", ov[i], ov[i+1])
		}
	}
}

// TestOverridesWithCodex checks that codex accepts the overrides (strict
// config validation) without any config.toml.
func TestOverridesWithCodex(t *testing.T) {
	bin := codextest.Path(t)
	args := append([]string{"app-server", "--strict-config", "--print-startup-config"}, mockapi.Overrides("http://127.0.0.1:9/v1")...)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "CODEX_HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte(`"appServerVersion"`)) {
		t.Fatalf("codex rejected the overrides: %v\n%s", err, out)
	}
}

// TestCmdMockapi builds and runs the standalone runner.
func TestCmdMockapi(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "mockapi")
	if out, err := exec.Command(goBin, "build", "-o", bin, "tandem/internal/testkit/mockapi/cmd/mockapi").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	script := filepath.Join(dir, "script.json")
	os.WriteFile(script, []byte(`{"responses":[{"items":[{"text":"from the script"}]}]}`), 0o644)
	home := filepath.Join(dir, "home")
	cmd := exec.Command(bin, "--script", script, "--codex-home", home)
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		lines <- strings.TrimSpace(line)
	}()
	var url string
	select {
	case url = <-lines:
	case <-time.After(patience):
		t.Fatal("no URL on stdout")
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/v1") {
		t.Fatalf("first line %q", url)
	}
	cfg, err := os.ReadFile(filepath.Join(home, "config.toml"))
	if err != nil || !strings.Contains(string(cfg), url) {
		t.Errorf("config.toml: %v\n%s", err, cfg)
	}
	_, evs, _ := post(t, url+"/responses", nil, `{"input":[]}`)
	var text strings.Builder
	for _, e := range evs {
		if e.name == "response.output_text.delta" {
			text.WriteString(e.data["delta"].(string))
		}
	}
	if text.String() != "from the script" {
		t.Errorf("runner answered %q", text.String())
	}
	cmd.Process.Signal(os.Interrupt)
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		if err != nil {
			t.Errorf("exit after SIGINT: %v", err)
		}
	case <-time.After(patience):
		t.Error("runner did not exit on SIGINT")
	}
	if !strings.Contains(stderr.String(), "script[0]") {
		t.Errorf("stderr log %q", stderr.String())
	}
}

// With a command after "--" the runner writes a codex home, runs the
// command with CODEX_HOME pointing at it, exits with its status, and
// removes the temporary home.
func TestCmdMockapiRunsCommand(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "mockapi")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/mockapi").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	script := filepath.Join(dir, "s.json")
	os.WriteFile(script, []byte(`{"responses":[]}`), 0o644)
	seen := filepath.Join(dir, "home-was")
	cmd := exec.Command(bin, "--script", script, "--", "sh", "-c",
		`grep -q 'model_provider = "mock"' "$CODEX_HOME/config.toml" || exit 3; echo "$CODEX_HOME" > `+seen+`; exit 7`)
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 7 {
		t.Fatalf("exit = %v, want the command's status 7 (3 means no mock config)", err)
	}
	home, _ := os.ReadFile(seen)
	if len(home) == 0 {
		t.Fatal("command did not run")
	}
	if _, err := os.Stat(strings.TrimSpace(string(home))); !os.IsNotExist(err) {
		t.Fatalf("temporary codex home left behind: %v", err)
	}
}

// The script example in the package documentation parses, and its
// ask_user_question call carries arguments tandem accepts.
func TestDocScriptExample(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(src), "LoadScript reads the JSON format documented at ParseScript, e.g.\n//\n")
	if !ok {
		t.Fatal("doc.go: the script example is gone")
	}
	var js strings.Builder
	for _, l := range strings.Split(rest, "\n") {
		code, ok := strings.CutPrefix(l, "//\t")
		if !ok {
			break
		}
		js.WriteString(code + "\n")
	}
	rs, err := mockapi.ParseScript([]byte(js.String()))
	if err != nil {
		t.Fatalf("doc example: %v\n%s", err, js.String())
	}
	found := false
	for _, r := range rs {
		for _, it := range r.Items {
			if it.Name == backend.AskUserQuestionName {
				found = true
				if _, err := backend.ParseAskUserQuestion(json.RawMessage(it.Arguments)); err != nil {
					t.Errorf("doc example's ask_user_question: %v", err)
				}
			}
		}
	}
	if !found {
		t.Error("doc example has no ask_user_question call")
	}
}
