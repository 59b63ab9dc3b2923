package model

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
)

// BenchmarkDeltaToFrameInline is BenchmarkDeltaToFrame with
// --no-alt-screen: every delta also runs the scrollback's pass (nothing
// finishes until the answer does) and View draws the live area, the
// answer's tail. The finished answer is printed once at the end (the
// print itself is not run). Reported per delta.
func BenchmarkDeltaToFrameInline(b *testing.B) {
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
		m := New(Options{NoColor: true, NoAltScreen: true})
		m.panes.SetPrinter(func(string) tea.Cmd { return nil })
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		m.Update(SessionReadyMsg{Client: nopDriver{}, Model: "mock-model"})
		m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
		if ack, ok := m.panes.InFlight(); ok {
			m.Update(ack)
		}
		m.Update(backend.ItemStartedEvent{Item: backend.Item{Type: "agentMessage", ID: "msg-1"}})
		b.StartTimer()
		for i, ev := range evs {
			frame(m, ev)
			if i%64 == 63 {
				frame(m, m.stat.NextTick())
			}
		}
		frame(m, backend.ItemCompletedEvent{Item: backend.Item{Type: "agentMessage", ID: "msg-1", Text: text}})
		n += len(evs)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/delta")
}
