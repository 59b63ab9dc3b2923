package transcript

import "testing"

// TestLongHistoryIsDrawnLazily loads 2,000 finished turns and checks the
// first frame and a page up render only about a screen's worth of
// Markdown, not the whole history.
func TestLongHistoryIsDrawnLazily(t *testing.T) {
	p := historyPanes(t, 2000)
	tr := &p.shown.v.transcript
	before := tr.Renders
	if got := len(p.Window(37)); got == 0 {
		t.Fatal("no frame")
	}
	if p := len(tr.PartialCells()); p < 1900 {
		t.Fatalf("only %d of the 2,000 answers were left for later", p)
	}
	p.Scroll(0, -1, 37, false)
	p.Window(37)
	if n := tr.Renders - before; n > 100 {
		t.Fatalf("a page up rendered %d cells", n)
	}
	if p := len(tr.PartialCells()); p < 1800 {
		t.Fatalf("a page up drew %d answers fully", 2000-p)
	}
}
