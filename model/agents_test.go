package model

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/overlay"
)

// A sub-agent's events fold into its own transcript: /agents (F3) lists
// it by nickname, Enter shows it with a header, Esc comes back to the
// thread, which kept its own events meanwhile; its approvals say who asks.
func TestSubAgentsListOpenAndBack(t *testing.T) {
	f := newFake()
	m := ready(t, f, Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 110, Height: 40})
	send := func(evs ...any) {
		for _, ev := range evs {
			_, cmd := m.Update(ev)
			settle(t, m, cmd)
		}
	}
	const child = "01a2aaaa-0000-0000-0000-00000000c210"
	sub := func(method, params string) backend.SubAgentEvent {
		return backend.SubAgentEvent{Event: notif(t, method, params)}
	}
	const cth = `"threadId":"` + child + `","turnId":"ct1"`
	const pth = `"threadId":"t-first","turnId":"turn-1"`
	send(
		notif(t, "turn/started", `{"threadId":"t-first","turn":{"id":"turn-1","items":[],"status":"inProgress"}}`),
		notif(t, "item/completed", `{`+pth+`,"item":{"type":"collabAgentToolCall","id":"sp","tool":"spawnAgent","status":"completed","prompt":"check the tests","senderThreadId":"t-first","receiverThreadIds":["`+child+`"],"agentsStates":{}}}`),
		sub("thread/started", `{"thread":{"id":"`+child+`","preview":"","cwd":"/w","createdAt":1,"updatedAt":1,"turns":[],"parentThreadId":"t-first","agentNickname":"Dewey","agentRole":"explorer"}}`),
		sub("turn/started", `{"threadId":"`+child+`","turn":{"id":"ct1","items":[],"status":"inProgress"}}`),
		sub("item/completed", `{`+cth+`,"item":{"type":"agentMessage","id":"cm","text":"The flaky test is TestRace."}}`),
	)
	if v := viewText(m); strings.Contains(v, "TestRace") {
		t.Fatalf("the sub-agent's answer shows in the thread:\n%s", v)
	}
	press(t, m, tea.KeyF3, 0)
	v := viewText(m)
	if !strings.Contains(v, "Sub-agents") || !strings.Contains(v, "Dewey") || !strings.Contains(v, "explorer · running · The flaky test is TestRace.") {
		t.Fatalf("no sub-agent list:\n%s", v)
	}
	press(t, m, tea.KeyEnter, 0)
	v = viewText(m)
	if !strings.Contains(v, "The flaky test is TestRace.") || !strings.Contains(v, "sub-agent Dewey (running) · esc back to the thread") || strings.Contains(v, "Spawned sub-agent") {
		t.Fatalf("the sub-agent is not shown on its own:\n%s", v)
	}
	// Meanwhile the thread goes on; the sub-agent finishes.
	send(
		notif(t, "item/completed", `{`+pth+`,"item":{"type":"agentMessage","id":"pm","text":"A sub-agent is on it."}}`),
		sub("turn/completed", `{"threadId":"`+child+`","turn":{"id":"ct1","items":[],"status":"completed"}}`),
	)
	if v := viewText(m); strings.Contains(v, "A sub-agent is on it.") || !strings.Contains(v, "sub-agent Dewey (done)") {
		t.Fatalf("the thread's answer drawn over the sub-agent, or no done:\n%s", v)
	}
	typeText(t, m, "hello")
	press(t, m, tea.KeyEnter, 0)
	if len(f.turns) != 0 || m.composer.Value() != "hello" {
		t.Errorf("sent %q from a sub-agent's view; composer %q", f.turns, m.composer.Value())
	}
	m.composer.SetDraft("")
	press(t, m, tea.KeyEscape, 0)
	v = viewText(m)
	if !strings.Contains(v, "A sub-agent is on it.") || !strings.Contains(v, "Spawned sub-agent") || strings.Contains(v, "esc back to the thread") {
		t.Fatalf("back on the thread, it lacks what came meanwhile:\n%s", v)
	}
	// A sub-agent's approval names it.
	rep := &replies{}
	req := decodeReq(t, "item/commandExecution/requestApproval", `"r1"`,
		`{"threadId":"`+child+`","turnId":"ct1","itemId":"c9","startedAtMs":1,"environmentId":null,"command":"go test ./...","cwd":"/w"}`, rep)
	send(req)
	if v := viewText(m); !strings.Contains(v, "Sub-agent Dewey asks: Run this command?") {
		t.Fatalf("the approval does not say which agent asks:\n%s", v)
	}
}

