package model

import (
	"fmt"
	"strings"
	"testing"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
)

// reasoningText is a reasoning summary of parts, each under a **bold**
// heading, as codex streams them.
func reasoningText(parts int) string {
	var b strings.Builder
	for i := range parts {
		fmt.Fprintf(&b, "**Looking at part %d**\n\nI read the files of part %d and weigh what changes: the tests, the docs, the callers.\n\n", i, i)
	}
	return b.String()
}

// BenchmarkReasoningDeltaToFrame streams a reasoning summary (40 parts in
// 2,000 deltas) into the model, one Update+View per delta and a frame tick
// every 64 deltas, as BenchmarkDeltaToFrame does for an answer. Reported
// per delta.
func BenchmarkReasoningDeltaToFrame(b *testing.B) {
	deltas := mockapi.SplitBytes(reasoningText(40), 2000)
	evs := make([]backend.ReasoningSummaryDeltaEvent, len(deltas))
	for i, d := range deltas {
		evs[i] = backend.ReasoningSummaryDeltaEvent{ItemID: "rs-1", Delta: d}
		evs[i].TurnID = "turn-1"
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		b.StopTimer()
		m := benchModel(b)
		m.Update(backend.ItemStartedEvent{Item: backend.Item{Type: "reasoning", ID: "rs-1"}})
		b.StartTimer()
		for i, ev := range evs {
			frame(m, ev)
			if i%64 == 63 {
				frame(m, m.stat.NextTick())
			}
		}
		n += len(evs)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/delta")
}

// BenchmarkSubAgentDeltaToFrame streams a sub-agent's answer (20 KB in
// 2,000 deltas) while the thread's own pane is shown, one Update+View per
// delta and a frame tick every 64 deltas. Reported per delta.
func BenchmarkSubAgentDeltaToFrame(b *testing.B) {
	const child = "01a2aaaa-0000-0000-0000-00000000c210"
	text := mockapi.BigMarkdownText(20_000)
	deltas := mockapi.SplitBytes(text, 2000)
	evs := make([]backend.SubAgentEvent, len(deltas))
	for i, d := range deltas {
		ev := backend.AgentMessageDeltaEvent{ItemID: "msg-c", Delta: d}
		ev.ThreadID, ev.TurnID = child, "ct1"
		evs[i] = backend.SubAgentEvent{Event: ev}
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		b.StopTimer()
		m := benchModel(b)
		// The thread's own answer is on screen.
		m.Update(backend.ItemCompletedEvent{Item: backend.Item{Type: "agentMessage", ID: "msg-1", Text: mockapi.BigMarkdownText(4000)}})
		m.View()
		b.StartTimer()
		for i, ev := range evs {
			frame(m, ev)
			if i%64 == 63 {
				frame(m, m.stat.NextTick())
			}
		}
		n += len(evs)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/delta")
}
