package termsafe

import (
	"io"
	"strings"
	"testing"
)

var (
	// benchClean is text that needs nothing: the path that must not
	// allocate.
	benchClean = strings.Repeat("ok  \ttandem/ui\t0.412s — ✓ 日本 passed\n", 200)
	// benchColour is coloured command output (SGR only).
	benchColour = strings.Repeat("\x1b[32mok\x1b[0m  tandem/ui\t0.412s\n", 200)
	// benchEscapes has a title, a hyperlink and a cursor move per line.
	benchEscapes = strings.Repeat("\x1b]0;title\x07see \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\x1b[2K\n", 200)
)

func benchmark(b *testing.B, f func(string) string, s string) {
	b.ReportAllocs()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = f(s)
	}
}

func BenchmarkControlsClean(b *testing.B)   { benchmark(b, Controls, benchClean) }
func BenchmarkControlsColour(b *testing.B)  { benchmark(b, Controls, benchColour) }
func BenchmarkControlsEscapes(b *testing.B) { benchmark(b, Controls, benchEscapes) }
func BenchmarkPlainClean(b *testing.B)      { benchmark(b, Plain, benchClean) }
func BenchmarkPlainColour(b *testing.B)     { benchmark(b, Plain, benchColour) }
func BenchmarkPlainEscapes(b *testing.B)    { benchmark(b, Plain, benchEscapes) }

// The no-change path allocates nothing.
func TestCleanDoesNotAllocate(t *testing.T) {
	for name, f := range map[string]func(string) string{"Controls": Controls, "Plain": Plain} {
		if n := testing.AllocsPerRun(20, func() { _ = f(benchClean) }); n != 0 {
			t.Errorf("%s allocates %.0f times on clean text", name, n)
		}
	}
}

// BenchmarkWriter is a command's output through a Writer in 8 KiB
// pieces, as a spill file takes it.
func BenchmarkWriter(b *testing.B) {
	src := []byte(benchClean + benchColour + benchEscapes)
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		w := NewWriter(io.Discard)
		for p := src; len(p) > 0; {
			n := min(len(p), 8<<10)
			w.Write(p[:n])
			p = p[n:]
		}
		w.Flush()
	}
}
