package e2e

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// The thread's search finds an answer in a turn far above the page a
// long thread opens on: Ctrl+F, the query, Enter past the turns drawn;
// the real app-server's thread/searchOccurrences says which turn, the
// pages up to it are read (thread/turns/list) and the answer is on
// screen, marked as the current match.
func TestFindAnswerFarAbove(t *testing.T) {
	const n = 300
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("the first answer")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("the " + AnswerMark + " of the last turn")}},
	)
	id := growThread(t, e, n)
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 100, 30)
	connectResume(t, u, e, &model.ResumeRequest{ID: id})
	u.WaitScreen(t, Patience, "the newest turns", Contains(AnswerMark+"-300", "Resumed thread"))

	u.Key(tea.KeyPressMsg{Code: 'f', Mod: tea.ModCtrl})
	u.WaitScreen(t, Patience, "the search line", Contains("find: "))
	want := AnswerMark + "-7 of"
	u.TM.Type(want)
	u.WaitScreen(t, Patience, "no match among the turns drawn", Contains("find: "+want, "no match"))
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	s := u.WaitScreen(t, Patience, "the answer far above", Contains("the "+want+" the last turn", "1/1"))
	if strings.Contains(s, "▌ the first question") {
		t.Fatalf("read the whole thread to its first turn:\n%s", s)
	}
	// Esc goes back to the bottom, where the search began.
	u.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
	u.WaitScreen(t, Patience, "back at the newest turn", func(s string) bool {
		return strings.Contains(s, AnswerMark+"-300") && !strings.Contains(s, "find: ")
	})
}

// A word only in a command's output far above the loaded page: the real
// app-server's thread/searchOccurrences (messages and answers) knows of
// none, so the earlier pages are read and every item searched, to the
// first turn, where the command's output holds it.
func TestFindCommandOutputFarAbove(t *testing.T) {
	const n = 300
	e := NewEnv(t,
		// The command line does not hold the word; its output does.
		mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand("printf 'zebr%sorn here\\n' ac")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("the first answer")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("the " + AnswerMark + " of the last turn")}},
	)
	id := growThread(t, e, n)
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 100, 30)
	connectResume(t, u, e, &model.ResumeRequest{ID: id})
	u.WaitScreen(t, Patience, "the newest turns", Contains(AnswerMark+"-300", "Resumed thread"))

	u.Key(tea.KeyPressMsg{Code: 'f', Mod: tea.ModCtrl})
	u.WaitScreen(t, Patience, "the search line", Contains("find: "))
	u.TM.Type("zebracorn")
	u.WaitScreen(t, Patience, "no match among the turns drawn", Contains("find: zebracorn", "no match"))
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	s := u.WaitScreen(t, Patience, "the command's output far above", Contains("zebracorn here", "1/1"))
	if !strings.Contains(s, "the first question") {
		t.Fatalf("the match is not in the first turn:\n%s", s)
	}
}
