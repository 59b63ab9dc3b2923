package e2e

import (
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// A resumed long thread opens on its newest turns (thread/resume with
// excludeTurns and an initial page, so codex warns of no full-history
// hydration), and paging up to the top reads the earlier turns from the
// real server (thread/turns/list) until the first question is on screen.
func TestResumeLongThreadReadsOlderTurns(t *testing.T) {
	const n = 150
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("the first answer")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("the " + AnswerMark + " of the last turn")}},
	)
	id := growThread(t, e, n)
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 100, 30)
	connectResume(t, u, e, &model.ResumeRequest{ID: id})
	newest := AnswerMark + "-" + strconv.Itoa(n)
	s := u.WaitScreen(t, Patience, "the newest turns", Contains(newest, "Resumed thread"))
	if strings.Contains(s, "▌ the first question") || strings.Contains(strings.ToLower(s), "hydration") {
		t.Fatalf("resume drew the whole history, or codex warned about it:\n%s", s)
	}
	deadline := time.Now().Add(Patience)
	for {
		s = u.Screen(t)
		if strings.Contains(s, "▌ the first question") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("never reached the first turn; screen:\n%s", s)
		}
		u.Key(tea.KeyPressMsg{Code: tea.KeyPgUp})
		time.Sleep(5 * time.Millisecond)
	}
	if strings.Contains(s, "earlier turns") {
		t.Fatalf("the marker is still there at the first turn:\n%s", s)
	}
	// The top of the thread, in order: the first turn, the turn that was
	// copied, its first copies.
	at := -1
	for _, want := range []string{"▌ the first question", "the first answer", "the " + PromptMark + " of the last turn", "the " + AnswerMark + " of the last turn", PromptMark + "-1 ", AnswerMark + "-1 ", PromptMark + "-2 "} {
		i := strings.Index(s, want)
		if i <= at {
			t.Fatalf("%q is not after what came before it (at %d):\n%s", want, i, s)
		}
		at = i
	}
}
