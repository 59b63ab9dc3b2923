package e2e

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// subAgentScript: the thread spawns a sub-agent ("look at the tests"),
// which answers "The flaky test is TestRace."; the thread answers "A
// sub-agent is on it." Each request gets its own response (When): the
// sub-agent's request races the thread's.
func subAgentScript() []mockapi.Response {
	isChild := func(r mockapi.Request) bool {
		return strings.Contains(strings.Join(r.UserTexts(), " "), "look at the tests")
	}
	return []mockapi.Response{
		{When: func(r mockapi.Request) bool { return !isChild(r) && len(r.FunctionCallOutputs()) == 0 },
			Items: []mockapi.Item{mockapi.NamespacedCall("multi_agent_v1", "spawn_agent", `{"message":"look at the tests"}`)}},
		{When: isChild, Items: []mockapi.Item{mockapi.Text("The flaky test is TestRace.")}},
		{When: func(r mockapi.Request) bool { return !isChild(r) }, Items: []mockapi.Item{mockapi.Text("A sub-agent is on it.")}},
	}
}

// A turn that spawns a sub-agent (codex's multi_agent_v1 tools, on by
// default): the spawn shows as a cell in the thread, the sub-agent's own
// turn streams into its own transcript, F3 opens it by nickname and Esc
// comes back to the thread's answer.
func TestSubAgentOnRealServer(t *testing.T) {
	e := NewEnv(t, subAgentScript()...)
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 120, 40)
	u.Connect(t, e, "never", "workspace-write")
	u.Submit("find the flaky test")
	u.WaitScreen(t, Patience, "the spawn and the answer", func(s string) bool {
		return strings.Contains(s, "Spawned sub-agent") && strings.Contains(s, "prompt: look at the tests") &&
			strings.Contains(s, "A sub-agent is on it.") && !strings.Contains(s, "TestRace")
	})
	// The sub-agent's turn ran on its own thread: it is listed, done.
	var s string
	for deadline := time.Now().Add(Patience); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		u.Key(tea.KeyPressMsg{Code: tea.KeyF3})
		s = u.Screen(t)
		if strings.Contains(s, "Sub-agents") && strings.Contains(s, "done · The flaky test is TestRace.") {
			break
		}
		// Esc closes the list, to open it afresh; only when it is open:
		// before the spawn is known F3 only says so, and Esc would go to
		// the composer (twice: the rewind picker).
		if strings.Contains(s, "enter to open · esc to close") {
			u.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
		}
	}
	if !strings.Contains(s, "done · The flaky test is TestRace.") {
		t.Fatalf("no finished sub-agent in the list:\n%s", s)
	}
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	u.WaitScreen(t, Patience, "the sub-agent's transcript", func(s string) bool {
		return strings.Contains(s, "The flaky test is TestRace.") && strings.Contains(s, "esc back to the thread") &&
			strings.Contains(s, "look at the tests") && !strings.Contains(s, "A sub-agent is on it.")
	})
	u.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
	s = u.WaitScreen(t, Patience, "the thread again", func(s string) bool {
		return strings.Contains(s, "A sub-agent is on it.") && !strings.Contains(s, "esc back to the thread")
	})
	// The spawn cell names the sub-agent by its nickname now.
	name := strings.Fields(strings.SplitN(strings.SplitN(s, "Spawned sub-agent ", 2)[1], "\n", 2)[0])[0]
	if strings.Contains(name, "…") {
		t.Errorf("the spawn cell still names the sub-agent by its id (%q):\n%s", name, s)
	}
}

// Resumed later, the thread still lists its sub-agent (thread/list by
// ancestor), finished; opening it reads its history.
func TestEarlierSubAgentAfterResume(t *testing.T) {
	e := NewEnv(t, subAgentScript()...)
	first := NewTUI(t, model.Options{Workspace: e.Dir}, 120, 40)
	first.Connect(t, e, "never", "workspace-write")
	first.Submit("find the flaky test")
	first.WaitScreen(t, Patience, "the answer", Contains("A sub-agent is on it."))
	id := first.Session.ThreadID()
	time.Sleep(time.Second) // the sub-agent's turn ends and is saved
	first.Session.Close()   // its app-server holds the thread
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 120, 40)
	connectResume(t, u, e, &model.ResumeRequest{ID: id})
	u.WaitScreen(t, Patience, "the resumed thread", Contains("Resumed thread", "A sub-agent is on it."))
	var s string
	for deadline := time.Now().Add(Patience); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		u.Key(tea.KeyPressMsg{Code: tea.KeyF3})
		if s = u.Screen(t); strings.Contains(s, "earlier") {
			break
		}
	}
	if !strings.Contains(s, "Sub-agents") || !strings.Contains(s, "earlier") {
		t.Fatalf("no earlier sub-agent listed:\n%s", s)
	}
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	u.WaitScreen(t, Patience, "its history", Contains("look at the tests", "The flaky test is TestRace.", "esc back to the thread"))
}
