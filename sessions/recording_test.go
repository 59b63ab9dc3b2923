package sessions

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"tandem/backend"
	"tandem/internal/lib/redact"
)

// Planted secrets: none of them may reach a file tandem writes.
const (
	secretBearer      = "Bearer eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2VuLXZhbHVl.QmVhcmVyU2VjcmV0"
	secretBearerValue = "eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2VuLXZhbHVl.QmVhcmVyU2VjcmV0"
	secretSK          = "sk-proj-Zq8v2LmN4pR7sT1uW3xY5aB6cD9eF0gH"
	secretAPIValue    = "mcpSecretValue9f8e7d6c5b4a"
)

func fakeTranscript(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	rec := NewRecorder(&buf, nil, Header{Tandem: "test", Width: 80, Height: 24, Cwd: "~/w"})
	send := func(dir backend.Direction, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		rec.Trace(dir, b)
	}
	m := func(kv ...any) map[string]any {
		out := map[string]any{"jsonrpc": "2.0"}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i].(string)] = kv[i+1]
		}
		return out
	}
	send(backend.Sent, m("id", 1, "method", "initialize", "params", map[string]any{}))
	send(backend.Received, m("id", 1, "result", map[string]any{"userAgent": "tandem/0.169.0 (Linux; x86_64)"}))
	send(backend.Sent, m("id", 2, "method", "thread/start", "params", map[string]any{}))
	send(backend.Received, m("id", 2, "result", map[string]any{"thread": map[string]any{"id": "th"}, "model": "mock-model", "cwd": "/w", "approvalPolicy": "untrusted", "sandbox": map[string]any{"type": "workspaceWrite"}}))
	send(backend.Sent, m("id", 3, "method", "turn/start", "params", map[string]any{"threadId": "th", "input": []any{map[string]any{"type": "text", "text": "configure the mcp server with\n" + secretSK}}}))
	send(backend.Received, m("method", "turn/started", "params", map[string]any{"threadId": "th", "turn": map[string]any{"id": "tu", "status": "inProgress", "items": []any{}}}))
	send(backend.Received, m("method", "item/agentMessage/delta", "params", map[string]any{"threadId": "th", "turnId": "tu", "itemId": "a1", "delta": "use Authorization: " + secretBearer}))
	send(backend.Received, m("method", "item/completed", "params", map[string]any{"threadId": "th", "turnId": "tu", "item": map[string]any{"type": "agentMessage", "id": "a1", "text": "use Authorization: " + secretBearer}}))
	out := "OPENAI_API_KEY=" + secretSK + "\n[mcp_servers.docs.env]\napi_key=" + secretAPIValue + "\n" + secretSK + "\n"
	send(backend.Received, m("method", "item/completed", "params", map[string]any{"threadId": "th", "turnId": "tu", "item": map[string]any{"type": "commandExecution", "id": "c1", "command": "cat .env", "cwd": "/w", "status": "completed", "exitCode": 0, "aggregatedOutput": out}}))
	send(backend.Received, m("id", 0, "method", "item/tool/call", "params", map[string]any{"threadId": "th", "turnId": "tu", "callId": "q1", "tool": "ask_user_question", "arguments": map[string]any{"title": "Pick", "questions": []any{map[string]any{"id": "color", "question": "Which colour?", "options": []any{map[string]any{"label": "Red"}, map[string]any{"label": "Blue"}}}}}}))
	time.Sleep(20 * time.Millisecond)
	send(backend.Sent, m("id", 0, "result", map[string]any{"success": true, "contentItems": []any{map[string]any{"type": "inputText", "text": `{"color":"Blue"}`}}}))
	send(backend.Received, m("method", "item/completed", "params", map[string]any{"threadId": "th", "turnId": "tu", "item": map[string]any{"type": "fileChange", "id": "f1", "status": "completed", "changes": []any{map[string]any{"path": "a.txt", "kind": map[string]any{"type": "add"}, "diff": "hello\n"}}}}))
	send(backend.Received, m("method", "turn/completed", "params", map[string]any{"threadId": "th", "turn": map[string]any{"id": "tu", "status": "completed", "items": []any{}}}))
	send(backend.Received, m("method", "item/agentMessage/delta", "params", map[string]any{"threadId": "other", "turnId": "x", "itemId": "z", "delta": "other thread"}))
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func assertNoSecrets(t *testing.T, what string, b []byte) {
	t.Helper()
	for _, s := range []string{secretBearerValue, secretSK, secretAPIValue, "sk-proj-"} {
		if bytes.Contains(b, []byte(s)) {
			t.Errorf("%s contains the planted secret %q", what, s)
		}
	}
}

