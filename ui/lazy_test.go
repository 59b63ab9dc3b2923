package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"tandem/internal/testkit/mockapi"
)

// TestLazyStylesOnlyTheTail streams a 100 KB answer with Tail set (the
// screen follows the bottom) and a frame every 500 deltas (a fast stream:
// most blocks scroll past between two frames), and checks that the blocks
// never on screen stay plain, and that a full render (Tail 0) styles them
// all without changing the visible lines.
func TestLazyStylesOnlyTheTail(t *testing.T) {
	text := mockapi.BigMarkdownText(mockapi.BigMarkdownBytes)
	ctx := &RenderContext{Styles: new(NewStyles(true)), Markdown: NewMarkdown("notty"), Tail: 40}
	var tr Transcript
	a := newTestAgent()
	tr.Append(a)
	for i, d := range mockapi.SplitBytes(text, 8500) {
		a.Append(d)
		if i%500 == 0 {
			tr.Flush()
		}
		tr.Sync(ctx, 100)
	}
	a.SetFinal(text)
	total := tr.Sync(ctx, 100)
	styled := 0
	for _, b := range a.segs {
		if b.styled {
			styled++
		}
	}
	if styled > len(a.segs)/2 || !a.Partial() {
		t.Fatalf("%d of %d blocks styled while following", styled, len(a.segs))
	}
	screen := tr.Window(total-40, 40, 100)
	ctx.Tail = 0
	full := tr.Sync(ctx, 100)
	if a.Partial() {
		t.Fatal("still partial after a full render")
	}
	if got := strings.Join(tr.Window(full-40, 40, 100), "\n"); ansi.Strip(got) != ansi.Strip(strings.Join(screen, "\n")) {
		t.Fatalf("the visible lines changed when the rest was styled:\n%s\n---\n%s", got, strings.Join(screen, "\n"))
	}
}
