package transcript

import (
	"testing"
	"time"

	"tandem/model/keys"
)

// BenchmarkPagerOpen2MB is the first Ctrl+T after a 2 MB answer: the
// reported first-frame-ms is the Update that opens the pager plus its
// View (what blocks input), max-step-ms the longest fill step after it,
// fill-ms the time until the pager is full.
func BenchmarkPagerOpen2MB(b *testing.B) {
	var first, maxStep, fill time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		p := bigAnswerPanes(b, 2<<20)
		b.StartTimer()
		t0 := time.Now()
		cmd := p.OpenPager(PagerTail{})
		_ = p.PagerView(keys.Default())
		first += time.Since(t0)
		for cmd != nil {
			msg := cmd()
			s := time.Now()
			cmd = p.Update(msg.(Msg), PrintFacts{})
			_ = p.PagerView(keys.Default())
			maxStep = max(maxStep, time.Since(s))
		}
		fill += time.Since(t0)
		n++
		if p.pager == nil || !p.pager.filled {
			b.Fatal("the pager did not fill")
		}
	}
	b.ReportMetric(float64(first.Milliseconds())/float64(n), "first-frame-ms")
	b.ReportMetric(float64(maxStep.Microseconds())/1000, "max-step-ms")
	b.ReportMetric(float64(fill.Milliseconds())/float64(n), "fill-ms")
}
