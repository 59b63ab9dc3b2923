package teatest

import (
	"os"
	"strings"
	"testing"
)

// What you see (docs/USAGE.md): a turn that spawns two sub-agents, waits for
// them, calls a slow MCP tool while a server is still starting, runs a
// hook, types into a command waiting for input and gets a kind tandem
// does not know — each is drawn as it happens.
func TestGoldenWhatYouSee(t *testing.T) {
	u := newScreen(t)
	startTurn(t, u, "find the flaky test, in parallel")
	notify(t, u, "mcpServer/startupStatus/updated", map[string]any{"name": "github", "status": "starting"})
	notify(t, u, "hook/completed", map[string]any{"turnId": "turn-1", "run": map[string]any{"id": "h1", "eventName": "userPromptSubmit",
		"handlerType": "command", "executionMode": "sync", "status": "completed", "sourcePath": "hooks.json", "durationMs": 15,
		"entries": []any{map[string]any{"kind": "context", "text": "repo uses go test -race"}}}})
	a, b := "01a23300-0000-7000-8000-00000000a11c", "01a23300-0000-7000-8000-00000000b0b5"
	itemEvent(t, u, "item/completed", map[string]any{"type": "collabAgentToolCall", "id": "s1", "tool": "spawnAgent", "status": "completed",
		"prompt": "run the tests under -race", "senderThreadId": "", "receiverThreadIds": []any{a}, "agentsStates": map[string]any{a: map[string]any{"status": "running"}}})
	itemEvent(t, u, "item/completed", map[string]any{"type": "collabAgentToolCall", "id": "s2", "tool": "spawnAgent", "status": "completed",
		"prompt": "read the CI logs", "senderThreadId": "", "receiverThreadIds": []any{b}, "agentsStates": map[string]any{b: map[string]any{"status": "running"}}})
	itemEvent(t, u, "item/started", map[string]any{"type": "mcpToolCall", "id": "m1", "server": "github", "tool": "search_issues",
		"arguments": map[string]any{"q": "flaky"}, "status": "inProgress"})
	notify(t, u, "item/mcpToolCall/progress", map[string]any{"turnId": "turn-1", "itemId": "m1", "message": "page 2 of 5"})
	itemEvent(t, u, "item/started", map[string]any{"type": "commandExecution", "id": "c1", "command": "git bisect start", "cwd": "/w",
		"status": "inProgress", "commandActions": []any{}})
	notify(t, u, "item/commandExecution/terminalInteraction", map[string]any{"turnId": "turn-1", "itemId": "c1", "processId": "p1", "stdin": "good\n"})
	itemEvent(t, u, "item/completed", map[string]any{"type": "collabAgentToolCall", "id": "w1", "tool": "wait", "status": "completed",
		"senderThreadId": "", "receiverThreadIds": []any{a, b}, "agentsStates": map[string]any{
			a: map[string]any{"status": "completed", "message": "TestRace fails 1 in 20 runs"},
			b: map[string]any{"status": "completed", "message": "CI retried it 3 times last week"}}})
	itemEvent(t, u, "item/completed", map[string]any{"type": "somethingNewer", "id": "x1"})
	golden(t, u, "somethingNewer")
}

// The "What you see" picture of docs/USAGE.md is this golden.
func TestDocsShowWhatYouSee(t *testing.T) {
	readme, err := os.ReadFile("../docs/USAGE.md")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("testdata/TestGoldenWhatYouSee.golden")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, l := range strings.Split(string(golden), "\n") {
		want = append(want, strings.TrimRight(l, " "))
	}
	body := strings.Trim(strings.Join(want, "\n"), "\n")
	_, after, ok := strings.Cut(string(readme), "<!-- what-you-see -->\n```\n")
	got, _, ok2 := strings.Cut(after, "\n```\n<!-- /what-you-see -->")
	if !ok || !ok2 || got != body {
		t.Errorf("docs/USAGE.md's What you see block differs from the golden; paste testdata/TestGoldenWhatYouSee.golden (trailing spaces and blank top lines trimmed)")
	}
}

// The other kinds of the turn: an image generated, a web search with its
// results, sub-agent activity, a wait, a hook prompt, a model reroute, a
// rename from elsewhere and an MCP server that failed.
func TestGoldenMoreKinds(t *testing.T) {
	u := newScreen(t)
	startTurn(t, u, "draw a logo and look things up")
	notify(t, u, "mcpServer/startupStatus/updated", map[string]any{"name": "docs", "status": "failed", "error": "spawn docs-mcp: no such file"})
	itemEvent(t, u, "item/completed", map[string]any{"type": "imageGeneration", "id": "g1", "status": "completed",
		"savedPath": "/w/logo.png", "revisedPrompt": "a flat two-colour tandem bicycle logo"})
	itemEvent(t, u, "item/completed", map[string]any{"type": "webSearch", "id": "w1", "query": "bubbletea v2 release notes",
		"results": []any{map[string]any{"title": "Bubble Tea v2", "url": "https://github.com/charmbracelet/bubbletea/releases"}}})
	itemEvent(t, u, "item/completed", map[string]any{"type": "subAgentActivity", "id": "a1", "agentPath": "/root/designer",
		"agentThreadId": "01a23300-0000-7000-8000-00000000d351", "kind": "completed", "model": "gpt-test"})
	itemEvent(t, u, "item/completed", map[string]any{"type": "sleep", "id": "z1", "durationMs": 5000})
	itemEvent(t, u, "item/completed", map[string]any{"type": "hookPrompt", "id": "hp", "fragments": []any{map[string]any{"hookRunId": "h1", "text": "Use the brand colours."}}})
	notify(t, u, "model/rerouted", map[string]any{"turnId": "turn-1", "fromModel": "gpt-test", "toModel": "gpt-test-mini", "reason": "highRiskCyberActivity"})
	notify(t, u, "thread/name/updated", map[string]any{"threadName": "Logo and notes"})
	golden(t, u, "renamed")
}
