package textedit

import (
	"strings"
	"testing"
)

// BenchmarkInsertAtEnd is one typed character at the end of a paragraph
// of 10,000 characters of each script, wrapped at 80 cells: what a key
// costs the composer's buffer in a long draft outside ASCII's fast path
// (docs/PERFORMANCE.md).
func BenchmarkInsertAtEnd(b *testing.B) {
	for _, sc := range []struct{ name, words, key string }{
		{"ascii", "the quick brown fox jumps ", "x"},
		{"cjk", "日本語のテキスト、", "語"},
		{"devanagari", "नमस्ते दुनिया ", "क"},
		{"emoji", "👩‍💻 ok 🎉 ", "🎉"},
	} {
		draft := []rune(strings.Repeat(sc.words, 10000/len([]rune(sc.words))+1))[:10000]
		b.Run(sc.name, func(b *testing.B) {
			buf := New(80)
			buf.SetText(string(draft))
			i := 0
			for b.Loop() {
				buf.Insert(sc.key)
				if i++; i%64 == 0 {
					b.StopTimer()
					buf.SetText(string(draft))
					b.StartTimer()
				}
			}
		})
	}
}
