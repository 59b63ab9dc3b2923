package teatest

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/testkit/e2e"
	"tandem/model"
	"tandem/model/act"
)

func strp(s string) *string { return &s }

// searchScreen is newScreen whose /search finds matches (and records the
// query it was asked).
func searchScreen(t *testing.T, matches []act.ThreadMatch, asked *string) *e2e.TUI {
	t.Helper()
	find := func(_ context.Context, _ backend.Client, q string, all bool) ([]act.ThreadMatch, error) {
		*asked = q
		if all {
			*asked += " (all)"
		}
		return matches, nil
	}
	u := e2e.NewFrozenTUI(t, model.Options{Now: func() time.Time { return epoch }, FormGrace: time.Millisecond, FindThreads: find}, 100, 30)
	u.TM.Send(model.SessionReadyMsg{Client: fakeDriver{}, Model: "gpt-test", Cwd: "~/src/tandem", Approval: "on-request", Sandbox: "workspace-write", Peer: "local"})
	return u
}

// /search QUERY: the matching threads in a picker, the turn and what
// matched after each; the selected one's text around the match, marked,
// under the list.
func TestGoldenSearchPicker(t *testing.T) {
	old := time.Local
	time.Local = time.UTC // the dates in the picker are local
	t.Cleanup(func() { time.Local = old })
	matches := []act.ThreadMatch{
		{Thread: backend.Thread{ID: "01a236d3-327a-7f63-b912-6466f9fada3b", Name: strp("Flaky test hunt"), Cwd: "/srv/app", UpdatedAt: epoch.Add(-time.Hour).Unix()},
			Turn: 3, TurnID: "t3", Kind: "output", Snippet: "--- FAIL: TestLogin zebra42fish expected", Match: [2]int{20, 31}},
		{Thread: backend.Thread{ID: "01a236d3-33d6-7380-bdff-6dcf770f41d1", Preview: "why does zebra42fish show in the log?", Cwd: "/srv/app", UpdatedAt: epoch.Add(-48 * time.Hour).Unix()},
			Snippet: "why does zebra42fish show in the log?", Match: [2]int{9, 20}},
	}
	var asked string
	u := searchScreen(t, matches, &asked)
	u.Submit("/search zebra42fish")
	golden(t, u, "»zebra42fish« expected")
	if asked != "zebra42fish" {
		t.Fatalf("searched for %q", asked)
	}
}

// /search --all with nothing found says so in the picker; no query asks
// for one.
func TestSearchPickerEmptyAndUsage(t *testing.T) {
	var asked string
	u := searchScreen(t, nil, &asked)
	u.Submit("/search --all nothing-like-it")
	u.WaitScreen(t, e2e.Patience, "the empty picker", e2e.Contains(`Threads holding "nothing-like-it" (every workspace)`, "no thread holds it"))
	if asked != "nothing-like-it (all)" {
		t.Fatalf("searched for %q", asked)
	}
	u.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
	u.Submit("/search")
	u.WaitScreen(t, e2e.Patience, "the usage", e2e.Contains("usage: /search [--all] QUERY"))
}
