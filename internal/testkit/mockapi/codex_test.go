package mockapi_test

// End-to-end tests against the real `codex app-server` (0.169.0), spoken to
// over raw JSON-RPC on stdio, with the mock as its model provider.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tandem/internal/testkit/mockapi"
)

// startThread starts a thread in cwd and returns its id.
func startThread(t *testing.T, a *appServer, cwd, policy, sandbox string, extra map[string]any) string {
	t.Helper()
	params := map[string]any{"cwd": cwd, "approvalPolicy": policy, "sandbox": sandbox}
	for k, v := range extra {
		params[k] = v
	}
	res := a.call("thread/start", params, patience)
	id, _ := path(obj(t, res), "thread", "id").(string)
	if id == "" {
		t.Fatalf("thread/start: no thread id in %s", res)
	}
	return id
}

// startTurn sends turn/start with one text input.
func startTurn(t *testing.T, a *appServer, threadID, text string) {
	t.Helper()
	a.call("turn/start", map[string]any{
		"threadId": threadID,
		"input":    []any{map[string]any{"type": "text", "text": text, "text_elements": []any{}}},
	}, patience)
}

// notesOf returns the params of the notifications with the given method.
func notesOf(t *testing.T, notes []rpcMsg, method string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, n := range notes {
		if n.Method == method {
			out = append(out, obj(t, n.Params))
		}
	}
	return out
}

// completedItems returns the items of item/completed notifications of type typ.
func completedItems(t *testing.T, notes []rpcMsg, typ string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, p := range notesOf(t, notes, "item/completed") {
		if it, _ := p["item"].(map[string]any); it != nil && it["type"] == typ {
			out = append(out, it)
		}
	}
	return out
}

func turnStatus(t *testing.T, notes []rpcMsg) string {
	t.Helper()
	done := notesOf(t, notes, "turn/completed")
	if len(done) == 0 {
		t.Fatal("no turn/completed")
	}
	s, _ := path(done[len(done)-1], "turn", "status").(string)
	return s
}

func num(v any) int64 {
	f, _ := v.(float64)
	return int64(f)
}

