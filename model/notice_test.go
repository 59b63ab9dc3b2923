package model

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

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
		{"server not ready, then ready",
			func(m *Model) {},
			func(m *Model) { m.Update(SessionReadyMsg{Client: newFake(), Model: "mock-model", Cwd: "~/w"}) },
			"not ready yet"},
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
