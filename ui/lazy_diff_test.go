package ui

import (
	"fmt"
	"strings"
	"testing"

	"tandem/thread"
)

// A fileChange cell above the screen (Tail set, the screen following the
// bottom) is laid out unstyled as the same lines, and styled once a full
// drawing is asked for: switching to a long thread draws its diffs on
// screen only (deck.BenchmarkSwitch1000Turns).
func TestFileChangeOffScreenIsUnstyled(t *testing.T) {
	ctx := &RenderContext{Styles: new(NewStyles(true)), Markdown: NewMarkdown("notty"), Tail: 40}
	var tr Transcript
	var cells []*FileChangeCell
	for i := range 50 {
		c := &FileChangeCell{Item: &thread.Item{Type: "fileChange", Status: "completed",
			Files: []thread.FileDiff{{Path: fmt.Sprintf("/w/file%d.go", i), Kind: thread.FileUpdate, Diff: "@@ -1,2 +1,2 @@\n-old line\n+new line\n same\n"}}}}
		cells = append(cells, c)
		tr.Append(c)
	}
	total := tr.Sync(ctx, 100)
	styled := func(i int) bool { return strings.Contains(strings.Join(tr.cache[i].lines, "\n"), "\x1b[") }
	if !cells[0].Partial() || styled(0) {
		t.Errorf("the first cell, far above the screen, is styled (partial %v)", cells[0].Partial())
	}
	if last := len(cells) - 1; cells[last].Partial() || !styled(last) {
		t.Errorf("the last cell, on screen, is not styled (partial %v)", cells[last].Partial())
	}
	ctx.Tail = 0
	if full := tr.Sync(ctx, 100); full != total {
		t.Errorf("%d lines styled, %d unstyled: the layout changed", full, total)
	}
	for i, c := range cells {
		if c.Partial() || !styled(i) {
			t.Fatalf("cell %d is not styled after a full drawing", i)
		}
	}
}