func TestCodexStreamsText(t *testing.T) {
	const answer = "Hello **world** — 你好，世界 🌍! Here is `code`:\n\n```go\nfmt.Println(\"hi\")\n```\n"
	const summary = "Thinking about how to greet 👋"
	usage := mockapi.Usage{InputTokens: 1234, CachedTokens: 1000, OutputTokens: 56, ReasoningTokens: 7, TotalTokens: 1290}
	srv := mockapi.New(mockapi.Response{
		Items: []mockapi.Item{mockapi.Reasoning(summary), mockapi.Text(answer)},
		Usage: usage,
	})
	defer srv.Close()
	a := startCodex(t, srv)
	tid := startThread(t, a, t.TempDir(), "never", "workspace-write", nil)

	start := time.Now()
	startTurn(t, a, tid, "hi")
	notes := a.runTurn(patience, nil)
	t.Logf("turn took %v", time.Since(start))
	if s := turnStatus(t, notes); s != "completed" {
		t.Fatalf("turn status %q", s)
	}

	var deltas []string
	for _, p := range notesOf(t, notes, "item/agentMessage/delta") {
		deltas = append(deltas, p["delta"].(string))
	}
	if got := strings.Join(deltas, ""); got != answer {
		t.Errorf("agentMessage deltas concatenate to %q, want %q", got, answer)
	}
	if want := len(mockapi.Text(answer).Chunks); len(deltas) != want {
		t.Errorf("got %d agentMessage deltas, want %d", len(deltas), want)
	}
	msgs := completedItems(t, notes, "agentMessage")
	if len(msgs) != 1 || msgs[0]["text"] != answer {
		t.Errorf("completed agentMessage items = %v, want one with the answer", msgs)
	}

	var rdeltas []string
	for _, p := range notesOf(t, notes, "item/reasoning/summaryTextDelta") {
		rdeltas = append(rdeltas, p["delta"].(string))
	}
	if got := strings.Join(rdeltas, ""); got != summary {
		t.Errorf("reasoning summary deltas concatenate to %q, want %q", got, summary)
	}

	tu := notesOf(t, notes, "thread/tokenUsage/updated")
	if len(tu) == 0 {
		t.Fatal("no thread/tokenUsage/updated")
	}
	last := path(tu[len(tu)-1], "tokenUsage", "last").(map[string]any)
	for k, want := range map[string]int64{
		"inputTokens": usage.InputTokens, "cachedInputTokens": usage.CachedTokens,
		"outputTokens": usage.OutputTokens, "reasoningOutputTokens": usage.ReasoningTokens,
		"totalTokens": usage.TotalTokens,
	} {
		if got := num(last[k]); got != want {
			t.Errorf("tokenUsage.last.%s = %d, want %d", k, got, want)
		}
	}
	if w := num(path(tu[len(tu)-1], "tokenUsage", "modelContextWindow")); w <= 0 || w > mockapi.ModelContextWindow {
		t.Errorf("modelContextWindow = %d, want (0, %d]", w, mockapi.ModelContextWindow)
	}

	reqs, err := srv.WaitRequests(1, patience)
	if err != nil {
		t.Fatal(err)
	}
	r0 := reqs[0]
	if r0.Kind != mockapi.RequestKindTurn || r0.Aux || r0.Index != 0 {
		t.Errorf("request 0: kind %q aux %v index %d", r0.Kind, r0.Aux, r0.Index)
	}
	if r0.Model() != mockapi.DefaultModel {
		t.Errorf("request model %q", r0.Model())
	}
	if r0.LastUserText() != "hi" {
		t.Errorf("last user text %q, want hi (all: %q)", r0.LastUserText(), r0.UserTexts())
	}
	if !slices.Contains(r0.ToolNames(), "exec_command") {
		t.Errorf("tools %v lack exec_command", r0.ToolNames())
	}

	// The script is exhausted: the next turn gets the default answer, and
	// codex replays the first answer as history.
	startTurn(t, a, tid, "more")
	notes = a.runTurn(patience, nil)
	msgs = completedItems(t, notes, "agentMessage")
	if len(msgs) != 1 || msgs[0]["text"] != mockapi.ExhaustedText {
		t.Errorf("second turn messages = %v, want %q", msgs, mockapi.ExhaustedText)
	}
	reqs, err = srv.WaitRequests(2, patience)
	if err != nil {
		t.Fatal(err)
	}
	if reqs[1].Index != -1 || !slices.Contains(reqs[1].AssistantTexts(), answer) {
		t.Errorf("request 1: index %d, assistant history %q", reqs[1].Index, reqs[1].AssistantTexts())
	}
	if got := len(srv.AllRequests()); got != 2 {
		t.Errorf("mock saw %d POSTs, want 2 (hits %v)", got, srv.Hits())
	}
}

