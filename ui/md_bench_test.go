package ui

import (
	"testing"

	"tandem/internal/testkit/mockapi"
)

// BenchmarkMarkdownWhole renders the 100 KB BigMarkdown document in one
// glamour call.
func BenchmarkMarkdownWhole(b *testing.B) {
	text := mockapi.BigMarkdownText(mockapi.BigMarkdownBytes)
	md := NewMarkdown("dark")
	for b.Loop() {
		md.Render(text, 120)
	}
}

// BenchmarkMarkdownBlocks renders the same document block by block, the
// way a streamed answer is rendered.
func BenchmarkMarkdownBlocks(b *testing.B) {
	text := mockapi.BigMarkdownText(mockapi.BigMarkdownBytes)
	ctx := &RenderContext{Styles: new(NewStyles(true)), Markdown: NewMarkdown("dark")}
	for b.Loop() {
		c := newTestAgent()
		c.Append(text)
		c.SetFinal(text)
		c.Render(ctx, 120)
	}
}
