package model

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
)

// A message refused because the server or thread was not ready says
// "your message stays here" only until that ends (#17: the notice stayed
// for good after a slow resume).
func TestHeldNoticeClearsWhenReady(t *testing.T) {
	tests := []struct {
		name  string
		setup func(m *Model)
		ready func(m *Model)
		want  string
	}{
		{"thread opening, then opened",
			func(m *Model) {
				// A resume asked for: the thread is being opened.
				m.Update(SessionReadyMsg{Client: newFake(), Model: "mock-model", Cwd: "~/w", Resume: &ResumeRequest{ID: "t-old"}})
			},
			func(m *Model) { m.Update(switched(act.ThreadSwitched{How: act.HowResumed})) },
			"opening a thread"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Typed at a person's pace (pacedClock), whatever the load:
			// keys at machine speed would be a paste, its Enter a newline.
			m := New(Options{NoColor: true, Clock: newPacedClock(time.Unix(1_000_000, 0))})
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
			tt.setup(m)
			typeText(t, m, "keep me")
			hitKey(t, m, tea.KeyEnter, 0)
			if !strings.Contains(noticeText(m), tt.want) || !strings.Contains(noticeText(m), "stays here") {
				t.Fatalf("notice %q, want %q … stays here", noticeText(m), tt.want)
			}
			tt.ready(m)
			if strings.Contains(noticeText(m), "stays here") {
				t.Fatalf("notice %q after the condition ended", noticeText(m))
			}
			if m.State().Composer != "keep me" {
				t.Fatalf("draft %q", m.State().Composer)
			}
		})
	}
}

// Resuming a thread says so on the status line at once, and not once it
// is open (#17: a long thread showed nothing for seconds).
func TestResumeSaysLoading(t *testing.T) {
	m := New(Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.Update(SessionReadyMsg{Client: newFake(), Model: "mock-model", Cwd: "~/w", Resume: &ResumeRequest{ID: "019a0000-1111-2222-3333-444455556666"}})
	if v := plain(m); !strings.Contains(v, "loading thread 019a0000…6666") {
		t.Fatalf("no loading notice:\n%s", v)
	}
	m.Update(switched(act.ThreadSwitched{How: act.HowResumed}))
	if v := plain(m); strings.Contains(v, "loading thread") {
		t.Fatalf("the loading notice stayed:\n%s", v)
	}
}

// A notice that says why something was refused while a condition holds
// is cleared when the condition ends (#27: "the turn is starting…" still
// shown at Working 5s; "no sub-agents" after one appeared). Each case
// reaches the condition and the notice, then ends the condition.
func TestConditionNoticesClearWhenTheConditionEnds(t *testing.T) {
	const child = "01a2aaaa-0000-0000-0000-00000000c210"
	turnStarted := func(t *testing.T) tea.Msg {
		return notif(t, "turn/started", `{"threadId":"t-first","turn":{"id":"turn-9","items":[],"status":"inProgress"}}`)
	}
	starting := func(t *testing.T, m *Model) {
		// Another driver's turn runs, its id not known to the session
		// yet: a steer is refused.
		feed(t, m, turnStarted(t))
		typeText(t, m, "early")
		hitKey(t, m, tea.KeyEnter, 0)
	}
	cases := []struct {
		name  string
		setup func(t *testing.T, m *Model)
		end   func(t *testing.T, m *Model)
		want  string
	}{
		{"the turn is starting, until turn/start answers", starting,
			func(t *testing.T, m *Model) { feed(t, m, act.Done{For: act.ToTurn, Msg: act.TurnStarted{Text: "x"}}) },
			"the turn is starting"},
		{"the turn is starting, until turn/started", starting,
			func(t *testing.T, m *Model) { feed(t, m, turnStarted(t)) },
			"the turn is starting"},
		{"the turn is starting, until the turn ends", starting,
			func(t *testing.T, m *Model) {
				feed(t, m, notif(t, "turn/completed", `{"threadId":"t-first","turn":{"id":"turn-9","items":[],"status":"completed"}}`))
			},
			"the turn is starting"},
		{"no sub-agents, until one appears",
			func(t *testing.T, m *Model) { press(t, m, tea.KeyF3, 0) },
			func(t *testing.T, m *Model) {
				feed(t, m, backend.SubAgentEvent{Event: notif(t, "turn/started", `{"threadId":"`+child+`","turn":{"id":"ct1","items":[],"status":"inProgress"}}`)})
			},
			"no sub-agents"},
		{"a request is waiting, until it is withdrawn",
			func(t *testing.T, m *Model) {
				deliver(t, m, decodeReq(t, "item/commandExecution/requestApproval", `"r1"`,
					`{"threadId":"t-first","turnId":"turn-1","itemId":"c9","command":"go test","cwd":"/w"}`, &replies{}))
				press(t, m, tea.KeyF3, 0)
			},
			func(t *testing.T, m *Model) {
				feed(t, m, notif(t, "serverRequest/resolved", `{"threadId":"t-first","requestId":"r1"}`))
			},
			"a request is waiting"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := ready(t, newFake(), Options{NoColor: true})
			tc.setup(t, m)
			if got := noticeText(m); !strings.Contains(got, tc.want) {
				t.Fatalf("notice %q, want %q", got, tc.want)
			}
			tc.end(t, m)
			if got := noticeText(m); strings.Contains(got, tc.want) {
				t.Fatalf("notice %q stays after its condition ended", got)
			}
		})
	}
}

// feed hands each message to the model and runs what it asks.
func feed(t *testing.T, m *Model, msgs ...tea.Msg) {
	t.Helper()
	for _, msg := range msgs {
		_, cmd := m.Update(msg)
		settle(t, m, cmd)
	}
}
