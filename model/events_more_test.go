package model

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

func notif(t *testing.T, method, params string) backend.Event {
	t.Helper()
	ev, err := backend.DecodeNotification(method, json.RawMessage(params))
	if err != nil || ev == nil {
		t.Fatalf("%s: %v %v", method, ev, err)
	}
	return ev
}

// Nothing the agent does is invisible: hooks, MCP start-up, reroutes,
// renames, terminal input, sub-agents and kinds tandem does not know.
func TestEveryKindIsShown(t *testing.T) {
	f := newFake()
	m := ready(t, f, Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 60})
	send := func(evs ...backend.Event) {
		for _, ev := range evs {
			_, cmd := m.Update(ev)
			settle(t, m, cmd)
		}
	}
	const th = `"threadId":"t-first","turnId":"turn-1"`
	send(
		notif(t, "mcpServer/startupStatus/updated", `{"name":"github","status":"starting"}`),
		notif(t, "mcpServer/startupStatus/updated", `{"name":"docs","status":"starting"}`),
	)
	if v := viewText(m); !strings.Contains(v, "MCP 2 starting") {
		t.Errorf("status line lacks the MCP start-up:\n%s", v)
	}
	send(
		notif(t, "mcpServer/startupStatus/updated", `{"name":"github","status":"ready"}`),
		notif(t, "mcpServer/startupStatus/updated", `{"name":"docs","status":"failed","error":"spawn docs-mcp: not found"}`),
		notif(t, "mcpServer/startupStatus/updated", `{"name":"docs","status":"failed","error":"spawn docs-mcp: not found"}`),
		notif(t, "turn/started", `{"threadId":"t-first","turn":{"id":"turn-1","items":[],"status":"inProgress"}}`),
		notif(t, "hook/started", `{`+th+`,"run":{"id":"h1","eventName":"preToolUse","handlerType":"command","executionMode":"sync","status":"running","sourcePath":"hooks.json","entries":[]}}`),
		notif(t, "hook/completed", `{`+th+`,"run":{"id":"h1","eventName":"preToolUse","handlerType":"command","executionMode":"sync","status":"completed","sourcePath":"hooks.json","durationMs":40,"entries":[{"kind":"feedback","text":"lint passed"}]}}`),
		notif(t, "item/started", `{`+th+`,"item":{"type":"commandExecution","id":"c1","command":"ssh-keygen","cwd":"/w","status":"inProgress","commandActions":[]}}`),
		notif(t, "item/commandExecution/terminalInteraction", `{`+th+`,"itemId":"c1","processId":"p1","stdin":"y\n"}`),
		notif(t, "item/started", `{`+th+`,"item":{"type":"mcpToolCall","id":"m1","server":"github","tool":"search","arguments":{},"status":"inProgress"}}`),
		notif(t, "item/mcpToolCall/progress", `{`+th+`,"itemId":"m1","message":"page 2 of 5"}`),
		notif(t, "item/completed", `{`+th+`,"item":{"type":"collabAgentToolCall","id":"a1","tool":"spawnAgent","status":"completed","prompt":"check the flaky test","senderThreadId":"t-first","receiverThreadIds":["01a2aaaa-0000-0000-0000-00000000c210"],"agentsStates":{"01a2aaaa-0000-0000-0000-00000000c210":{"status":"running"}}}}`),
		notif(t, "item/completed", `{`+th+`,"item":{"type":"brandNewKind","id":"x1"}}`),
		notif(t, "model/rerouted", `{`+th+`,"fromModel":"gpt-x","toModel":"gpt-y","reason":"highRiskCyberActivity"}`),
		notif(t, "thread/name/updated", `{"threadId":"t-first","threadName":"Flaky test hunt"}`),
		notif(t, "thread/somethingNew", `{}`),
		notif(t, "thread/somethingNew", `{}`),
	)
	v := viewText(m)
	for _, want := range []string{
		"MCP server docs failed to start: spawn docs-mcp: not found",
		"MCP docs failed",
		"· hook preToolUse (command hooks.json): completed in 40ms",
		"│ feedback: lint passed",
		"waiting for terminal input · sent \"y\\n\"",
		"⋯ page 2 of 5",
		"Spawned sub-agent 01a2…c210",
		"prompt: check the flaky test",
		"· item of a kind tandem does not show: brandNewKind",
		"gpt-x is not answering this turn: gpt-y answers instead (flagged as high-risk cyber activity)",
		"· thread renamed “Flaky test hunt”",
		"· codex sent thread/somethingNew, which tandem does not show yet (noted once)",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("screen lacks %q", want)
		}
	}
	for _, once := range []string{"MCP server docs failed to start", "codex sent thread/somethingNew"} {
		if n := strings.Count(v, once); n != 1 {
			t.Errorf("%q shown %d times; want once", once, n)
		}
	}
	if t.Failed() {
		t.Logf("screen:\n%s", v)
	}
}

// A codex outside the tested range gets one warning line, never a refusal.
func TestUntestedCodexWarnsOnce(t *testing.T) {
	f := &newerCodex{newFake()}
	m := New(Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 30})
	for range 2 { // a restart says it once
		_, cmd := m.Update(SessionReadyMsg{Client: f, Model: "mock-model", Cwd: "~/w"})
		settle(t, m, cmd)
	}
	v := viewText(m)
	if n := strings.Count(v, "codex 0.180.0 is newer than tandem is tested with (0.169.0–0.171.0)"); n != 1 {
		t.Errorf("warning shown %d times:\n%s", n, v)
	}
	if !m.turn.Ready() {
		t.Error("an untested codex was refused")
	}
}

type newerCodex struct{ *fakeDriver }

func (newerCodex) UserAgent() string { return "codex_cli_rs/0.180.0 (Linux; x86_64)" }

// /mcp login NAME shows the URL to open; the completion says how it went.
func TestMcpLogin(t *testing.T) {
	f := newFake()
	f.results["mcpServer/oauth/login"] = map[string]any{"authorizationUrl": "https://auth.example.com/authorize?x=1"}
	m := ready(t, f, Options{NoColor: true})
	typeText(t, m, "/mcp login github")
	press(t, m, tea.KeyEnter, 0)
	if v := viewText(m); !strings.Contains(v, "Sign in to MCP server github: open this URL") || !strings.Contains(v, "https://auth.example.com/authorize?x=1") || f.params["mcpServer/oauth/login"] != "github" {
		t.Fatalf("no sign-in URL:\n%s", v)
	}
	_, cmd := m.Update(notif(t, "mcpServer/oauthLogin/completed", `{"name":"github","success":false,"error":"access denied"}`))
	settle(t, m, cmd)
	if v := viewText(m); !strings.Contains(v, "MCP server github: sign-in failed: access denied") {
		t.Errorf("no failure:\n%s", v)
	}
	typeText(t, m, "/mcp logout x")
	press(t, m, tea.KeyEnter, 0)
	if v := viewText(m); !strings.Contains(v, "usage: /mcp, or /mcp login NAME") {
		t.Errorf("no usage hint:\n%s", v)
	}
}
