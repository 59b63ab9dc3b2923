package thread

import (
	"strings"
	"testing"

	"tandem/backend"
)

// TestMergeAfterReattach: the state before the drop held the user's
// message and half of an answer; the drop marks the gap of both answers
// streaming; the history of the re-attach completes the first (its mark
// goes) and brings a command and a second answer that completed while
// away. Nothing is added twice; the answer still streaming keeps its
// mark until it completes.
func TestMergeAfterReattach(t *testing.T) {
	var s State
	s.Reset("th")
	user := backend.Item{ID: "u1", Type: "userMessage", Content: []backend.UserContent{{Type: "text", Text: "hi"}}}
	s.Apply(completed("t1", user))
	s.Apply(agentDelta("th", "t1", "a1", "line one\n\nline "))
	s.Apply(agentDelta("th", "t2", "a3", "still "))

	// The link drops: the answer of t1 and the one of t2 were streaming.
	if marked := s.MarkGaps(); len(marked) != 2 {
		t.Fatalf("marked %d items at the drop; want a1 and a3", len(marked))
	}
	history := []backend.Turn{{ID: "t1", Status: backend.TurnCompleted, Items: []backend.Item{
		user,
		{ID: "a1", Type: "agentMessage", Text: "line one\n\nline two"},
		{ID: "c1", Type: "commandExecution", Command: "ls"},
		{ID: "a2", Type: "agentMessage", Text: "done"},
	}}, {ID: "t2", Status: backend.TurnInProgress}}
	added, changed := s.Merge(history)
	var got []string
	for _, it := range added {
		got = append(got, it.Key.Item)
	}
	if strings.Join(got, ",") != "c1,a2" {
		t.Errorf("added %v; want c1,a2 (what completed while away, in order)", got)
	}
	if len(changed) != 2 {
		t.Errorf("changed %d items; want the user message and a1", len(changed))
	}
	if a1 := s.Find("t1", "a1"); a1.Text() != "line one\n\nline two" || !a1.Done {
		t.Errorf("a1 = %q done %v; want the whole answer", a1.Text(), a1.Done)
	}
	if n := len(s.Items()); n != 5 {
		t.Errorf("%d items; want 5", n)
	}
	// Merging the same history again adds nothing.
	if added, _ := s.Merge(history); len(added) != 0 {
		t.Errorf("a second merge added %d items", len(added))
	}

	if a3 := s.Find("t2", "a3"); !strings.HasSuffix(a3.Text(), GapMark) {
		t.Fatalf("a3 = %q; want the gap mark after what streamed", a3.Text())
	}
	// The rest streams after the mark; the completed item replaces it all.
	s.Apply(agentDelta("th", "t2", "a3", "going"))
	s.Apply(completed("t2", agent("a3", "still going")))
	if a3 := s.Find("t2", "a3"); a3.Text() != "still going" {
		t.Errorf("a3 = %q; want the completed text without the mark", a3.Text())
	}
}

// TestEndGaps: a message whose turn ended while disconnected without
// completing it (the daemon restarted) loses its open gap mark for the
// end mark and is done; completed ones are left alone.
func TestEndGaps(t *testing.T) {
	var s State
	s.Reset("th")
	s.Apply(agentDelta("th", "t1", "a1", "one"))
	s.Apply(agentDelta("th", "t1", "a2", "two"))
	s.Apply(completed("t1", agent("a2", "two whole")))
	s.MarkGaps()
	ended := s.EndGaps()
	if len(ended) != 1 || ended[0].Key.Item != "a1" || ended[0].Text() != "one"+GapEnd || !ended[0].Done {
		t.Fatalf("ended %v", ended)
	}
	if a2 := s.Find("t1", "a2"); a2.Text() != "two whole" {
		t.Errorf("a2 = %q", a2.Text())
	}
	if again := s.EndGaps(); len(again) != 0 {
		t.Errorf("a second EndGaps changed %d items", len(again))
	}
}

// EndOpen ends the commands, file changes and tool calls still open —
// of one turn, or of every turn — and leaves what completed, what the
// server gave a status, and messages alone.
func TestEndOpen(t *testing.T) {
	var s State
	s.Reset("th")
	s.Apply(started("t1", backend.Item{ID: "c1", Type: "commandExecution", Command: "make", Status: "inProgress"}))
	s.Apply(started("t1", backend.Item{ID: "f1", Type: "fileChange", Status: "inProgress"}))
	s.Apply(started("t1", backend.Item{ID: "m1", Type: "mcpToolCall", Server: "docs", Tool: "search", Status: "inProgress"}))
	s.Apply(completed("t1", backend.Item{ID: "c2", Type: "commandExecution", Command: "ls", Status: "completed"}))
	s.Apply(agentDelta("th", "t1", "a1", "half"))
	s.Apply(started("t2", backend.Item{ID: "c3", Type: "commandExecution", Command: "sleep 9", Status: "inProgress"}))

	ended := func(items []*Item) string {
		var ids []string
		for _, it := range items {
			ids = append(ids, it.Key.Item+"="+it.Status)
		}
		return strings.Join(ids, ",")
	}
	if got := ended(s.EndOpen("t2", StatusInterrupted)); got != "c3=interrupted" {
		t.Errorf("t2's: %s", got)
	}
	if got := ended(s.EndOpen("", StatusUnknown)); got != "c1=unknown,f1=unknown,m1=unknown" {
		t.Errorf("every turn's: %s", got)
	}
	if got := ended(s.EndOpen("", StatusUnknown)); got != "" {
		t.Errorf("ended twice: %s", got)
	}
	if it := s.Find("t1", "a1"); it.Done {
		t.Error("a message was ended")
	}
}
