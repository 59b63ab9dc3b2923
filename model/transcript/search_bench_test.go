package transcript

import (
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/model/keys"
)

// BenchmarkFindKeystroke2MB is one keystroke of the search line over a
// 2 MB answer: the key (counting, placing the match, scrolling to it)
// and the frame drawn after it (Window, with the marks). Each round
// types one character and erases it, the query alternating between
// "step 99" and "step 999"; p50-key-ms is the median keystroke,
// max-key-ms the slowest.
func BenchmarkFindKeystroke2MB(b *testing.B) {
	p := bigAnswerPanes(b, 2<<20)
	km := keys.Default()
	f := FindFacts{Height: 37}
	p.OpenFind(36)
	for _, r := range "step 99" {
		p.FindKey(tea.KeyPressMsg{Code: r, Text: string(r)}, km, f)
	}
	p.Window(37)
	var took []time.Duration
	keysTyped := []tea.KeyPressMsg{{Code: '9', Text: "9"}, {Code: tea.KeyBackspace}}
	i := 0
	for b.Loop() {
		t0 := time.Now()
		p.FindKey(keysTyped[i%2], km, f)
		p.Window(37)
		took = append(took, time.Since(t0))
		i++
	}
	if p.find.total == 0 {
		b.Fatal("no match in the answer")
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-key-ms")
	b.ReportMetric(float64(took[len(took)-1].Microseconds())/1000, "max-key-ms")
}

// BenchmarkFindFirstMatch20000Turns is the search of a 20,000-turn
// thread drawn whole: from the search line opened to the first match
// on screen, the query typed a key at a time ("question 12345", the
// frame drawn after each key). first-match-ms is the time to the
// frame that shows the match (first-match-cpu-ms the process's CPU
// time for it, the garbage collector's included: steadier on a busy
// machine); max-key-ms the slowest keystroke.
func BenchmarkFindFirstMatch20000Turns(b *testing.B) {
	p := historyPanes(b, 20000)
	km := keys.Default()
	f := FindFacts{Height: 37}
	var total, worst, cpu time.Duration
	n := 0
	for b.Loop() {
		c0 := cpuTime()
		t0 := time.Now()
		p.OpenFind(36)
		for _, r := range "question 12345" {
			k := time.Now()
			p.FindKey(tea.KeyPressMsg{Code: r, Text: string(r)}, km, f)
			p.Window(37)
			worst = max(worst, time.Since(k))
		}
		total += time.Since(t0)
		cpu += cpuTime() - c0
		n++
		if p.find.total != 1 {
			b.Fatalf("%d matches of question 12345, want 1", p.find.total)
		}
		p.FindKey(tea.KeyPressMsg{Code: tea.KeyEscape}, km, f)
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(n), "first-match-ms")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(n), "first-match-cpu-ms")
	b.ReportMetric(float64(worst.Microseconds())/1000, "max-key-ms")
}