// TestCodexExecApproval shows the two ways to get a command approval request
// out of codex 0.169.0: approvalPolicy "untrusted" (any command that is not
// known to be read-only), or "on-request" with a call asking for
// sandbox_permissions "require_escalated". ("on-request" alone with
// workspace-write runs `echo hi > file` in the sandbox without asking, and
// with read-only it fails in the sandbox without asking.)
func TestCodexExecApproval(t *testing.T) {
	cases := []struct {
		name     string
		policy   string
		item     mockapi.Item
		decision string
	}{
		{"untrusted", "untrusted", mockapi.ExecCommand("echo hi > out.txt"), "accept"},
		{"on-request+require_escalated", "on-request", mockapi.ExecCommandWith(mockapi.ExecCommandArgs{
			Cmd: "echo hi > out.txt", SandboxPermissions: "require_escalated", Justification: "May I write out.txt?",
		}), "accept"},
		{"untrusted+decline", "untrusted", mockapi.ExecCommand("echo hi > out.txt"), "decline"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := mockapi.New(
				mockapi.Response{Items: []mockapi.Item{c.item}},
				mockapi.Response{Items: []mockapi.Item{mockapi.Text("Wrote the file.")}},
			)
			defer srv.Close()
			a := startCodex(t, srv)
			cwd := t.TempDir()
			tid := startThread(t, a, cwd, c.policy, "workspace-write", nil)
			startTurn(t, a, tid, "write hi to out.txt")
			var approvals []map[string]any
			notes := a.runTurn(patience, func(m rpcMsg) {
				if m.Method != "item/commandExecution/requestApproval" {
					t.Errorf("unexpected server request %s %s", m.Method, m.Params)
					a.respond(m.ID, map[string]any{})
					return
				}
				approvals = append(approvals, obj(t, m.Params))
				a.respond(m.ID, map[string]any{"decision": c.decision})
			})
			if s := turnStatus(t, notes); s != "completed" {
				t.Fatalf("turn status %q", s)
			}
			if len(approvals) != 1 {
				t.Fatalf("got %d approval requests, want 1", len(approvals))
			}
			ap := approvals[0]
			if ap["itemId"] != c.item.CallID || !strings.Contains(ap["command"].(string), "echo hi > out.txt") {
				t.Errorf("approval request %v: want itemId %s and the command", ap, c.item.CallID)
			}
			if ap["threadId"] != tid {
				t.Errorf("approval threadId %v, want %s", ap["threadId"], tid)
			}

			reqs, err := srv.WaitRequests(2, patience)
			if err != nil {
				t.Fatal(err)
			}
			out, ok := reqs[1].FunctionCallOutputs()[c.item.CallID]
			if !ok {
				t.Fatalf("second POST has no function_call_output for %s: %v", c.item.CallID, reqs[1].FunctionCallOutputs())
			}
			if name := reqs[1].FunctionCalls()[c.item.CallID]; name != "exec_command" {
				t.Errorf("second POST replays call %s as %q", c.item.CallID, name)
			}
			content, ferr := os.ReadFile(filepath.Join(cwd, "out.txt"))
			cmds := completedItems(t, notes, "commandExecution")
			if c.decision == "accept" {
				if ferr != nil || string(content) != "hi\n" {
					t.Errorf("out.txt = %q, %v; want \"hi\\n\"", content, ferr)
				}
				if !strings.Contains(out, "exited with code 0") {
					t.Errorf("function_call_output %q does not report exit code 0", out)
				}
				if len(cmds) != 1 || cmds[0]["status"] != "completed" || num(cmds[0]["exitCode"]) != 0 {
					t.Errorf("commandExecution items %v, want one completed with exit 0", cmds)
				}
			} else {
				if ferr == nil {
					t.Errorf("out.txt exists after decline")
				}
				if len(cmds) != 1 || cmds[0]["status"] != "declined" {
					t.Errorf("commandExecution items %v, want one declined", cmds)
				}
				t.Logf("declined output: %q", out)
			}
		})
	}
}

