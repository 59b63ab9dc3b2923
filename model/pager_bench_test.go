package model

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
)

// bigAnswerModel is a ready model whose thread holds one finished answer
// of mockapi.BigMarkdownText(size), drawn once on screen as the live
// view draws it (the last screens styled).
func bigAnswerModel(tb testing.TB, size int) *Model {
	m := benchModel(tb)
	m.Update(backend.ItemCompletedEvent{Item: backend.Item{Type: "agentMessage", ID: "big", Text: mockapi.BigMarkdownText(size)}})
	m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
	_ = m.View().Content
	return m
}

// BenchmarkPagerOpen2MB is the first Ctrl+T after a 2 MB answer: the
// reported first-frame-ms is the Update that opens the pager plus its
// View (what blocks input), max-step-ms the longest fill step after it,
// fill-ms the time until the pager is full.
func BenchmarkPagerOpen2MB(b *testing.B) {
	var first, maxStep, fill time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		m := bigAnswerModel(b, 2<<20)
		b.StartTimer()
		t0 := time.Now()
		_, cmd := m.Update(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
		_ = m.View().Content
		first += time.Since(t0)
		for cmd != nil {
			msg := cmd()
			s := time.Now()
			_, cmd = m.Update(msg)
			_ = m.View().Content
			maxStep = max(maxStep, time.Since(s))
		}
		fill += time.Since(t0)
		n++
		if m.pager == nil || !m.pager.filled {
			b.Fatal("the pager did not fill")
		}
	}
	b.ReportMetric(float64(first.Milliseconds())/float64(n), "first-frame-ms")
	b.ReportMetric(float64(maxStep.Microseconds())/1000, "max-step-ms")
	b.ReportMetric(float64(fill.Milliseconds())/float64(n), "fill-ms")
}
