package ui

import (
	"strings"
	"testing"
)

// Lines of command output as cleanLine meets them: plain, coloured (SGR
// only) and with a title, a hyperlink and a cursor move.
var cleanLineBench = map[string]string{
	"plain":   "ok  \ttandem/ui\t0.412s — coverage: 81.2% of statements in ./...",
	"colour":  "\x1b[32mok\x1b[0m  \ttandem/ui\t\x1b[2m0.412s\x1b[0m — coverage: \x1b[1m81.2%\x1b[0m",
	"escapes": "\x1b]0;title\x07see \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\x1b[2K done\r100%",
	"long":    strings.Repeat("y", 100_000),
}

func BenchmarkCleanLine(b *testing.B) {
	dim := styleWrap(testCtx().Styles.Dim)
	for _, name := range []string{"plain", "colour", "escapes", "long"} {
		l := cleanLineBench[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = cleanLine(l, 100, dim)
			}
		})
	}
}
