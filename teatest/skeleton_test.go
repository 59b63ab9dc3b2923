package teatest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"tandem/backend"
	"tandem/internal/testkit/e2e"
	"tandem/model"
)

// fakeDriver starts turns without a server; the test feeds the events.
type fakeDriver struct{ backend.Unavailable }

func (fakeDriver) StartTurn(context.Context, backend.TurnInput) (backend.Turn, error) {
	return backend.Turn{ID: "turn-1", Status: backend.TurnInProgress}, nil
}
func (fakeDriver) Interrupt(context.Context) error { return nil }

var epoch = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// newScreen starts a frozen 100×30 TUI with a ready session.
func newScreen(t *testing.T) *e2e.TUI {
	t.Helper()
	u := e2e.NewFrozenTUI(t, model.Options{Now: func() time.Time { return epoch }, FormGrace: time.Millisecond}, 100, 30)
	u.TM.Send(model.SessionReadyMsg{Client: fakeDriver{}, Model: "gpt-test", Cwd: "~/src/tandem", Approval: "on-request", Sandbox: "workspace-write", Peer: "local"})
	return u
}

func scoped(v any) any { return v }

func golden(t *testing.T, u *e2e.TUI, want string) {
	t.Helper()
	screen := u.WaitScreen(t, e2e.Patience, want, e2e.Contains(want))
	teatest.RequireEqualOutput(t, []byte(screen))
}

func TestGoldenEmptyScreen(t *testing.T) {
	u := newScreen(t)
	golden(t, u, "Ask Codex to do anything")
}

func turnEvents(item backend.Item, deltas []string) []any {
	th := `{"threadId":"","turnId":"turn-1"}`
	var out []any
	dec := func(method string, params string) {
		ev, err := backend.DecodeNotification(method, json.RawMessage(params))
		if err != nil || ev == nil {
			panic(method + ": " + params)
		}
		out = append(out, ev)
	}
	_ = th
	dec("turn/started", `{"threadId":"","turn":{"id":"turn-1","items":[],"status":"inProgress"}}`)
	it, _ := json.Marshal(map[string]any{"threadId": "", "turnId": "turn-1", "item": map[string]any{"type": "agentMessage", "id": item.ID, "text": ""}})
	dec("item/started", string(it))
	for _, d := range deltas {
		b, _ := json.Marshal(map[string]any{"threadId": "", "turnId": "turn-1", "itemId": item.ID, "delta": d})
		dec("item/agentMessage/delta", string(b))
	}
	return out
}

func TestGoldenStreamedAnswer(t *testing.T) {
	u := newScreen(t)
	u.Submit("what changed?")
	md := "## Changes\n\n- streaming **Markdown**\n- inline approvals\n\n| area | state |\n|---|---|\n| chat | done |\n\n```sh\ngo test ./...\n```\n\nDone."
	var deltas []string
	for i := 0; i < len(md); i += 7 {
		deltas = append(deltas, md[i:min(len(md), i+7)])
	}
	for _, ev := range turnEvents(backend.Item{ID: "msg-1"}, deltas) {
		u.TM.Send(ev)
	}
	done, _ := backend.DecodeNotification("item/completed", mustJSON(map[string]any{"threadId": "", "turnId": "turn-1", "item": map[string]any{"type": "agentMessage", "id": "msg-1", "text": md}}))
	u.TM.Send(done)
	usage, _ := backend.DecodeNotification("thread/tokenUsage/updated", mustJSON(map[string]any{"threadId": "", "turnId": "turn-1", "tokenUsage": map[string]any{
		"total": map[string]any{"totalTokens": 1520, "inputTokens": 1400, "outputTokens": 120},
		"last":  map[string]any{"totalTokens": 1520, "inputTokens": 1400, "outputTokens": 120}, "modelContextWindow": 200000}}))
	u.TM.Send(usage)
	end, _ := backend.DecodeNotification("turn/completed", mustJSON(map[string]any{"threadId": "", "turn": map[string]any{"id": "turn-1", "items": []any{}, "status": "completed"}}))
	u.TM.Send(end)
	golden(t, u, "1.5k tokens")
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// request decodes a server request whose replies are captured.
func request(t *testing.T, method string, id string, params any, replies chan<- string) backend.ServerRequest {
	t.Helper()
	r, err := backend.DecodeRequest(method, backend.RequestID(id), mustJSON(params), func(result any, e *backend.RPCError) error {
		b, _ := json.Marshal(result)
		replies <- string(b)
		return nil
	})
	if err != nil || r == nil {
		t.Fatalf("decoding %s: %v", method, err)
	}
	return r
}

func TestGoldenApprovalForm(t *testing.T) {
	u := newScreen(t)
	u.Submit("create the file")
	for _, ev := range turnEvents(backend.Item{ID: "msg-0"}, []string{"I'll create it."}) {
		u.TM.Send(ev)
	}
	replies := make(chan string, 1)
	u.TM.Send(request(t, "item/commandExecution/requestApproval", "0", map[string]any{
		"threadId": "", "turnId": "turn-1", "itemId": "call-1", "kind": "command",
		"reason":  "writes outside the sandbox",
		"command": "/bin/bash -lc 'echo hi > notes.txt'", "cwd": "/home/dev/src/tandem",
		"availableDecisions": []any{"accept", "acceptForSession", "decline", "cancel"},
	}, replies))
	golden(t, u, "Run this command?")
}

func TestGoldenQuestionForm(t *testing.T) {
	u := newScreen(t)
	u.Submit("set up the project")
	replies := make(chan string, 1)
	u.TM.Send(request(t, "item/tool/call", `"q-7"`, map[string]any{
		"threadId": "", "turnId": "turn-1", "callId": "call-q", "tool": "ask_user_question",
		"arguments": map[string]any{"title": "Project setup", "questions": []any{
			map[string]any{"id": "lang", "question": "Which language?", "header": "Language", "options": []any{
				map[string]any{"label": "Go", "value": "go", "description": "fast builds"},
				map[string]any{"label": "Rust", "value": "rust"}}},
			map[string]any{"id": "name", "question": "Project name?", "placeholder": "my-app", "required": true},
		}},
	}, replies))
	golden(t, u, "Which language?")
}