func TestRecorderHeaderEntriesAndRedaction(t *testing.T) {
	raw := fakeTranscript(t)
	assertNoSecrets(t, "transcript", raw)
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(nil, 1<<20)
	var last int64 = -1
	n := 0
	for sc.Scan() {
		if !json.Valid(sc.Bytes()) {
			t.Fatalf("line %d is not JSON: %s", n, sc.Text())
		}
		if n > 0 {
			var e Entry
			_ = json.Unmarshal(sc.Bytes(), &e)
			if e.T < last {
				t.Fatalf("time went back at line %d", n)
			}
			last = e.T
			if len(e.Msg) == 0 {
				t.Errorf("line %d lost its message: %s", n, sc.Text())
			}
		}
		n++
	}
	rec, err := ReadRecording(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	h := rec.Header
	if h.Type != "header" || h.Version != RecordingVersion || h.Codex != "0.169.0" || h.Tandem != "test" || h.Width != 80 || h.Height != 24 || h.Cwd != "~/w" || h.Start.IsZero() {
		t.Errorf("header = %+v", h)
	}
	if len(rec.Entries) != n-1 {
		t.Errorf("entries = %d, lines = %d", len(rec.Entries), n)
	}
	if _, err := ReadRecording(strings.NewReader(`{"t":1}`)); err == nil {
		t.Error("a file without header was accepted")
	}
}

func TestCodexVersion(t *testing.T) {
	for in, want := range map[string]string{
		"tandem/0.169.0 (Ubuntu 24.4.0; x86_64) xterm": "0.169.0",
		"codex_cli_rs/1.2.3":                           "1.2.3",
		"weird":                                        "weird",
	} {
		if got := CodexVersion(in); got != want {
			t.Errorf("CodexVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPlayerYieldsSessionStream(t *testing.T) {
	rec, err := ReadRecording(bytes.NewReader(fakeTranscript(t)))
	if err != nil {
		t.Fatal(err)
	}
	p := NewPlayer(rec, PlayerOptions{Speed: 16, IdleLimit: 50 * time.Millisecond})
	var got []any
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	p.Run(ctx, func(v any) { got = append(got, v) })
	var kinds []string
	var last PlayerStatus
	for _, v := range got {
		switch x := v.(type) {
		case PlayerStatus:
			last = x
			continue
		case ThreadReady:
			if x.Model != "mock-model" || x.Approval != "untrusted" || x.ThreadID != "th" {
				t.Errorf("ready = %+v", x)
			}
			kinds = append(kinds, "ready")
		case backend.ItemCompletedEvent:
			kinds = append(kinds, "completed:"+x.Item.Type)
			if x.Item.Type == "userMessage" && x.Item.UserText() != "configure the mcp server with\n"+redact.Marker {
				t.Errorf("user text = %q", x.Item.UserText())
			}
		case backend.AgentMessageDeltaEvent:
			if x.ThreadID != "th" {
				t.Errorf("event of another thread replayed: %+v", x)
			}
			kinds = append(kinds, "delta")
		case *backend.ToolCallRequest:
			kinds = append(kinds, "request")
			if err := x.Succeed("x"); err != nil {
				t.Errorf("replayed request's reply: %v", err)
			}
		case backend.RequestResolvedEvent:
			kinds = append(kinds, "resolved:"+x.RequestID.String())
		case backend.TurnStartedEvent:
			kinds = append(kinds, "turn started")
		case backend.TurnCompletedEvent:
			kinds = append(kinds, "turn completed")
		default:
			t.Errorf("unexpected %T", v)
		}
	}
	want := "ready completed:userMessage turn started delta completed:agentMessage completed:commandExecution request resolved:0 completed:fileChange turn completed"
	if s := strings.Join(kinds, " "); s != want {
		t.Errorf("stream:\n got %s\nwant %s", s, want)
	}
	if !last.Done || last.Step != p.Steps() {
		t.Errorf("last status = %+v", last)
	}
}

func TestPlayerControls(t *testing.T) {
	rec, err := ReadRecording(bytes.NewReader(fakeTranscript(t)))
	if err != nil {
		t.Fatal(err)
	}
	// Stretch the request's answer so playback at 1× would take an hour.
	for i := range rec.Entries {
		if i > 10 {
			rec.Entries[i].T += 3600_000
		}
	}
	p := NewPlayer(rec, PlayerOptions{})
	statuses := make(chan PlayerStatus, 100)
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	done := make(chan struct{})
	go func() {
		p.Run(ctx, func(v any) {
			if s, ok := v.(PlayerStatus); ok {
				statuses <- s
			}
		})
		close(done)
	}()
	next := func() PlayerStatus {
		select {
		case s := <-statuses:
			return s
		case <-ctx.Done():
			t.Fatal("no status")
		}
		return PlayerStatus{}
	}
	if s := next(); s.Paused || s.Speed != 1 {
		t.Fatalf("initial %+v", s)
	}
	p.Toggle()
	if s := next(); !s.Paused {
		t.Fatalf("after space: %+v", s)
	}
	p.Faster()
	if s := next(); s.Speed != 2 {
		t.Fatalf("after +: %+v", s)
	}
	p.Slower()
	p.Slower()
	if s := next(); s.Speed != 1 {
		t.Fatalf("after -: %+v", s)
	}
	if s := next(); s.Speed != 0.5 || !s.Paused {
		t.Fatalf("after - -: %+v", s)
	}
	// Steps go through while paused, one event each, past the hour gap.
	s := PlayerStatus{Step: -1}
	for i := 0; i < p.Steps() && !s.Done; i++ {
		prev := s.Step
		p.Step()
		s = next()
		if prev >= 0 && s.Step != prev+1 {
			t.Fatalf("a step delivered %d events", s.Step-prev)
		}
	}
	if !s.Done || s.Step != p.Steps() {
		t.Fatalf("after stepping through: %+v", s)
	}
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatal("player did not finish after stepping through")
	}
}

func TestExportMarkdown(t *testing.T) {
	rec, err := ReadRecording(bytes.NewReader(fakeTranscript(t)))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := ExportMarkdown(&b, rec); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	assertNoSecrets(t, "markdown", b.Bytes())
	for _, want := range []string{
		"# tandem session", "codex 0.169.0", "## Turn 1", "> configure the mcp server",
		"use Authorization: ", "**Command** `cat .env` (exit 0)", "[mcp_servers.docs.env]",
		"**Pick**", "- Which colour?", "  - **Blue**", "**File add** `a.txt`", "```diff\nhello\n```",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "other thread") {
		t.Log("note: export includes every thread's items")
	}
}

func TestCastWriter(t *testing.T) {
	var buf bytes.Buffer
	c, err := NewCastWriter(&buf, CastHeader{Width: 100, Height: 30, IdleTimeLimit: 2, Env: map[string]string{"TERM": "xterm-256color", "SHELL": "/bin/sh"}})
	if err != nil {
		t.Fatal(err)
	}
	// A secret split across writes, and an OSC title split mid-sequence.
	c.Output([]byte("\x1b[1mtoken: Bearer " + secretBearerValue[:10]))
	c.Output([]byte(secretBearerValue[10:] + "\r\n"))
	c.Output([]byte("\x1b]0;key " + secretSK[:8]))
	c.Output([]byte(secretSK[8:] + "\x07plain\r\n"))
	c.Resize(80, 24)
	c.Marker("turn started")
	c.Output([]byte("tail without newline api_key=" + secretAPIValue))
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	assertNoSecrets(t, "cast", buf.Bytes())
	h, events := parseCast(t, buf.Bytes())
	if h.Version != 2 || h.Width != 100 || h.Height != 30 || h.IdleTimeLimit != 2 || h.Timestamp == 0 || h.Env["TERM"] == "" {
		t.Errorf("header = %+v", h)
	}
	var codes, out string
	for _, e := range events {
		codes += e.code
		if e.code == "o" {
			out += e.data
		}
	}
	if !strings.Contains(codes, "rm") || strings.Contains(codes, "i") {
		t.Errorf("codes = %q", codes)
	}
	if !strings.Contains(out, "\x1b]0;key ") || !strings.Contains(out, "plain") || !strings.Contains(out, "tail without newline") {
		t.Errorf("output lost text: %q", out)
	}
	if !strings.Contains(out, "\x1b[1mtoken: ") {
		t.Errorf("output lost the bold text: %q", out)
	}
}

type castEvent struct {
	t    float64
	code string
	data string
}

// parseCast checks an asciicast v2 file: a valid header, events of known
// codes with times that never decrease.
func parseCast(t *testing.T, b []byte) (CastHeader, []castEvent) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	var h CastHeader
	if err := json.Unmarshal([]byte(lines[0]), &h); err != nil {
		t.Fatalf("header: %v", err)
	}
	var out []castEvent
	last := 0.0
	for i, l := range lines[1:] {
		var raw []json.RawMessage
		if err := json.Unmarshal([]byte(l), &raw); err != nil || len(raw) != 3 {
			t.Fatalf("event %d is not [time, code, data]: %s", i, l)
		}
		var e castEvent
		tf, err := strconv.ParseFloat(string(raw[0]), 64)
		if err != nil {
			t.Fatalf("event %d time: %s", i, raw[0])
		}
		e.t = tf
		_ = json.Unmarshal(raw[1], &e.code)
		_ = json.Unmarshal(raw[2], &e.data)
		if e.t < last {
			t.Fatalf("event %d goes back in time", i)
		}
		last = e.t
		if !strings.Contains("orm", e.code) || len(e.code) != 1 {
			t.Fatalf("event %d has unknown code %q", i, e.code)
		}
		out = append(out, e)
	}
	return h, out
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// A write error stops the recording and is told once through OnError, and
// again by Close.
func TestRecorderReportsWriteErrorOnce(t *testing.T) {
	rec := NewRecorder(failWriter{}, nil, Header{Tandem: "test"})
	var got []error
	rec.OnError(func(err error) { got = append(got, err) })
	for i := 0; i < 20; i++ { // past the held-back header
		rec.Trace(backend.Received, []byte(`{"method":"x","params":{}}`))
	}
	if len(got) != 1 || !strings.Contains(got[0].Error(), "disk full") {
		t.Fatalf("OnError calls = %v; want one", got)
	}
	if err := rec.Close(); err == nil {
		t.Error("Close hid the write error")
	}
}
