package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestCommandHeadTail(t *testing.T) {
	c := newTestCommand("seq 1 100", "inProgress")
	for i := 1; i <= 100; i++ {
		c.AppendOutput(fmt.Sprintf("%d\n", i))
	}
	got := ansi.Strip(strings.Join(c.Render(testCtx(), 60), "\n"))
	for _, want := range []string{"│ 1\n", "│ 2\n", "… +95 lines", "│ 98\n", "│ 99\n", "│ 100"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "│ 50") {
		t.Errorf("middle line shown:\n%s", got)
	}
	c.ToggleExpanded()
	if n := len(c.Render(testCtx(), 60)); n < 100 {
		t.Errorf("expanded shows %d lines", n)
	}
}

func TestCommandCleansControlAndLongLines(t *testing.T) {
	c := newTestCommand("", "completed")
	c.AppendOutput("\x1b[31mred\x1b[0m\nprogress 10%\rprogress 100%\n" + strings.Repeat("y", 1_000_000) + "\n")
	for _, l := range c.Render(testCtx(), 40) {
		if ansi.StringWidth(l) > 40 {
			t.Fatalf("too wide: %d", ansi.StringWidth(l))
		}
	}
	out := ansi.Strip(strings.Join(c.Render(testCtx(), 40), "\n"))
	if !strings.Contains(out, "│ red") || !strings.Contains(out, "│ progress 100%") || strings.Contains(out, "progress 10%\n") {
		t.Fatalf("render:\n%s", out)
	}
}

func TestFileDiffNumbers(t *testing.T) {
	diff := "--- a/f.go\n+++ b/f.go\n@@ -10,3 +10,4 @@\n ctx\n-old\n+new\n+more\n ctx2\n"
	f := FileDiff{Path: "f.go", Kind: "update", Diff: diff}
	if a, r := FileDiffStat(f); a != 2 || r != 1 {
		t.Fatalf("stat +%d -%d", a, r)
	}
	got := ansi.Strip(strings.Join(RenderFileDiff(*testCtx().Styles, f, 60, 0), "\n"))
	want := "    10  ctx\n    11 -old\n    11 +new\n    12 +more\n    13  ctx2"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	add := FileDiff{Path: "n.txt", Kind: "add", Diff: "a\nb\n"}
	if a, r := FileDiffStat(add); a != 2 || r != 0 {
		t.Fatalf("add stat +%d -%d", a, r)
	}
	got = ansi.Strip(strings.Join(RenderFileDiff(*testCtx().Styles, add, 60, 0), "\n"))
	if got != "    1 +a\n    2 +b" {
		t.Fatalf("add render %q", got)
	}
}

func TestTranscriptWindowMatchesLines(t *testing.T) {
	var tr Transcript
	ctx := testCtx()
	for i := 0; i < 50; i++ {
		tr.Append(&UserCell{Text: fmt.Sprintf("question %d", i)})
		a := newTestAgent()
		a.Append(fmt.Sprintf("answer %d\n\nsecond paragraph %d", i, i))
		a.SetFinal(a.Text())
		tr.Append(a)
	}
	all := tr.Lines(ctx, 40)
	for top := 0; top < len(all); top += 7 {
		w := tr.Window(top, 10, 40)
		want := all[top:min(len(all), top+10)]
		if strings.Join(w, "\n") != strings.Join(want, "\n") {
			t.Fatalf("window at %d differs", top)
		}
	}
}

func TestLiveCellThrottled(t *testing.T) {
	var tr Transcript
	ctx := testCtx()
	a := newTestAgent()
	tr.Append(a)
	a.Append("hello")
	tr.Sync(ctx, 40)
	r := tr.Renders
	for i := 0; i < 100; i++ {
		a.Append(" more")
		tr.Sync(ctx, 40)
	}
	if tr.Renders != r {
		t.Fatalf("%d renders without a flush", tr.Renders-r)
	}
	tr.Flush()
	tr.Sync(ctx, 40)
	if tr.Renders != r+1 {
		t.Fatalf("flush rendered %d times", tr.Renders-r)
	}
	a.SetFinal(a.Text())
	tr.Sync(ctx, 40)
	if tr.Renders != r+2 {
		t.Fatal("final cell not rendered at once")
	}
}

// A spilled command's cell names its file and counts every line.
func TestCommandSpilledRender(t *testing.T) {
	c := newTestCommand("yes", "inProgress")
	chunk := strings.Repeat("x\n", 4096) // 8 KiB
	for n := 0; n < 3<<20; n += len(chunk) {
		c.AppendOutput(chunk)
	}
	defer c.Close()
	out := c.Item.Output
	got := ansi.Strip(strings.Join(c.Render(testCtx(), 80), "\n"))
	if !strings.Contains(got, fmt.Sprintf("+%d lines", out.Lines()-5)) || !strings.Contains(got, out.SpillPath()) {
		t.Fatalf("render:\n%s", got)
	}
}
