package e2e

// End-to-end tests of #29's "your prompts" against the real codex
// app-server and the mock provider: Ctrl+R brings back a prompt sent in
// an earlier run, and the prompt keys scroll to an earlier prompt.

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/testkit/mockapi"
	"tandem/model"
	"tandem/sessions"
)

// A prompt sent in one run (its own app-server) comes back with Ctrl+R in
// the next run in the same workspace and CODEX_HOME: Esc leaves the draft
// as it was, Enter puts the prompt in it. A run in another workspace
// finds it too, named by its workspace.
func TestCtrlRBringsBackAnEarlierRunsPrompt(t *testing.T) {
	e := NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("Noted the parser bug.")}})
	stateDir := t.TempDir()
	const prompt = "remember the parser bug with CRLF line ends"

	first := NewTUI(t, model.Options{State: sessions.Open(stateDir), Workspace: e.Dir}, 120, 30)
	first.Connect(t, e, "never", "danger-full-access")
	first.Submit(prompt)
	first.WaitScreen(t, Patience, "the answer", Contains("Noted the parser bug."))
	first.Session.Close()
	if err := first.TM.Quit(); err != nil {
		t.Fatal(err)
	}

	next := NewTUI(t, model.Options{State: sessions.Open(stateDir), Workspace: e.Dir}, 120, 30)
	next.Connect(t, e, "never", "danger-full-access")
	next.WaitScreen(t, Patience, "the composer", Contains("Ask Codex to do anything"))
	next.Type("draft")
	next.Key(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
	for range len("draft") { // the search starts as the draft
		next.Key(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	next.Type("crlf")
	next.WaitScreen(t, Patience, "the earlier prompt in the picker", Contains("Your prompts", prompt))
	next.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
	if got := next.State(t).Composer; got != "draft" {
		t.Fatalf("Esc left %q in the draft, want draft", got)
	}
	next.Key(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
	for range len("draft") {
		next.Key(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	next.Type("parser")
	next.WaitScreen(t, Patience, "the earlier prompt in the picker", Contains(prompt))
	next.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	if got := next.State(t).Composer; got != prompt {
		t.Fatalf("Enter put %q in the draft, want %q", got, prompt)
	}

	// Another workspace: listed after its own (none), named.
	other := t.TempDir()
	elsewhere := NewTUI(t, model.Options{State: sessions.Open(stateDir), Workspace: other}, 120, 30)
	elsewhere.connect(t, Patience, e.Transport(), other, "never", "danger-full-access")
	elsewhere.WaitScreen(t, Patience, "the composer", Contains("Ask Codex to do anything"))
	elsewhere.Key(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
	s := elsewhere.WaitScreen(t, Patience, "the other workspace's prompt", Contains(prompt))
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, prompt) && !strings.Contains(l, e.Dir) {
			t.Fatalf("the prompt's row does not name its workspace %s: %q", e.Dir, l)
		}
	}
}

// Three turns, each answer longer than the screen: Alt+↑ scrolls to the
// last prompt above the screen, again to the one before, Alt+↓ back.
func TestPromptJumpScrollsToAnEarlierPrompt(t *testing.T) {
	answer := func(n string) mockapi.Response {
		var b strings.Builder
		for i := range 30 {
			b.WriteString("Answer " + n + ", paragraph " + string(rune('A'+i)) + ".\n\n")
		}
		return mockapi.Response{Items: []mockapi.Item{mockapi.Text(b.String() + "End of " + n + ".")}}
	}
	e := NewEnv(t, answer("one"), answer("two"), answer("three"))
	u := NewTUI(t, model.Options{}, 100, 24)
	u.Connect(t, e, "never", "danger-full-access")
	for _, q := range []struct{ prompt, n string }{{"first question", "one"}, {"second question", "two"}, {"third question", "three"}} {
		u.Submit(q.prompt)
		u.WaitScreen(t, Patience, "the answer to "+q.prompt, Contains("End of "+q.n+"."))
	}
	top := func() string {
		for _, l := range strings.Split(u.Screen(t), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				return l
			}
		}
		return ""
	}
	for i, s := range []struct {
		key  tea.KeyPressMsg
		want string
	}{
		{tea.KeyPressMsg{Code: tea.KeyUp, Mod: tea.ModAlt}, "third question"},
		{tea.KeyPressMsg{Code: tea.KeyUp, Mod: tea.ModAlt}, "second question"},
		{tea.KeyPressMsg{Code: tea.KeyUp, Mod: tea.ModAlt}, "first question"},
		{tea.KeyPressMsg{Code: tea.KeyDown, Mod: tea.ModAlt}, "second question"},
	} {
		u.Key(s.key)
		if got := top(); !strings.Contains(got, s.want) {
			t.Fatalf("step %d: the top line is %q, want the prompt %q; screen:\n%s", i, got, s.want, u.Screen(t))
		}
	}
}

// A resumed long thread opens on its newest turns: Alt+↑ walks up its
// prompts, and past the first one drawn reads the earlier turns from the
// real server (thread/turns/list), until the thread's first prompt is at
// the top of the screen.
func TestPromptJumpReadsEarlierTurns(t *testing.T) {
	const n = 120
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("the first answer")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("the " + AnswerMark + " of the last turn")}},
	)
	id := growThread(t, e, n)
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 100, 30)
	connectResume(t, u, e, &model.ResumeRequest{ID: id})
	s := u.WaitScreen(t, Patience, "the newest turns", Contains(AnswerMark+"-"+strconv.Itoa(n), "Resumed thread"))
	if strings.Contains(s, "▌ the first question") {
		t.Fatalf("the first question is on screen already:\n%s", s)
	}
	top := func() string {
		for _, l := range strings.Split(u.Screen(t), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				return l
			}
		}
		return ""
	}
	// Each press brings the prompt before the last one to the top (or the
	// marker of the earlier turns being read, at the top of those drawn).
	var seen []int
	deadline := time.Now().Add(Patience)
	for top() != "▌ the first question" {
		if time.Now().After(deadline) {
			t.Fatalf("never reached the first prompt; screen:\n%s", u.Screen(t))
		}
		u.Key(tea.KeyPressMsg{Code: tea.KeyUp, Mod: tea.ModAlt})
		var k int
		if _, err := fmt.Sscanf(top(), "▌ the "+PromptMark+"-%d ", &k); err == nil {
			if len(seen) > 0 && k != seen[len(seen)-1]-1 {
				t.Fatalf("after the prompt %d came %d; screen:\n%s", seen[len(seen)-1], k, u.Screen(t))
			}
			seen = append(seen, k)
		}
	}
	// The way up passed the prompts of the page read at resume and of the
	// pages read on the way, down to the first copy.
	if len(seen) == 0 || seen[len(seen)-1] != 1 || seen[0] < n-40 {
		t.Fatalf("the prompts on the way up: %v", seen)
	}
}
