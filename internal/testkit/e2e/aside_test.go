package e2e

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/testkit/mockapi"
	"tandem/model"
	"tandem/ui"
)

// /side and /recap on the real app-server: each answer (the mock's, to a
// request that carried the thread's history and the question) shows full
// screen; Esc closes it; afterwards `thread/read` of the thread has the
// same turns as before and the transcript has no new cell.
func TestSideAndRecapLeaveTheThread(t *testing.T) {
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("The parser reads tokens.")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Side: **X** is the 24th letter.")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("- You asked about the parser; I explained it.")}},
	)
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 100, 30)
	u.Connect(t, e, "on-request", "workspace-write")
	u.Submit("explain the parser")
	u.WaitScreen(t, Patience, "the answer", func(s string) bool {
		return strings.Contains(s, "The parser reads tokens.") && !strings.Contains(s, "esc to interrupt")
	})
	thread := u.Session.ThreadID()
	ctx := ctxT(t)
	before, err := u.Session.ReadThreadTurns(ctx, thread)
	if err != nil || len(before.Turns) != 1 {
		t.Fatalf("the thread before: %d turns, %v", len(before.Turns), err)
	}
	cells := threadCells(u.State(t).Cells)

	for _, tc := range []struct{ line, shown, asked string }{
		{"/side what is X?", "is the 24th letter.", "what is X?"},
		{"/recap", "You asked about the parser; I explained it.", "Recap this whole conversation"},
	} {
		u.Submit(tc.line)
		u.WaitScreen(t, Patience, tc.line+"'s answer", Contains(tc.shown, "side fork", "q/Esc close"))
		reqs := e.Mock.Requests()
		last := reqs[len(reqs)-1]
		if texts := strings.Join(last.UserTexts(), "|"); !strings.Contains(texts, "explain the parser") || !strings.Contains(texts, tc.asked) ||
			!strings.Contains(strings.Join(last.AssistantTexts(), "|"), "The parser reads tokens.") {
			t.Errorf("%s: the fork's request has %q / %q: want the thread's history and the question", tc.line, texts, last.AssistantTexts())
		}
		u.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
		s := u.WaitScreen(t, Patience, tc.line+"'s page closed", Contains("The parser reads tokens."))
		if strings.Contains(s, tc.shown) {
			t.Errorf("%s: its answer is in the transcript:\n%s", tc.line, s)
		}
		after, err := u.Session.ReadThreadTurns(ctx, thread)
		if err != nil || len(after.Turns) != len(before.Turns) || after.Turns[0].ID != before.Turns[0].ID || len(after.Turns[0].Items) != len(before.Turns[0].Items) {
			t.Errorf("%s: the thread after has %d turns (%v); before %d", tc.line, len(after.Turns), err, len(before.Turns))
		}
		if n := threadCells(u.State(t).Cells); n != cells {
			t.Errorf("%s: the transcript has %d cells, %d before", tc.line, n, cells)
		}
		if u.Session.ThreadID() != thread {
			t.Errorf("%s: the session is on %s, not the thread", tc.line, u.Session.ThreadID())
		}
	}
	// The recap covered the turn: a second one has nothing new to ask.
	u.Submit("/recap")
	u.WaitScreen(t, Patience, "nothing new", Contains("nothing new since you last looked"))
	if n := len(e.Mock.Requests()); n != 3 {
		t.Errorf("the provider got %d requests; want 3 (a turn, /side, /recap)", n)
	}
}

// threadCells counts the transcript's cells but the server's warnings
// (this test's own `thread/read` with turns brings a deprecation notice,
// whenever it comes).
func threadCells(cells []ui.Cell) int {
	n := 0
	for _, c := range cells {
		if b, ok := c.(*ui.BannerCell); ok && b.Kind == ui.BannerWarning {
			continue
		}
		n++
	}
	return n
}
