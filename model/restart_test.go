package model

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/turn"
)

const testKey = "sk-proj-abcdefghijklmnopqrstuvwxyz012345"

// The app-server dies mid-turn: the banner shows the exit status and the
// redacted stderr tail, the turn ends, the transcript and the draft stay;
// F5 runs the Restart hook, and the resumed session adds no duplicate
// cells; the kept draft can then be sent on the new driver.
func TestServerDeathMidTurnKeepsWorkAndRestarts(t *testing.T) {
	var restarts atomic.Int32
	f := newFake()
	m := ready(t, f, Options{Restart: func(string) (RestartInfo, error) {
		restarts.Add(1)
		return RestartInfo{ThreadID: "t-first"}, nil
	}})
	typeText(t, m, "first question")
	press(t, m, tea.KeyEnter, 0)
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	m.Update(backend.AgentMessageDeltaEvent{ItemID: "msg-1", Delta: "partial answer"})
	typeText(t, m, "my draft")
	if !m.State().Running {
		t.Fatal("turn not running before the server died")
	}

	m.Update(backend.ServerExitedEvent{Status: "killed by signal 9 (killed)", Stderr: []string{"ERROR auth failed for OPENAI_API_KEY=" + testKey, "", "last words"}})
	if m.State().Running || !m.State().ServerDead {
		t.Fatalf("running=%v dead=%v after ServerExitedEvent", m.State().Running, m.State().ServerDead)
	}
	if got := m.State().Composer; got != "my draft" {
		t.Fatalf("composer = %q; the draft must survive", got)
	}
	v := viewText(m)
	for _, want := range []string{"killed by signal 9", "F5", "/restart", "last words", "OPENAI_API_KEY=[REDACTED]", "partial answer", "first question"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, testKey) {
		t.Errorf("stderr secret shown:\n%s", v)
	}
	cellsBefore := len(m.State().Cells)

	// F5 restarts; the hook's session reports ready (without History, as
	// owner.go sends it), then the restart result arrives.
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyF5})
	if cmd == nil {
		t.Fatal("F5 did nothing while the server is dead")
	}
	msg := cmd()
	if restarts.Load() != 1 {
		t.Fatalf("Restart ran %d times; want 1", restarts.Load())
	}
	f2 := newFake()
	_, rc := m.Update(SessionReadyMsg{Client: f2, Model: "mock-model"})
	settle(t, m, rc)
	m.Update(msg)
	if m.State().ServerDead {
		t.Fatal("still dead after a successful restart")
	}
	v = viewText(m)
	if !strings.Contains(v, "resumed thread t-first") {
		t.Errorf("no restart banner:\n%s", v)
	}
	if n := strings.Count(v, "first question"); n != 1 {
		t.Errorf("%q shown %d times after resume; want once:\n%s", "first question", n, v)
	}
	if got := len(m.State().Cells); got != cellsBefore+1 {
		t.Errorf("cells: %d before, %d after restart; want only the restart banner added", cellsBefore, got)
	}
	if got := m.State().Composer; got != "my draft" {
		t.Fatalf("composer = %q after restart", got)
	}

	// The user resends the draft: it goes to the new session.
	press(t, m, tea.KeyEnter, 0)
	if len(f2.turns) != 1 || f2.turns[0] != "my draft" {
		t.Fatalf("new driver got turns %q; want the draft", f2.turns)
	}
}

// F5 does nothing while the server is alive; /restart runs the hook.
func TestSlashRestart(t *testing.T) {
	var restarts atomic.Int32
	m := ready(t, newFake(), Options{Restart: func(string) (RestartInfo, error) {
		restarts.Add(1)
		return RestartInfo{}, nil
	}})
	if _, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyF5}); cmd != nil {
		cmd()
	}
	if restarts.Load() != 0 {
		t.Fatal("F5 restarted a live server")
	}
	m.Update(backend.ServerExitedEvent{Status: "exited with status 1"})
	typeText(t, m, "/restart")
	_, cmd := enterNow(m)
	deadline := time.After(patience)
	for restarts.Load() == 0 && cmd != nil {
		done := make(chan tea.Msg, 1)
		go func(c tea.Cmd) { done <- c() }(cmd)
		select {
		case msg := <-done:
			cmd = nil
			if b, ok := msg.(tea.BatchMsg); ok {
				for _, c := range b {
					if c != nil {
						if r, ok := c().(turn.Msg); ok {
							m.Update(r)
						}
					}
				}
			} else if r, ok := msg.(turn.Msg); ok {
				m.Update(r)
			}
		case <-deadline:
			t.Fatal("/restart did not return")
		}
	}
	if restarts.Load() != 1 {
		t.Fatalf("/restart ran Restart %d times; want 1", restarts.Load())
	}
}

