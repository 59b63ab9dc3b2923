package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Insert puts cells above the ones drawn: the lines come out in the new
// order, the cells below keep their cached lines (no re-render), and a
// cell touched after the insert is redrawn where it now is.
func TestTranscriptInsert(t *testing.T) {
	ctx := testCtx()
	banner := func(s string) *BannerCell { return &BannerCell{Kind: BannerInfo, Text: s} }
	var tr Transcript
	older := &OlderCell{}
	tr.Append(older)
	c, d := banner("c"), banner("d")
	tr.Append(c)
	tr.Append(d)
	tr.Sync(ctx, 40)
	before := tr.Renders
	oldStart := tr.Start(1)
	tr.Insert(1, banner("a"), banner("b"))
	total := tr.Sync(ctx, 40)
	if got := tr.Renders - before; got != 2 {
		t.Fatalf("Insert of 2 cells rendered %d cells", got)
	}
	if moved := tr.Start(3) - oldStart; moved != 4 {
		t.Fatalf("the old cells moved %d lines, want 4 (two banners of 2 lines)", moved)
	}
	var marks []string
	for _, l := range tr.Window(0, total, 40) {
		if f := strings.Fields(ansi.Strip(l)); len(f) == 2 && f[0] == "ℹ" {
			marks = append(marks, f[1])
		}
	}
	if got := strings.Join(marks, ""); got != "abcd" {
		t.Fatalf("order after Insert %q, want abcd; lines:\n%s", got, strings.Join(tr.Window(0, total, 40), "\n"))
	}
	// Touch reaches the right cache entry after the indexes shifted.
	d.Text = "D"
	d.Touch()
	older.Set(OlderNone, "")
	total = tr.Sync(ctx, 40)
	got := strings.Join(tr.Window(0, total, 40), "\n")
	if !strings.Contains(got, "D") || strings.Contains(got, "earlier turns") {
		t.Fatalf("after touches:\n%s", got)
	}
	// Inserting at the end appends.
	tr.Insert(len(tr.Cells), banner("e"))
	total = tr.Sync(ctx, 40)
	if last := tr.Window(total-1, 1, 40); len(last) != 1 || !strings.Contains(last[0], "e") {
		t.Fatalf("insert at the end: %q", last)
	}
}

// An OlderCell says what can be done in each state, and nothing once
// every turn is read.
func TestOlderCellStates(t *testing.T) {
	ctx := testCtx()
	for _, tc := range []struct {
		st   OlderState
		err  string
		want string
	}{
		{OlderMore, "", "scroll up to read them"},
		{OlderLoading, "", "reading earlier turns"},
		{OlderFailed, "boom", "could not read earlier turns: boom"},
		{OlderHidden, "--no-alt-screen", "not shown: --no-alt-screen"},
		{OlderNone, "", ""},
	} {
		c := &OlderCell{}
		c.Set(tc.st, tc.err)
		got := strings.Join(c.Render(ctx, 200), "\n")
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%v: %q, want %q", tc.st, got, tc.want)
		}
	}
	c := &OlderCell{}
	v := c.Version()
	c.Set(OlderMore, "")
	if c.Version() != v {
		t.Error("Set to the same state changed the version")
	}
}

// Cells inserted into a transcript never synced, or after cells appended
// to Cells directly, are drawn, and only cells that cannot report their
// changes are checked every Sync.
func TestTranscriptInsertBeforeSync(t *testing.T) {
	ctx := testCtx()
	var tr Transcript
	tr.Insert(0, &OlderCell{})
	tr.Cells = append(tr.Cells, &BannerCell{Kind: BannerInfo, Text: "direct"})
	tr.Insert(1, &BannerCell{Kind: BannerInfo, Text: "inserted"})
	total := tr.Sync(ctx, 40)
	got := ansi.Strip(strings.Join(tr.Window(0, total, 40), "\n"))
	if !strings.Contains(got, "earlier turns") || strings.Index(got, "inserted") > strings.Index(got, "direct") || !strings.Contains(got, "direct") {
		t.Fatalf("lines:\n%s", got)
	}
	if len(tr.unowned) != 1 || tr.unowned[0] != 2 {
		t.Fatalf("unowned %v, want only the cell appended directly (2)", tr.unowned)
	}
}
