package model

import "testing"

// BenchmarkTickFrame is one frame tick of a running turn with nothing
// new to draw (no delta since the last frame), Update and View: what every
// guest of a shared session pays 30 times a second while a turn runs.
func BenchmarkTickFrame(b *testing.B) {
	m := benchModel(b)
	b.ReportAllocs()
	for b.Loop() {
		frame(m, m.stat.NextTick())
	}
}