// A -32001 retry shows "server busy, retrying" until the call is done.
func TestRetryNoticeShowsServerBusy(t *testing.T) {
	m := ready(t, newFake(), Options{})
	m.Update(backend.RetryNotice{Method: "turn/start", Attempt: 1, Tries: 5, Delay: 300 * time.Millisecond})
	if v := viewText(m); !strings.Contains(v, "server busy, retrying") {
		t.Fatalf("no busy notice:\n%s", v)
	}
	m.Update(backend.RetryNotice{Method: "turn/start", Tries: 5, Done: true})
	if v := viewText(m); strings.Contains(v, "server busy") {
		t.Fatalf("busy notice stayed after the retry ended:\n%s", v)
	}
}

// A turn running past TurnTimeout gets one offer to interrupt.
func TestTurnTimeoutOffersInterrupt(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	m := ready(t, newFake(), Options{TurnTimeout: 30 * time.Minute, Now: func() time.Time { return now }})
	typeText(t, m, "long job")
	press(t, m, tea.KeyEnter, 0)
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	now = now.Add(29 * time.Minute)
	m.Update(m.stat.NextTick())
	if v := viewText(m); strings.Contains(v, "interrupt it") {
		t.Fatalf("offered to interrupt before the timeout:\n%s", v)
	}
	now = now.Add(2 * time.Minute)
	m.Update(m.stat.NextTick())
	m.Update(m.stat.NextTick())
	v := viewText(m)
	if n := strings.Count(v, "press esc to interrupt it"); n != 1 {
		t.Fatalf("timeout offer shown %d times; want 1:\n%s", n, v)
	}
	if !strings.Contains(v, "30m0s") {
		t.Errorf("offer does not name the timeout:\n%s", v)
	}
}

// A failed start offers F5 too, and shows the error redacted.
func TestFailedStartOffersRestart(t *testing.T) {
	var restarts atomic.Int32
	m := New(Options{Prompt: "fix the build", Restart: func(string) (RestartInfo, error) { restarts.Add(1); return RestartInfo{}, nil }})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.Update(SessionFailedMsg{Err: errors.New("initialize: token=abc123xyz rejected")})
	v := viewText(m)
	if !strings.Contains(v, "could not start codex app-server") || !strings.Contains(v, "F5") || strings.Contains(v, "abc123xyz") {
		t.Fatalf("failed-start banner wrong:\n%s", v)
	}
	if !strings.Contains(v, "“fix the build” is kept") {
		t.Errorf("the command line's prompt is not mentioned:\n%s", v)
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyF5})
	if cmd == nil {
		t.Fatal("F5 did nothing after a failed start")
	}
	m.Update(cmd())
	if restarts.Load() != 1 {
		t.Fatalf("Restart ran %d times", restarts.Load())
	}
}

// Enter without a server keeps the draft and says why, in the words of
// the server's state: gone (with the way back when there is one). (Still
// starting or being restarted, it queues the message: queue27_test.go.)
func TestEnterWithoutServerSaysWhy(t *testing.T) {
	restart := func(string) (RestartInfo, error) { return RestartInfo{}, nil }
	cases := []struct {
		name  string
		opts  Options
		setup func(m *Model)
		want  string
	}{
		{"failed start", Options{Restart: restart}, func(m *Model) {
			m.Update(SessionFailedMsg{Err: errors.New("ssh: unknown host")})
		}, "not running — F5 or /restart"},
		{"failed start, no restart", Options{}, func(m *Model) {
			m.Update(SessionFailedMsg{Err: errors.New("ssh: unknown host")})
		}, "not running — your message"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := New(tc.opts)
			m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
			tc.setup(m)
			typeText(t, m, "keep me")
			press(t, m, tea.KeyEnter, 0)
			if got := m.State().Composer; got != "keep me" {
				t.Fatalf("composer = %q; the draft must stay", got)
			}
			if !strings.Contains(noticeText(m), tc.want) {
				t.Errorf("notice %q; want it to contain %q", noticeText(m), tc.want)
			}
		})
	}
}

// A server-wide warning (configWarning has no thread id) shows once per
// tandem run, however often a restarted server repeats it; a thread's own
// warnings always show.
func TestServerWarningShownOnce(t *testing.T) {
	m := New(Options{})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	th := "t1"
	for _, ev := range []backend.WarningEvent{
		{Message: "bubblewrap not on PATH"},
		{Message: "bubblewrap not on PATH"},
		{ThreadID: &th, Message: "model metadata missing"},
		{ThreadID: &th, Message: "model metadata missing"},
	} {
		m.Update(ev)
	}
	v := viewText(m)
	if n := strings.Count(v, "bubblewrap not on PATH"); n != 1 {
		t.Errorf("server warning shown %d times:\n%s", n, v)
	}
	if n := strings.Count(v, "model metadata missing"); n != 2 {
		t.Errorf("thread warning shown %d times; want 2:\n%s", n, v)
	}
}
