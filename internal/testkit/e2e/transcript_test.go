package e2e

// End-to-end tests of issue #4 against the real codex app-server and the
// mock provider: the transcript's item kinds as the server really sends
// them.

import (
	"strings"
	"testing"

	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// TestTranscriptItemsFromRealServer runs a turn with a reasoning summary, a
// command with 100 lines of output and an answer, and checks each is drawn
// as its cell: the reasoning collapsed to its heading, the command's
// output cut to head and tail with "+N lines", the answer as Markdown, and
// the context left in the status line.
func TestTranscriptItemsFromRealServer(t *testing.T) {
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{
			mockapi.Reasoning("**Counting lines**\n\nI will print a hundred numbers."),
			mockapi.ExecCommand("seq 1 100"),
		}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Printed **100** lines.")}, Usage: mockapi.Usage{InputTokens: 20000, OutputTokens: 30}},
	)
	u := NewTUI(t, model.Options{}, 200, 30) // wide: the status line holds a long temp cwd
	u.Connect(t, e, "never", "danger-full-access")
	u.Submit("count to 100")
	s := u.WaitScreen(t, Patience, "the finished turn", Contains("Printed 100 lines.", "context left"))
	for _, want := range []string{
		"Thinking: Counting lines",                         // reasoning, collapsed
		"seq 1 100",                                        // the command
		"│ 1\n", "│ 2\n", "… +95 lines", "│ 99\n", "│ 100", // head and tail
		"20k tokens · 90% context left", // 20k of the mock model's 200k window
	} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q on screen:\n%s", want, s)
		}
	}
	if strings.Contains(s, "│ 50\n") || strings.Contains(s, "**100**") {
		t.Errorf("middle of the output or raw Markdown on screen:\n%s", s)
	}
}

// TestPlanChecklistFromRealServer: the model calls update_plan (enabled by
// the mock's config), the real server sends turn/plan/updated, and the plan
// is drawn as a checklist with each step's state.
func TestPlanChecklistFromRealServer(t *testing.T) {
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Call("update_plan",
			`{"explanation":"Three steps.","plan":[{"step":"Read greet.sh","status":"completed"},`+
				`{"step":"Make it a pirate","status":"in_progress"},{"step":"Run it","status":"pending"}]}`)}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Plan made.")}},
	)
	u := NewTUI(t, model.Options{}, 120, 30)
	u.Connect(t, e, "never", "danger-full-access")
	u.Submit("plan it")
	s := u.WaitScreen(t, Patience, "the plan and the answer", Contains("Plan made."))
	for _, want := range []string{"☰ Plan 1/3 done", "Three steps.", "✔ Read greet.sh", "◐ Make it a pirate", "○ Run it"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q on screen:\n%s", want, s)
		}
	}
}
