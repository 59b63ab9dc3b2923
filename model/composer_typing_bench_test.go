package model

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// BenchmarkComposerTyping types a draft one key at a time, as fast typing
// without bracketed paste arrives (`tmux send-keys -l`): one KeyPressMsg
// per rune, each followed by View, as Bubble Tea does. Reported per key.
// The cost grows with the length of the paragraph being typed: the bubbles
// textarea re-wraps and redraws the whole logical line on every key
// (≈0.2 ms/key at 200 characters, ≈1 ms/key at 2,000 on 2 cores; see
// docs/PERFORMANCE.md). Bracketed paste inserts in one step.
func BenchmarkComposerTyping(b *testing.B) {
	const words = "the quick brown fox jumps over the lazy dog and then some "
	for _, n := range []int{200, 2000} {
		keys := make([]tea.KeyPressMsg, n)
		for i := range keys {
			r := rune(words[i%len(words)])
			keys[i] = tea.KeyPressMsg{Code: r, Text: string(r)}
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			typed := 0
			for b.Loop() {
				b.StopTimer()
				m := benchModel(b)
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