func TestCodexDynamicTool(t *testing.T) {
	args := `{"question":"Which color?","options":["red","blue"]}`
	call := mockapi.Call("ask_user_question", args)
	srv := mockapi.New(
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Let me ask."), call}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("You chose blue.")}},
	)
	defer srv.Close()
	a := startCodex(t, srv)
	tool := map[string]any{
		"type":        "function",
		"name":        "ask_user_question",
		"description": "Ask the user a multiple-choice question and return the answer.",
		"inputSchema": map[string]any{
			"type": "object",
			"properties": map[string]any{
				"question": map[string]any{"type": "string"},
				"options":  map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			},
			"required":             []string{"question"},
			"additionalProperties": false,
		},
	}
	tid := startThread(t, a, t.TempDir(), "never", "workspace-write", map[string]any{"dynamicTools": []any{tool}})
	startTurn(t, a, tid, "pick a color")
	const reply = "The user picked: blue 🔵"
	var calls []map[string]any
	notes := a.runTurn(patience, func(m rpcMsg) {
		if m.Method != "item/tool/call" {
			t.Errorf("unexpected server request %s %s", m.Method, m.Params)
			a.respond(m.ID, map[string]any{})
			return
		}
		calls = append(calls, obj(t, m.Params))
		a.respond(m.ID, map[string]any{
			"success":      true,
			"contentItems": []any{map[string]any{"type": "inputText", "text": reply}},
		})
	})
	if s := turnStatus(t, notes); s != "completed" {
		t.Fatalf("turn status %q", s)
	}
	if len(calls) != 1 {
		t.Fatalf("got %d item/tool/call requests, want 1", len(calls))
	}
	c := calls[0]
	if c["tool"] != "ask_user_question" || c["callId"] != call.CallID || c["threadId"] != tid {
		t.Errorf("item/tool/call params %v", c)
	}
	if q := path(c, "arguments", "question"); q != "Which color?" {
		t.Errorf("arguments.question = %v (arguments %v)", q, c["arguments"])
	}

	reqs, err := srv.WaitRequests(2, patience)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(reqs[0].ToolNames(), "ask_user_question") {
		t.Errorf("first POST does not offer the dynamic tool: %v", reqs[0].ToolNames())
	}
	out, ok := reqs[1].FunctionCallOutputs()[call.CallID]
	if !ok || !strings.Contains(out, reply) {
		t.Errorf("function_call_output for %s = %q (present %v), want it to contain %q", call.CallID, out, ok, reply)
	}
	msgs := completedItems(t, notes, "agentMessage")
	if len(msgs) != 2 || msgs[1]["text"] != "You chose blue." {
		t.Errorf("agent messages %v", msgs)
	}
}

func TestCodexFailStatus(t *testing.T) {
	srv := mockapi.New(
		mockapi.Response{FailStatus: 500, FailMessage: "mock exploded"},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("recovered")}},
	)
	defer srv.Close()
	a := startCodex(t, srv)
	tid := startThread(t, a, t.TempDir(), "never", "workspace-write", nil)
	start := time.Now()
	startTurn(t, a, tid, "hi")
	notes := a.runTurn(patience, nil)
	t.Logf("failed turn took %v", time.Since(start))
	if s := turnStatus(t, notes); s != "failed" {
		t.Errorf("turn status %q, want failed", s)
	}
	if errs := notesOf(t, notes, "error"); len(errs) == 0 {
		t.Error("no error notification")
	} else {
		t.Logf("error notification: %v", errs[len(errs)-1])
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("mock got %d requests, want 1 (no retries)", n)
	}
	// The thread still works afterwards.
	startTurn(t, a, tid, "again")
	notes = a.runTurn(patience, nil)
	if msgs := completedItems(t, notes, "agentMessage"); len(msgs) != 1 || msgs[0]["text"] != "recovered" {
		t.Errorf("second turn messages %v", msgs)
	}
}

// TestCodexCompactionIsAux checks that a compaction request is answered
// without consuming the script.
func TestCodexCompactionIsAux(t *testing.T) {
	srv := mockapi.New(
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("first")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("second")}},
	)
	defer srv.Close()
	a := startCodex(t, srv)
	tid := startThread(t, a, t.TempDir(), "never", "workspace-write", nil)
	startTurn(t, a, tid, "one")
	a.runTurn(patience, nil)

	a.call("thread/compact/start", map[string]any{"threadId": tid}, patience)
	notes := a.runTurn(patience, nil)
	if items := completedItems(t, notes, "contextCompaction"); len(items) != 1 {
		t.Errorf("compaction turn: %d contextCompaction items, want 1", len(items))
	}
	all := srv.AllRequests()
	if len(all) != 2 || !all[1].Aux || all[1].Kind != mockapi.RequestKindCompaction {
		t.Fatalf("requests after compaction: %+v", all)
	}

	startTurn(t, a, tid, "two")
	notes = a.runTurn(patience, nil)
	if msgs := completedItems(t, notes, "agentMessage"); len(msgs) != 1 || msgs[0]["text"] != "second" {
		t.Errorf("turn after compaction: %v, want \"second\"", msgs)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[1].Index != 1 {
		t.Fatalf("turn requests %d", len(reqs))
	}
	// The compacted history carries the summary instead of the first answer.
	if joined := strings.Join(reqs[1].UserTexts(), "\n"); !strings.Contains(joined, mockapi.DefaultCompactionSummary) {
		t.Errorf("post-compaction request lacks the summary; user texts %q", reqs[1].UserTexts())
	}
}

