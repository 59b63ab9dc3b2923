package teatest

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"tandem/backend"
	"tandem/model"
)

// marks shows the search's marks of a raw frame as text: ⟦current⟧
// and ⟨other⟩ matches, every other escape dropped.
var (
	markCur   = regexp.MustCompile("\x1b\\[7;4m([^\x1b]*)\x1b\\[27;24m")
	markOther = regexp.MustCompile("\x1b\\[7m([^\x1b]*)\x1b\\[27;24m")
)

func showMarks(frame string) string {
	frame = markCur.ReplaceAllString(frame, "⟦$1⟧")
	frame = markOther.ReplaceAllString(frame, "⟨$1⟩")
	return ansi.Strip(frame)
}

// The search line over a thread: the query typed, every match on screen
// marked, the current one apart (in the reasoning summary, collapsed
// until the search stepped into it), the count, the keys.
func TestGoldenFindLine(t *testing.T) {
	m := model.New(model.Options{Now: func() time.Time { return epoch }})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.Update(model.SessionReadyMsg{Client: fakeDriver{}, Model: "gpt-test", Cwd: "~/src/tandem", Approval: "on-request", Sandbox: "workspace-write", Peer: "local"})
	items := []map[string]any{
		{"type": "userMessage", "id": "u1", "content": []any{map[string]any{"type": "text", "text": "why does the flaky test fail?"}}},
		{"type": "reasoning", "id": "r1", "summary": []any{"**Reading the test**\n\nThe test waits on a timer; a flaky timer makes a flaky test."}},
		{"type": "commandExecution", "id": "c1", "command": "go test ./model -run Flaky", "status": "completed", "exitCode": 1, "aggregatedOutput": "--- FAIL: TestFlaky (0.01s)\n    flaky_test.go:12: timeout\nFAIL"},
		{"type": "agentMessage", "id": "a1", "text": "The **flaky** test races its timer: 検索 works in CJK too 🚀.\n\nMake the clock a fake one and the flaky test passes."},
	}
	for _, it := range items {
		ev, err := backend.DecodeNotification("item/completed", mustJSON(map[string]any{"threadId": "", "turnId": "turn-1", "item": it}))
		if err != nil {
			t.Fatal(err)
		}
		m.Update(ev)
	}
	m.Update(tea.KeyPressMsg{Code: 'f', Mod: tea.ModCtrl})
	for _, r := range "flaky" {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	for range 5 { // five older: into the reasoning, drawn whole now
		m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	}
	frame := showMarks(m.View().Content)
	if !strings.Contains(frame, "⟦") || !strings.Contains(frame, "find: flaky") {
		t.Fatalf("no current match or no search line:\n%s", frame)
	}
	teatest.RequireEqualOutput(t, []byte(frame))
}
