package model

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
)

// The thread at a glance (State().Summary), as the command center reads
// it after every message: each field, each phase, driven by the
// backend's events as the server sends them.
func TestStateSummary(t *testing.T) {
	const child = "01a2aaaa-0000-0000-0000-00000000c210"
	const th = `"threadId":"t-first","turnId":"turn-1"`
	const cth = `"threadId":"` + child + `","turnId":"ct1"`
	started := `{"threadId":"t-first","turn":{"id":"turn-1","items":[],"status":"inProgress"}}`
	completed := func(status, errMsg string) string {
		e := "null"
		if errMsg != "" {
			e = `{"message":"` + errMsg + `"}`
		}
		return `{"threadId":"t-first","turn":{"id":"turn-1","items":[],"status":"` + status + `","error":` + e + `}}`
	}
	answer := func(id, text string) string {
		return `{` + th + `,"item":{"type":"agentMessage","id":"` + id + `","text":` + strconvQuote(text) + `}}`
	}
	change := func(id string, paths ...string) string {
		var cs []string
		for _, p := range paths {
			cs = append(cs, `{"path":"`+p+`","kind":{"type":"update"},"diff":"@@ -1 +1 @@\n-a\n+b\n"}`)
		}
		return `{` + th + `,"item":{"type":"fileChange","id":"` + id + `","status":"completed","changes":[` + strings.Join(cs, ",") + `]}}`
	}
	sub := func(t *testing.T, method, params string) backend.SubAgentEvent {
		return backend.SubAgentEvent{Event: notif(t, method, params)}
	}
	spawn := func(t *testing.T) []tea.Msg {
		return []tea.Msg{
			notif(t, "turn/started", started),
			sub(t, "thread/started", `{"thread":{"id":"`+child+`","preview":"","cwd":"/w","createdAt":1,"updatedAt":1,"turns":[],"parentThreadId":"t-first","agentNickname":"Dewey","agentRole":"explorer"}}`),
			sub(t, "turn/started", `{"threadId":"`+child+`","turn":{"id":"ct1","items":[],"status":"inProgress"}}`),
		}
	}
	approval := func(t *testing.T, thread string) tea.Msg {
		return decodeReq(t, "item/commandExecution/requestApproval", `"r1"`,
			`{"threadId":"`+thread+`","turnId":"ct1","itemId":"c9","startedAtMs":1,"environmentId":null,"command":"go test ./...","cwd":"/w"}`, &replies{})
	}
	readyMsg := SessionReadyMsg{Client: newFake(), ThreadID: "t-first", ThreadName: "fix the parser", Created: 1_700_000_000, Model: "m", Cwd: "~/w", ThreadCwd: "/w"}
	cases := []struct {
		name    string
		noReady bool
		msgs    func(t *testing.T) []tea.Msg
		check   func(t *testing.T, s Summary)
	}{
		{"starting before the session", true, nil, func(t *testing.T, s Summary) {
			if s.Phase != PhaseStarting || s.ThreadID != "" {
				t.Errorf("phase %v, thread %q: want starting, none", s.Phase, s.ThreadID)
			}
		}},
		{"the thread/start response names it", false, nil, func(t *testing.T, s Summary) {
			if s.Phase != PhaseIdle || s.ThreadID != "t-first" || s.Name != "fix the parser" || s.Cwd != "/w" || !s.Created.Equal(time.Unix(1_700_000_000, 0)) {
				t.Errorf("got %+v", s)
			}
			if s.Turns != 0 || s.LastLine != "" || s.Tokens != 0 || s.Changed != nil || s.Agents != nil {
				t.Errorf("a new thread has news: %+v", s)
			}
		}},
		{"running", false, func(t *testing.T) []tea.Msg { return []tea.Msg{notif(t, "turn/started", started)} }, func(t *testing.T, s Summary) {
			if s.Phase != PhaseRunning {
				t.Errorf("phase %v, want running", s.Phase)
			}
		}},
		{"idle after turn/completed, its answer's last line", false, func(t *testing.T) []tea.Msg {
			return []tea.Msg{
				notif(t, "turn/started", started),
				notif(t, "item/completed", answer("a1", "First I looked.\n\n- **Fixed** the `parser`.\x1b[31m\n\n  \n")),
				notif(t, "turn/completed", completed("completed", "")),
			}
		}, func(t *testing.T, s Summary) {
			if s.Phase != PhaseIdle || s.Turns != 1 || s.Failure != "" {
				t.Errorf("phase %v, %d turns, failure %q: want idle, 1, none", s.Phase, s.Turns, s.Failure)
			}
			if want := "- **Fixed** the `parser`.␛[31m"; s.LastLine != want {
				t.Errorf("last line %q, want %q", s.LastLine, want)
			}
		}},
		{"a streaming answer's newest line", false, func(t *testing.T) []tea.Msg {
			d := func(s string) tea.Msg {
				return notif(t, "item/agentMessage/delta", `{`+th+`,"itemId":"a1","delta":`+strconvQuote(s)+`}`)
			}
			return []tea.Msg{notif(t, "turn/started", started), d("One.\n"), d("Two, and"), d(" more")}
		}, func(t *testing.T, s Summary) {
			if s.LastLine != "Two, and more" {
				t.Errorf("last line %q", s.LastLine)
			}
		}},
		{"a command is the newest line", false, func(t *testing.T) []tea.Msg {
			return []tea.Msg{
				notif(t, "turn/started", started),
				notif(t, "item/completed", answer("a1", "Let me run the tests.")),
				notif(t, "item/started", `{`+th+`,"item":{"type":"commandExecution","id":"c1","command":"go test ./...\ngo vet ./...","cwd":"/w","status":"inProgress","commandActions":[]}}`),
			}
		}, func(t *testing.T, s Summary) {
			if s.LastLine != "$ go test ./... …" {
				t.Errorf("last line %q", s.LastLine)
			}
		}},
		{"tokens", false, func(t *testing.T) []tea.Msg {
			return []tea.Msg{backend.TokenUsageEvent{TokenUsage: backend.ThreadTokenUsage{Total: backend.TokenUsageBreakdown{TotalTokens: 12_345}}}}
		}, func(t *testing.T, s Summary) {
			if s.Tokens != 12_345 {
				t.Errorf("tokens %d", s.Tokens)
			}
		}},
		{"changed paths, sorted, once each, a sub-agent's too", false, func(t *testing.T) []tea.Msg {
			return append(spawn(t),
				notif(t, "item/completed", change("f1", "/w/b.go", "/w/a.go")),
				notif(t, "item/completed", change("f2", "/w/b.go")),
				sub(t, "item/completed", `{`+cth+`,"item":{"type":"fileChange","id":"fc","status":"completed","changes":[{"path":"/w/c.go","kind":{"type":"add"},"diff":"x\n"}]}}`),
			)
		}, func(t *testing.T, s Summary) {
			if want := []string{"/w/a.go", "/w/b.go", "/w/c.go"}; !slices.Equal(s.Changed, want) {
				t.Errorf("changed %q, want %q", s.Changed, want)
			}
		}},
		{"waiting for a sub-agent's approval", false, func(t *testing.T) []tea.Msg {
			return append(spawn(t), approval(t, child))
		}, func(t *testing.T, s Summary) {
			if s.Phase != PhaseWaiting {
				t.Errorf("phase %v, want waiting", s.Phase)
			}
			if len(s.Agents) != 1 || s.Agents[0] != (AgentSummary{ThreadID: child, Name: "Dewey", Phase: PhaseWaiting}) {
				t.Errorf("agents %+v", s.Agents)
			}
		}},
		{"a sub-agent that finished", false, func(t *testing.T) []tea.Msg {
			return append(spawn(t), sub(t, "turn/completed", `{"threadId":"`+child+`","turn":{"id":"ct1","items":[],"status":"failed"}}`))
		}, func(t *testing.T, s Summary) {
			if s.Phase != PhaseRunning || len(s.Agents) != 1 || s.Agents[0].Phase != PhaseFailed {
				t.Errorf("phase %v, agents %+v: want running, the sub-agent failed", s.Phase, s.Agents)
			}
			if s.Turns != 0 {
				t.Errorf("a sub-agent's turn counted as the thread's: %d", s.Turns)
			}
		}},
		{"waiting for the thread's own approval", false, func(t *testing.T) []tea.Msg {
			return []tea.Msg{notif(t, "turn/started", started), approval(t, "t-first")}
		}, func(t *testing.T, s Summary) {
			if s.Phase != PhaseWaiting {
				t.Errorf("phase %v, want waiting", s.Phase)
			}
		}},
		{"a failed turn", false, func(t *testing.T) []tea.Msg {
			return []tea.Msg{notif(t, "turn/started", started), notif(t, "turn/completed", completed("failed", "quota exceeded"))}
		}, func(t *testing.T, s Summary) {
			if s.Phase != PhaseFailed || !strings.Contains(s.Failure, "quota exceeded") || s.Turns != 1 {
				t.Errorf("phase %v, failure %q, %d turns", s.Phase, s.Failure, s.Turns)
			}
		}},
		{"a failed turn, then another runs", false, func(t *testing.T) []tea.Msg {
			return []tea.Msg{notif(t, "turn/started", started), notif(t, "turn/completed", completed("failed", "quota exceeded")),
				notif(t, "turn/started", `{"threadId":"t-first","turn":{"id":"turn-2","items":[],"status":"inProgress"}}`)}
		}, func(t *testing.T, s Summary) {
			if s.Phase != PhaseRunning || s.Failure != "" {
				t.Errorf("phase %v, failure %q: want running, none", s.Phase, s.Failure)
			}
		}},
		{"the server exited", false, func(t *testing.T) []tea.Msg {
			return append(spawn(t), approval(t, child), backend.ServerExitedEvent{Status: "exited with status 1"})
		}, func(t *testing.T, s Summary) {
			if s.Phase != PhaseFailed || !strings.Contains(s.Failure, "codex app-server exited with status 1") {
				t.Errorf("phase %v, failure %q", s.Phase, s.Failure)
			}
		}},
		{"a rename", false, func(t *testing.T) []tea.Msg {
			return []tea.Msg{notif(t, "thread/name/updated", `{"threadId":"t-first","threadName":"Flaky test hunt"}`)}
		}, func(t *testing.T, s Summary) {
			if s.Name != "Flaky test hunt" {
				t.Errorf("name %q", s.Name)
			}
		}},
		{"another thread opened", false, func(t *testing.T) []tea.Msg {
			name := "other work"
			return []tea.Msg{
				notif(t, "turn/started", started),
				notif(t, "item/completed", change("f1", "/w/a.go")),
				notif(t, "turn/completed", completed("failed", "boom")),
				switched(act.ThreadSwitched{How: act.HowResumed, Response: backend.ThreadResponse{Cwd: "/x", Thread: backend.Thread{ID: "t-2", Name: &name, CreatedAt: 1_600_000_000,
					Turns: []backend.Turn{{ID: "o1", Status: backend.TurnCompleted, Items: []backend.Item{{Type: "agentMessage", ID: "oa", Text: "Old answer."}}}}}}}),
			}
		}, func(t *testing.T, s Summary) {
			if s.ThreadID != "t-2" || s.Name != "other work" || s.Cwd != "/x" || !s.Created.Equal(time.Unix(1_600_000_000, 0)) {
				t.Errorf("got %+v", s)
			}
			if s.Phase != PhaseIdle || s.Changed != nil || s.Turns != 1 || s.LastLine != "Old answer." {
				t.Errorf("the old thread's news stayed: %+v", s)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := New(Options{NoColor: true})
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
			if !c.noReady {
				m.Update(readyMsg)
			}
			if c.msgs != nil {
				for _, msg := range c.msgs(t) {
					m.Update(msg)
				}
			}
			c.check(t, m.State().Summary)
		})
	}
}

// A resumed thread's history counts: its ended turns, its newest line,
// its changes; a re-attach's history merged again counts each turn once.
func TestStateSummaryHistory(t *testing.T) {
	var hist []backend.Turn
	for i := range 3 {
		hist = append(hist, backend.Turn{ID: fmt.Sprint("h", i), Status: backend.TurnCompleted, Items: []backend.Item{
			{Type: "agentMessage", ID: fmt.Sprint("a", i), Text: fmt.Sprintf("Answer %d.", i)},
		}})
	}
	m := New(Options{NoColor: true})
	m.Update(SessionReadyMsg{Client: newFake(), ThreadID: "t-first", History: hist})
	if s := m.State().Summary; s.Turns != 3 || s.LastLine != "Answer 2." || s.Phase != PhaseIdle {
		t.Fatalf("turns %d, last line %q, phase %v", s.Turns, s.LastLine, s.Phase)
	}
	m.Update(SessionReadyMsg{Client: newFake(), ThreadID: "t-first", Reattached: true, Durable: true,
		History: append(hist, backend.Turn{ID: "h3", Status: backend.TurnCompleted, Items: []backend.Item{{Type: "agentMessage", ID: "a3", Text: "Meanwhile."}}})})
	if s := m.State().Summary; s.Turns != 4 || s.LastLine != "Meanwhile." {
		t.Fatalf("after the re-attach: turns %d, last line %q", s.Turns, s.LastLine)
	}
}

// A Summary read once stays as it was: the model's later changes make new
// slices.
func TestStateSummarySnapshot(t *testing.T) {
	m := New(Options{NoColor: true})
	m.Update(SessionReadyMsg{Client: newFake(), ThreadID: "t-first"})
	fc := func(id, path string) backend.Event {
		return notif(t, "item/completed", `{"threadId":"t-first","turnId":"turn-1","item":{"type":"fileChange","id":"`+id+`","status":"completed","changes":[{"path":"`+path+`","kind":{"type":"update"},"diff":"x\n"}]}}`)
	}
	m.Update(fc("f1", "/w/b"))
	m.Update(fc("f2", "/w/c"))
	m.Update(fc("f3", "/w/d")) // room left in the slice's array
	before := m.State().Summary.Changed
	m.Update(fc("f4", "/w/a"))
	if !slices.Equal(before, []string{"/w/b", "/w/c", "/w/d"}) {
		t.Fatalf("a summary read before changed: %q", before)
	}
	if got := m.State().Summary.Changed; !slices.Equal(got, []string{"/w/a", "/w/b", "/w/c", "/w/d"}) {
		t.Fatalf("changed %q", got)
	}
}
