package model

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
)

// backgroundModel is a ready 120×40 model in a running turn that was
// never drawn: a lane of the command center not on screen, which only
// folds (Update), never View.
func backgroundModel() *Model {
	m := New(Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(SessionReadyMsg{Client: nopDriver{}, Model: "mock-model", ThreadID: "t-bg"})
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	m.Update(backend.ItemStartedEvent{Item: backend.Item{Type: "agentMessage", ID: "msg-1"}})
	return m
}

// BenchmarkBackgroundDelta folds mockapi.BigMarkdown (100 KB in 8,500
// deltas) into a model whose View is never called, with its State read
// after each (what the command center does), and a frame tick every 64
// deltas while its ticks still come. Reported per delta.
func BenchmarkBackgroundDelta(b *testing.B) {
	text := mockapi.BigMarkdownText(mockapi.BigMarkdownBytes)
	deltas := mockapi.SplitBytes(text, 8500)
	evs := make([]backend.AgentMessageDeltaEvent, len(deltas))
	for i, d := range deltas {
		evs[i] = backend.AgentMessageDeltaEvent{ItemID: "msg-1", Delta: d}
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		b.StopTimer()
		m := backgroundModel()
		b.StartTimer()
		for i, ev := range evs {
			m.Update(ev)
			_ = m.State().Summary
			if i%64 == 63 && m.stat.Ticking() {
				m.Update(m.stat.NextTick())
			}
		}
		n += len(evs)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/delta")
}
