package mockapi

import (
	"fmt"
	"strings"
)

// Defaults of the benchmark message (the "big_markdown" script keyword).
const (
	// BigMarkdownBytes is the default size of the benchmark message.
	BigMarkdownBytes = 100_000
	// BigMarkdownDeltas is the default number of deltas it is streamed in.
	BigMarkdownDeltas = 8_500
)

// BigMarkdown returns a Response with one assistant message of
// BigMarkdownText(totalBytes) streamed as `deltas` deltas of roughly equal
// byte size (cut at rune boundaries only), for rendering benchmarks. Usage
// reports about four bytes per output token.
func BigMarkdown(totalBytes, deltas int) Response {
	text := BigMarkdownText(totalBytes)
	out := int64(len(text) / 4)
	return Response{
		Items: []Item{TextChunks(SplitBytes(text, deltas)...)},
		Usage: Usage{InputTokens: 1200, CachedTokens: 1024, OutputTokens: out, TotalTokens: 1200 + out},
	}
}

// BigMarkdownText returns deterministic, realistic Markdown of exactly
// totalBytes bytes (valid UTF-8, ending in a newline when totalBytes > 0):
// headings, paragraphs with inline markup and links, bullet, numbered and
// task lists, tables, fenced code blocks, block quotes and rules, with CJK
// text and emoji sprinkled in.
func BigMarkdownText(totalBytes int) string {
	if totalBytes <= 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(totalBytes)
	title := "# Benchmark report: streaming a large answer\n\n"
	if len(title) <= totalBytes {
		b.WriteString(title)
	}
	for i := 1; ; i++ {
		sec := bigSection(i)
		if b.Len()+len(sec) > totalBytes {
			break
		}
		b.WriteString(sec)
	}
	fillASCII(&b, totalBytes-b.Len())
	return b.String()
}

// fillASCII appends exactly n bytes of plain words ending in "\n".
func fillASCII(b *strings.Builder, n int) {
	if n <= 0 {
		return
	}
	words := []string{"lorem", "ipsum", "dolor", "sit", "amet", "render", "stream", "delta", "token", "frame"}
	var line strings.Builder
	for i := 0; line.Len() < n-1; i++ {
		if line.Len() > 0 {
			line.WriteByte(' ')
		}
		line.WriteString(words[i%len(words)])
	}
	s := line.String()[:n-1]
	b.WriteString(s)
	b.WriteByte('\n')
}

var bigCJK = []string{
	"这是一个用于基准测试的段落，包含中文字符以检验宽字符的换行与对齐。",
	"日本語のテキストも含まれています。表示幅が二倍になる文字の扱いを確認します。",
	"한국어 문장도 포함되어 있습니다. 줄 바꿈과 커서 위치를 확인합니다.",
	"混合文本：Go 语言、Rust 和 TypeScript 在同一行里出现。",
}

var bigEmoji = []string{"🚀", "✅", "🎉", "⚠️", "🔥", "📦", "🧪", "👩‍💻", "🇯🇵", "✨"}

var bigCode = []struct{ lang, body string }{
	{"go", `func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2) // exponential, on purpose
}
`},
	{"rust", `fn main() {
    let words: Vec<&str> = "a b c".split(' ').collect();
    for (i, w) in words.iter().enumerate() {
        println!("{i}: {w}");
    }
}
`},
	{"bash", `#!/usr/bin/env bash
set -euo pipefail
for f in *.md; do
  wc -c "$f" | awk '{print $1}'
done
`},
	{"python", `def chunks(xs, n):
    """Yield successive n-sized chunks from xs."""
    for i in range(0, len(xs), n):
        yield xs[i:i + n]
`},
	{"json", `{
  "name": "tandem",
  "deltas": 8500,
  "emoji": "🚀",
  "nested": {"ok": true, "list": [1, 2, 3]}
}
`},
}

// bigSection returns section i of the benchmark document.
func bigSection(i int) string {
	var b strings.Builder
	e := func(k int) string { return bigEmoji[(i+k)%len(bigEmoji)] }
	cjk := func(k int) string { return bigCJK[(i+k)%len(bigCJK)] }
	fmt.Fprintf(&b, "## %d. Section %d %s\n\n", i, i, e(0))
	fmt.Fprintf(&b, "This paragraph explains **step %d** of the pipeline. It mentions `Config.Field%d`, "+
		"an *emphasised* aside, a [link to the docs](https://example.com/docs/%d), and ~~an obsolete idea~~. "+
		"Rendering must handle wrapping of long lines without breaking words in awkward places, "+
		"and it must keep inline code like `x := y + %d` intact. %s\n\n", i, i, i, i, e(1))
	fmt.Fprintf(&b, "%s %s\n\n", cjk(0), e(2))
	switch i % 6 {
	case 0:
		fmt.Fprintf(&b, "- First point about item %d\n- Second point with `code` and **bold**\n"+
			"  - Nested detail %s\n  - Another nested detail: %s\n- Third point\n\n", i, e(3), cjk(1))
	case 1:
		fmt.Fprintf(&b, "1. Prepare the input (%d files)\n2. Run the transformation\n"+
			"3. Verify the output %s\n4. Publish the results\n\n", i*3, e(4))
	case 2:
		fmt.Fprintf(&b, "| Metric | Value | Note |\n|:-------|------:|:----:|\n"+
			"| latency p50 | %d ms | steady %s |\n| latency p99 | %d ms | spiky |\n"+
			"| throughput | %d req/s | 吞吐量 |\n| errors | %d | none 🎉 |\n\n", 10+i%7, e(5), 80+i%31, 1000+i*13, i%3)
	case 3:
		c := bigCode[(i/6)%len(bigCode)]
		fmt.Fprintf(&b, "```%s\n%s```\n\n", c.lang, c.body)
	case 4:
		fmt.Fprintf(&b, "> **Note** %s\n> Quoted text for section %d spans\n> several lines. %s\n\n", e(6), i, cjk(2))
	case 5:
		fmt.Fprintf(&b, "- [x] done: parse section %d\n- [ ] todo: render tables\n- [ ] todo: handle %s\n\n---\n\n", i, e(7))
	}
	return b.String()
}
