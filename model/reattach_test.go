package model

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/thread"
)

// durableReady is a model on a durable session (the daemon on devbox)
// whose restart hook fails while fails > 0 (counting down), counts its
// runs and keeps the last turn it was given in lastTurn.
func durableReady(t *testing.T, f *fakeDriver, fails *atomic.Int32, runs *atomic.Int32) *Model {
	t.Helper()
	m := New(Options{Restart: func(last string) (RestartInfo, error) {
		lastTurn.Store(last)
		runs.Add(1)
		if fails.Add(-1) >= 0 {
			return RestartInfo{}, errors.New("dial unix /h/control.sock: connection refused")
		}
		return RestartInfo{ThreadID: "t-first"}, nil
	}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, cmd := m.Update(SessionReadyMsg{Client: f, ThreadID: "t-first", Model: "mock-model", Durable: true, Host: "devbox", Peer: "daemon"})
	settle(t, m, cmd)
	return m
}

// lastTurn is what durableReady's restart hook was last given.
var lastTurn atomic.Value

// The link to the daemon drops mid-turn: the turn, the draft and the
// queue stay, the status line says the agent keeps working on the host;
// F5 tries at once, and a failed attempt plans the next, longer one (the
// scheduled attempts and their staleness: model/turn's tests); the
// re-attach merges the thread's history (the answer completes in place,
// what completed while away is added, nothing twice), the turn that
// finished meanwhile ends, and the queued prompt is sent.
func TestReattachStateMachine(t *testing.T) {
	var fails, runs atomic.Int32
	fails.Store(2)
	f := newFake()
	m := durableReady(t, f, &fails, &runs)
	typeText(t, m, "first question")
	press(t, m, tea.KeyEnter, 0)
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	user := backend.ItemCompletedEvent{Item: backend.Item{ID: "u1", Type: "userMessage", Content: []backend.UserContent{{Type: "text", Text: "first question"}}}}
	user.TurnID = "turn-1"
	m.Update(user)
	delta := backend.AgentMessageDeltaEvent{ItemID: "a1", Delta: "alpha one\n\nalpha "}
	delta.TurnID = "turn-1"
	m.Update(delta)
	typeText(t, m, "queued prompt")
	press(t, m, tea.KeyTab, 0)
	typeText(t, m, "my draft")

	_, cmd := m.Update(backend.ServerExitedEvent{Status: "ws daemon: connection lost", Detached: true, Host: "devbox"})
	if cmd == nil {
		t.Fatal("no re-attach scheduled")
	}
	if !m.State().Running || !m.State().Detached || m.State().Composer != "my draft" || len(m.State().Queued) != 1 {
		t.Fatalf("after the drop: running %v detached %v draft %q queued %v; the turn, draft and queue must stay", m.State().Running, m.State().Detached, m.State().Composer, m.State().Queued)
	}
	v := viewText(m)
	for _, want := range []string{"disconnected — the agent keeps working on devbox", "retry in 1s (F5 now)", "lost the link to the codex daemon on devbox"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}

	// F5 tries at once and fails: the next attempt waits longer.
	_, cmd = m.Update(tea.KeyPressMsg{Code: tea.KeyF5})
	if cmd == nil {
		t.Fatal("F5 did nothing while detached")
	}
	m.Update(cmd())
	if runs.Load() != 1 || !strings.Contains(viewText(m), "retry 2 in 2s") {
		t.Fatalf("after one failure: runs %d; view:\n%s", runs.Load(), viewText(m))
	}
	if got := lastTurn.Load(); got != "turn-1" {
		t.Errorf("the re-attach reads back to turn %v, want the transcript's newest, turn-1", got)
	}
	// Again: it fails again, and the next waits longer still.
	_, cmd = m.Update(tea.KeyPressMsg{Code: tea.KeyF5})
	m.Update(cmd())
	if runs.Load() != 2 || !strings.Contains(viewText(m), "retry 3 in 4s") {
		t.Fatalf("after F5's failure: runs %d; view:\n%s", runs.Load(), viewText(m))
	}

	// The third attempt succeeds: the new session's ready message (sent
	// by the hook before it returns) carries the whole thread.
	_, cmd = m.Update(tea.KeyPressMsg{Code: tea.KeyF5})
	done := cmd()
	f2 := newFake()
	history := []backend.Turn{{ID: "turn-1", Status: backend.TurnCompleted, Items: []backend.Item{
		user.Item,
		{ID: "a1", Type: "agentMessage", Text: "alpha one\n\nalpha two"},
		{ID: "a2", Type: "agentMessage", Text: "written while away"},
	}}}
	_, rc := m.Update(SessionReadyMsg{Client: f2, ThreadID: "t-first", Model: "mock-model", Durable: true, Host: "devbox", Reattached: true, History: history})
	settle(t, m, rc)
	_, rc = m.Update(done)
	settle(t, m, rc)
	if m.State().Detached || m.State().ServerDead {
		t.Fatal("still detached after a successful re-attach")
	}
	v = viewText(m)
	for _, want := range []string{"alpha two", "written while away", "re-attached to the codex daemon on devbox", "the turn finished while tandem was away"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	for _, once := range []string{"first question", "alpha one", "written while away"} {
		if n := strings.Count(v, once); n != 1 {
			t.Errorf("%q shown %d times; want once:\n%s", once, n, v)
		}
	}
	if len(f2.turns) != 1 || f2.turns[0] != "queued prompt" {
		t.Errorf("the new session got turns %q; want the queued prompt", f2.turns)
	}
	if m.State().Composer != "my draft" {
		t.Errorf("draft %q after the re-attach", m.State().Composer)
	}
}

// A request shown when the link drops is dropped unanswered (the daemon
// asks again after thread/resume); one that comes after the re-attach is
// shown. A re-attach to a turn still running marks the streaming answer's
// gap and keeps the turn running. Quitting a durable session refuses
// nothing either.
func TestReattachKeepsRequestsUnanswered(t *testing.T) {
	var fails, runs atomic.Int32
	f := newFake()
	m := durableReady(t, f, &fails, &runs)
	press(t, m, tea.KeyEnter, 0)
	typeText(t, m, "run it")
	press(t, m, tea.KeyEnter, 0)
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	delta := backend.AgentMessageDeltaEvent{ItemID: "a1", Delta: "half of it"}
	delta.TurnID = "turn-1"
	m.Update(delta)
	rep := &replies{}
	params := `{"threadId":"t-first","turnId":"turn-1","itemId":"c1","command":"echo hi","cwd":"/w"}`
	req := decodeReq(t, "item/commandExecution/requestApproval", "0", params, rep)
	_, cmd := m.Update(req)
	settle(t, m, cmd)
	if len(m.State().Pending) != 1 {
		t.Fatalf("%d pending before the drop", len(m.State().Pending))
	}
	m.Update(backend.ServerExitedEvent{Status: "connection lost", Detached: true, Host: "devbox"})
	if len(m.State().Pending) != 0 || len(rep.All()) != 0 {
		t.Fatalf("after the drop: pending %d, replies %v; want dropped and unanswered", len(m.State().Pending), rep.All())
	}

	_, cmd = m.Update(tea.KeyPressMsg{Code: tea.KeyF5})
	done := cmd()
	f2 := newFake()
	history := []backend.Turn{{ID: "turn-1", Status: backend.TurnInProgress}}
	_, rc := m.Update(SessionReadyMsg{Client: f2, ThreadID: "t-first", Durable: true, Host: "devbox", Reattached: true, History: history})
	settle(t, m, rc)
	m.Update(done)
	if !m.State().Running {
		t.Error("the turn still running on the daemon is not shown running")
	}
	if v := viewText(m); !strings.Contains(v, "half of it") || !strings.Contains(v, "streamed while disconnected") {
		t.Errorf("the streaming answer lacks its gap mark:\n%s", v)
	}
	if it := m.panes.Thread().Find("turn-1", "a1"); it == nil || !strings.HasSuffix(it.Text(), thread.GapMark) {
		t.Errorf("a1 = %v", it)
	}
	// The daemon asks again.
	rep2 := &replies{}
	_, cmd = m.Update(decodeReq(t, "item/commandExecution/requestApproval", "0", params, rep2))
	settle(t, m, cmd)
	if len(m.State().Pending) != 1 || !strings.Contains(viewText(m), "echo hi") {
		t.Fatalf("the request sent again is not shown:\n%s", viewText(m))
	}
	if !m.State().Durable || len(rep2.All()) != 0 {
		t.Errorf("durable %v, replies %v", m.State().Durable, rep2.All())
	}
}

// /detach and /stop: without the daemon /detach says what it is for;
// /stop interrupts the running turn (once confirmed), then quits.
func TestDetachAndStop(t *testing.T) {
	m := ready(t, newFake(), Options{})
	typeText(t, m, "/detach")
	_, cmd := enterNow(m)
	if cmd != nil {
		if _, ok := cmd().(tea.QuitMsg); ok {
			t.Fatal("/detach quit a session that is not on the daemon")
		}
	}
	if v := viewText(m); !strings.Contains(v, "/detach is for a session on the codex daemon") {
		t.Errorf("no /detach hint:\n%s", v)
	}

	var fails, runs atomic.Int32
	d := durableReady(t, newFake(), &fails, &runs)
	typeText(t, d, "/detach")
	_, cmd = enterNow(d)
	if !quits(cmd) {
		t.Error("/detach did not quit a session on the daemon")
	}

	now := newPacedClock(time.Unix(1000, 0))
	s := ready(t, newFake(), Options{Clock: now})
	typeText(t, s, "go")
	press(t, s, tea.KeyEnter, 0)
	s.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	typeText(t, s, "/stop")
	if _, cmd = enterNow(s); cmd != nil || !strings.Contains(viewText(s), "Enter again to confirm") {
		t.Fatalf("/stop mid-turn did not ask first (cmd %v):\n%s", cmd != nil, viewText(s))
	}
	now.Add(time.Second) // the question read
	_, cmd = enterNow(s)
	msg := cmd()
	if d, ok := msg.(act.Done); !ok || d.Msg != (act.Interrupted{Stop: true}) {
		t.Fatalf("/stop sent %#v; want the interrupt first", msg)
	}
	_, cmd = s.Update(msg)
	if !quits(cmd) || s.State().Running {
		t.Errorf("/stop after the interrupt: quits %v running %v", quits(cmd), s.State().Running)
	}
}

// quits reports whether cmd (or one of a batch) is tea.Quit.
func quits(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	switch msg := cmd().(type) {
	case tea.QuitMsg:
		return true
	case tea.BatchMsg:
		for _, c := range msg {
			if quits(c) {
				return true
			}
		}
	}
	return false
}

// A turn another client of the daemon started (Codex's own TUI on the
// same thread) draws that client's prompt from the thread's items; the
// prompt of this viewer's own turn is drawn once, when sent.
func TestForeignTurnDrawsItsPrompt(t *testing.T) {
	m := ready(t, newFake(), Options{})
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-9"}})
	u := backend.ItemCompletedEvent{Item: backend.Item{ID: "u9", Type: "userMessage", Content: []backend.UserContent{{Type: "text", Text: "from the other client"}}}}
	u.TurnID = "turn-9"
	m.Update(u)
	if v := viewText(m); strings.Count(v, "from the other client") != 1 {
		t.Errorf("another client's prompt is not drawn once:\n%s", v)
	}
	m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-9", Status: backend.TurnCompleted}})

	typeText(t, m, "mine")
	press(t, m, tea.KeyEnter, 0)
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	own := backend.ItemCompletedEvent{Item: backend.Item{ID: "u1", Type: "userMessage", Content: []backend.UserContent{{Type: "text", Text: "mine"}}}}
	own.TurnID = "turn-1"
	m.Update(own)
	if v := viewText(m); strings.Count(v, "▌ mine") != 1 {
		t.Errorf("this viewer's own prompt is not drawn once:\n%s", v)
	}
}

// While the link to the daemon is down a running turn cannot be
// interrupted: Ctrl+C twice quits (the turn goes on there).
func TestCtrlCQuitsWhileDetached(t *testing.T) {
	var fails, runs atomic.Int32
	m := durableReady(t, newFake(), &fails, &runs)
	typeText(t, m, "go")
	press(t, m, tea.KeyEnter, 0)
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	m.Update(backend.ServerExitedEvent{Status: "connection lost", Detached: true, Host: "devbox"})
	m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}) // its command (the quit window's end) is not run
	if m.quitting {
		t.Fatal("one Ctrl+C quit")
	}
	_, second := m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if !quits(second) {
		t.Fatal("Ctrl+C twice did not quit while detached")
	}
	if !m.State().Running {
		t.Error("the turn shows as ended: it goes on on the daemon")
	}
}
