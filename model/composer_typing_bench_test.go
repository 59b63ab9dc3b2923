package model

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
)

// benchWords is the text the typing benchmarks type, one rune a key.
const benchWords = "the quick brown fox jumps over the lazy dog and then some "

// benchKeys returns n key presses typing benchWords over and over.
func benchKeys(n int) []tea.KeyPressMsg {
	keys := make([]tea.KeyPressMsg, n)
	for i := range keys {
		r := rune(benchWords[i%len(benchWords)])
		keys[i] = tea.KeyPressMsg{Code: r, Text: string(r)}
	}
	return keys
}

// humanClock returns a clock for Options.Clock that moves 100 ms on every
// reading: keys typed at a person's pace, never a paste burst.
func humanClock() func() time.Time {
	t := time.Unix(0, 0)
	return func() time.Time {
		t = t.Add(100 * time.Millisecond)
		return t
	}
}

// BenchmarkComposerTyping types a draft of n characters into one
// paragraph, one key at a time at a person's pace (the key clock moves
// 100 ms a key, so no key is taken for a paste burst), each followed by
// View, as Bubble Tea does. Reported per key, averaged over the draft's
// growth from empty to n.
func BenchmarkComposerTyping(b *testing.B) {
	for _, n := range []int{200, 2000, 10000} {
		keys := benchKeys(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			typed := 0
			for b.Loop() {
				b.StopTimer()
				m := benchModelOpts(b, Options{Clock: act.FuncClock(humanClock())})
				b.StartTimer()
				for _, k := range keys {
					frame(m, k)
				}
				typed += len(keys)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(typed), "ns/key")
		})
	}
}

// BenchmarkComposerKeyAt is the cost of one key (Update + View) with a
// draft of n characters in one paragraph already in the composer, the
// cursor at its end: what a key costs in a long draft (docs/PERFORMANCE.md;
// #17 asks for under 1 ms at 10,000 and no growth with n).
func BenchmarkComposerKeyAt(b *testing.B) {
	for _, n := range []int{200, 2000, 10000} {
		draft := strings.Repeat(benchWords, n/len(benchWords)+1)[:n]
		keys := benchKeys(64)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			m := benchModelOpts(b, Options{Clock: act.FuncClock(humanClock())})
			m.composer.SetDraft(draft)
			m.View()
			i := 0
			for b.Loop() {
				frame(m, keys[i%len(keys)])
				if i++; i%len(keys) == 0 {
					b.StopTimer()
					m.composer.SetDraft(draft) // keep the draft at n
					m.View()
					b.StartTimer()
				}
			}
		})
	}
}

// benchModelOpts is benchModel with options.
func benchModelOpts(tb testing.TB, opts Options) *Model {
	opts.NoColor = true
	m := New(opts)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(SessionReadyMsg{Client: nopDriver{}, Model: "mock-model"})
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	m.View()
	return m
}

// BenchmarkPasteBurstKeys pastes 3,000 lines as keys, as a terminal
// without bracketed paste sends them (each newline an Enter, 50 µs
// apart): Update+View per key, then the burst's end, which turns it into
// a placeholder. Reported per key.
func BenchmarkPasteBurstKeys(b *testing.B) {
	var keys []tea.KeyPressMsg
	for i := range 3000 {
		for _, r := range fmt.Sprintf("line %04d of the pasted text, with a few words", i) {
			keys = append(keys, tea.KeyPressMsg{Code: r, Text: string(r)})
		}
		keys = append(keys, tea.KeyPressMsg{Code: tea.KeyEnter})
	}
	b.ReportAllocs()
	typed := 0
	for b.Loop() {
		b.StopTimer()
		now := time.Unix(0, 0)
		m := benchModelOpts(b, Options{Clock: act.FuncClock(func() time.Time { return now })})
		b.StartTimer()
		for _, k := range keys {
			now = now.Add(50 * time.Microsecond)
			frame(m, k)
		}
		now = now.Add(time.Second)
		frame(m, m.composer.Due())
		if !strings.Contains(m.composer.Value(), "[Pasted text #1 · 3000 lines") {
			b.Fatalf("the burst did not become a placeholder: %.80q", m.composer.Value())
		}
		typed += len(keys)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(typed), "ns/key")
}