// TestCodexInterrupt interrupts a slow stream: the turn ends interrupted and
// the mock stops streaming.
func TestCodexInterrupt(t *testing.T) {
	long := strings.Repeat("slow words ", 200)
	srv := mockapi.New(mockapi.Response{
		Items:      []mockapi.Item{mockapi.Text(long)},
		ChunkDelay: 20 * time.Millisecond,
	})
	defer srv.Close()
	a := startCodex(t, srv)
	tid := startThread(t, a, t.TempDir(), "never", "workspace-write", nil)
	res := a.call("turn/start", map[string]any{
		"threadId": tid,
		"input":    []any{map[string]any{"type": "text", "text": "go", "text_elements": []any{}}},
	}, patience)
	turnID, _ := path(obj(t, res), "turn", "id").(string)

	deadline := time.After(patience)
	var notes []rpcMsg
	deltas := 0
	for deltas < 5 {
		m, err := a.next(deadline)
		if err != nil {
			t.Fatalf("waiting for deltas: %v", err)
		}
		notes = append(notes, m)
		if m.Method == "item/agentMessage/delta" {
			deltas++
		}
	}
	start := time.Now()
	a.call("turn/interrupt", map[string]any{"threadId": tid, "turnId": turnID}, patience)
	notes = append(notes, a.runTurn(patience, nil)...)
	t.Logf("interrupt took %v", time.Since(start))
	if s := turnStatus(t, notes); s != "interrupted" {
		t.Errorf("turn status %q, want interrupted", s)
	}
	got := 0
	for _, n := range notes {
		if n.Method == "item/agentMessage/delta" {
			got++
		}
	}
	if total := len(mockapi.Text(long).Chunks); got >= total {
		t.Errorf("got all %d deltas despite the interrupt", got)
	}
}

// TestCodexBigMarkdown streams the benchmark message through codex.
func TestCodexBigMarkdown(t *testing.T) {
	resp := mockapi.BigMarkdown(mockapi.BigMarkdownBytes, mockapi.BigMarkdownDeltas)
	want := resp.Items[0].Text()
	srv := mockapi.New(resp)
	defer srv.Close()
	a := startCodex(t, srv)
	tid := startThread(t, a, t.TempDir(), "never", "workspace-write", nil)
	start := time.Now()
	startTurn(t, a, tid, "write a long report")
	notes := a.runTurn(patience, nil)
	t.Logf("big markdown turn took %v", time.Since(start))
	var b strings.Builder
	n := 0
	for _, m := range notes {
		if m.Method == "item/agentMessage/delta" {
			var p struct{ Delta string }
			if err := json.Unmarshal(m.Params, &p); err != nil {
				t.Fatal(err)
			}
			b.WriteString(p.Delta)
			n++
		}
	}
	if b.String() != want {
		t.Errorf("deltas concatenate to %d bytes, want the %d-byte document", b.Len(), len(want))
	}
	if n != mockapi.BigMarkdownDeltas {
		t.Errorf("got %d deltas, want %d", n, mockapi.BigMarkdownDeltas)
	}
}

// TestCodexWithOverridesOnly: with an empty CODEX_HOME and only the -c
// overrides, codex talks to the mock and streams its answer.
func TestCodexWithOverridesOnly(t *testing.T) {
	srv := mockapi.New(mockapi.Response{Items: []mockapi.Item{mockapi.Text("from the mock")}})
	defer srv.Close()
	a := startCodexConfigured(t, srv, true)
	tid := startThread(t, a, t.TempDir(), "never", "read-only", nil)
	startTurn(t, a, tid, "hi")
	notes := a.runTurn(patience, nil)
	if s := turnStatus(t, notes); s != "completed" {
		t.Fatalf("turn status %q", s)
	}
	if msgs := completedItems(t, notes, "agentMessage"); len(msgs) != 1 || msgs[0]["text"] != "from the mock" {
		t.Errorf("agentMessage items = %v", msgs)
	}
}