// While a sub-agent is shown, thread commands wait (typed or from the
// popup), Esc Esc does not rewind with its messages; F3 does not open
// over a waiting request (its keys are the form's).
func TestSubAgentViewGuards(t *testing.T) {
	f := newFake()
	m := ready(t, f, Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 110, Height: 40})
	const child = "01a2aaaa-0000-0000-0000-00000000c210"
	for _, ev := range []any{
		backend.SubAgentEvent{Event: notif(t, "turn/started", `{"threadId":"`+child+`","turn":{"id":"ct1","items":[],"status":"inProgress"}}`)},
		backend.SubAgentEvent{Event: notif(t, "item/completed", `{"threadId":"`+child+`","turnId":"ct1","item":{"type":"userMessage","id":"u","content":[{"type":"text","text":"child prompt"}]}}`)},
	} {
		_, cmd := m.Update(ev)
		settle(t, m, cmd)
	}
	press(t, m, tea.KeyF3, 0)
	press(t, m, tea.KeyEnter, 0)
	if !strings.Contains(viewText(m), "sub-agent ") {
		t.Fatalf("the sub-agent did not open:\n%s", viewText(m))
	}
	typeText(t, m, "/new")
	press(t, m, tea.KeyEnter, 0) // through the popup
	if strings.Contains(strings.Join(f.called(), ","), "thread/start") || !strings.Contains(viewText(m), "a sub-agent is shown — esc back to the thread for /new") {
		t.Fatalf("/new ran from a sub-agent's view: %v\n%s", f.called(), viewText(m))
	}
	m.composer.SetDraft("")
	press(t, m, tea.KeyEscape, tea.ModAlt) // Esc Esc in one read: back, not rewind
	if v := viewText(m); strings.Contains(v, "sub-agent ") || m.overlay.Open() {
		t.Fatalf("alt+esc in a sub-agent's view: picker %v\n%s", m.overlay.Open(), v)
	}
	rep := &replies{}
	deliver(t, m, decodeReq(t, "item/commandExecution/requestApproval", `"r1"`,
		`{"threadId":"`+child+`","turnId":"ct1","itemId":"c9","startedAtMs":1,"environmentId":null,"command":"go test","cwd":"/w"}`, rep))
	press(t, m, tea.KeyF3, 0)
	if m.overlay.Open() || !strings.Contains(viewText(m), "a request is waiting — answer it first") {
		t.Errorf("F3 opened the list over a waiting request:\n%s", viewText(m))
	}
}

// A sub-agent's file-change approval shows the diff from the sub-agent's
// own thread (the item is not in the session's), and a yes answers.
func TestSubAgentFileApprovalShowsItsOwnDiff(t *testing.T) {
	f := newFake()
	m := ready(t, f, Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 110, Height: 40})
	const child = "01a2aaaa-0000-0000-0000-00000000c210"
	for _, ev := range []any{
		backend.SubAgentEvent{Event: notif(t, "thread/started", `{"thread":{"id":"`+child+`","preview":"","cwd":"/w","createdAt":1,"updatedAt":1,"turns":[],"parentThreadId":"t-first","agentNickname":"Dewey","agentRole":"worker"}}`)},
		backend.SubAgentEvent{Event: notif(t, "turn/started", `{"threadId":"`+child+`","turn":{"id":"ct1","items":[],"status":"inProgress"}}`)},
		backend.SubAgentEvent{Event: notif(t, "item/started", `{"threadId":"`+child+`","turnId":"ct1","item":{"type":"fileChange","id":"fc","status":"inProgress",`+
			`"changes":[{"path":"/w/notes.txt","kind":{"type":"add"},"diff":"the child's change\n"}]}}`)},
	} {
		_, cmd := m.Update(ev)
		settle(t, m, cmd)
	}
	rep := &replies{}
	deliver(t, m, decodeReq(t, "item/fileChange/requestApproval", `"r2"`, `{"threadId":"`+child+`","turnId":"ct1","itemId":"fc"}`, rep))
	v := viewText(m)
	if !strings.Contains(v, "Sub-agent Dewey asks: Apply these changes?") || !strings.Contains(v, "+the child's change") || !strings.Contains(v, "Yes, apply them") {
		t.Fatalf("the sub-agent's diff is not shown, or it can't be approved:\n%s", v)
	}
	m.Update(overlay.FocusMsg{}) // the form's grace is over
	hitKey(t, m, tea.KeyEnter, 0)
	if got := rep.All(); len(got) != 1 || !strings.Contains(got[0], `"accept"`) {
		t.Fatalf("replies %q; want accept", got)
	}
}
