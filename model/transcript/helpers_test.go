package transcript

import (
	"fmt"
	"testing"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
	"tandem/model/act"
	"tandem/ui"
)

// testPanes are the panes of a host at w×h, drawn in the dark palette;
// their asks go to out.
func testPanes(tb testing.TB, w, h int) (*Panes, *act.Out) {
	tb.Helper()
	out := &act.Out{}
	env := act.Env{Out: out, Clock: act.RealClock{}, Role: act.NewRole(false, false, false)}
	p := New(env, Look{Styles: ui.NewStyles(true), Markdown: ui.NewMarkdown("dark")}, Options{NoColor: true})
	p.Resize(w, h)
	return p, out
}

// bigAnswerPanes hold one finished answer of mockapi.BigMarkdownText(size),
// drawn once on screen (the last screens styled).
func bigAnswerPanes(tb testing.TB, size int) *Panes {
	tb.Helper()
	p, _ := testPanes(tb, 120, 40)
	p.Fold(backend.ItemCompletedEvent{Item: backend.Item{Type: "agentMessage", ID: "big", Text: mockapi.BigMarkdownText(size)}}, FoldFacts{})
	p.Window(37)
	return p
}

// historyPanes hold a thread of turns finished turns, each a question and
// a short Markdown answer, drawn once.
func historyPanes(tb testing.TB, turns int) *Panes {
	tb.Helper()
	p, _ := testPanes(tb, 120, 40)
	var hist []backend.Turn
	for i := 0; i < turns; i++ {
		hist = append(hist, backend.Turn{ID: fmt.Sprint(i), Status: backend.TurnCompleted, Items: []backend.Item{
			{Type: "userMessage", ID: fmt.Sprintf("u%d", i), Content: []backend.UserContent{{Type: "text", Text: fmt.Sprintf("question %d", i)}}},
			{Type: "agentMessage", ID: fmt.Sprintf("a%d", i), Text: fmt.Sprintf("Answer **%d**.\n\n- one\n- two\n\nA closing paragraph with `code` in it.", i)},
		}})
	}
	p.LoadHistory(hist, true)
	p.Window(37)
	return p
}
