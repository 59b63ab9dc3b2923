package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"tandem/thread"
)

// Every line of a change is drawn, once signed, whatever it starts with,
// and the counts are the lines drawn: codex's item for an added file is
// its content, for an update a diff whose lines may start "---"/"+++".
func TestRenderFileDiffHostileLines(t *testing.T) {
	cases := []struct {
		name   string
		f      FileDiff
		a, r   int
		want   string
		maxLns int
	}{
		{"added file with ++ and @@ lines", FileDiff{Kind: "add", Diff: "print(1)\n++__import__('os').system('touch PWNED')\n@@ -1 +1 @@\n-x\n"}, 4, 0,
			"    1 +print(1)\n    2 +++__import__('os').system('touch PWNED')\n    3 +@@ -1 +1 @@\n    4 +-x", 0},
		{"removed -- line", FileDiff{Kind: "update", Diff: "@@ -1,3 +1,2 @@\n create table t;\n--- SECURITY: keep the audit trigger\n create trigger a;\n"}, 0, 1,
			"    1  create table t;\n    2 --- SECURITY: keep the audit trigger\n    2  create trigger a;", 0},
		{"deleted file", FileDiff{Kind: "delete", Diff: "--a\n++b"}, 0, 2,
			"    1 ---a\n    2 -++b\n       \\ No newline at end of file", 0},
		{"empty added file", FileDiff{Kind: "add", Diff: ""}, 0, 0, "       (empty file)", 0},
		{"CRLF shown", FileDiff{Kind: "update", Diff: "@@ -1 +1 @@\r\n-a\r\n+b\r\n"}, 1, 1, "    1 -a␍\n    1 +b␍", 0},
		{"counts that disagree", FileDiff{Kind: "update", Diff: "@@ -1 +1 @@\n-a\n+b\n+++hidden?\n"}, 2, 1,
			"    ⚠ this hunk's lines are shown as they came, but its lines (-1,1 +1,2) disagree with its header's counts (-1,1 +1,1)\n    1 -a\n    1 +b\n    2 +++hidden?", 0},
		{"a binary note", FileDiff{Kind: "update", Diff: "Binary files a/x and b/x differ\n"}, 0, 0, "       Binary files a/x and b/x differ", 0},
		{"capped", FileDiff{Kind: "add", Diff: "a\nb\nc\n"}, 3, 0, "    1 +a\n    2 +b\n    … +1 lines", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if a, r := FileDiffStat(c.f); a != c.a || r != c.r {
				t.Errorf("stat +%d −%d; want +%d −%d", a, r, c.a, c.r)
			}
			got := ansi.Strip(strings.Join(RenderFileDiff(*testCtx().Styles, c.f, 200, c.maxLns), "\n"))
			if got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

func TestDiffStatManyFiles(t *testing.T) {
	diff := "diff --git a/s.sql b/s.sql\n--- a/s.sql\n+++ b/s.sql\n@@ -1,2 +1,1 @@\n--- keep\n x\n" +
		"diff --git a/t.py b/t.py\nnew file mode 100644\n--- /dev/null\n+++ b/t.py\n@@ -0,0 +1,2 @@\n+++evil\n++ok\n"
	if a, r := DiffStat(diff); a != 2 || r != 1 {
		t.Errorf("DiffStat +%d −%d; want +2 −1", a, r)
	}
	c := &DiffCell{Title: "Last turn's diff", Diff: diff}
	got := ansi.Strip(strings.Join(c.Render(testCtx(), 80), "\n"))
	for _, want := range []string{"s.sql +0 −1", "1 --- keep", "added t.py +2 −0", "new file mode 100644", "1 +++evil", "2 ++ok"} {
		if !strings.Contains(got, want) {
			t.Errorf("the diff cell lacks %q:\n%s", want, got)
		}
	}
}

// The cell's header names a move's target, and the pager (Expanded)
// shows every line.
func TestFileChangeCellMoveAndExpanded(t *testing.T) {
	var b strings.Builder
	for range 50 {
		b.WriteString("line\n")
	}
	it := &thread.Item{Kind: thread.FileChange, Status: "completed", Files: []thread.FileDiff{
		{Path: "/w/a.txt", Kind: "update", MovePath: "/w/b.txt", Diff: "@@ -1 +1 @@\n-x\n+y\n"},
		{Path: "/w/big.txt", Kind: "add", Diff: b.String()},
	}}
	c := &FileChangeCell{Item: it, Cwd: "/w"}
	ctx := testCtx()
	got := ansi.Strip(strings.Join(c.Render(ctx, 80), "\n"))
	if !strings.Contains(got, "Edited a.txt → b.txt +1 −1") || !strings.Contains(got, "… +10 lines") {
		t.Errorf("collapsed:\n%s", got)
	}
	ctx.Expanded = true
	got = ansi.Strip(strings.Join(c.Render(ctx, 80), "\n"))
	if strings.Contains(got, "… +") || !strings.Contains(got, "50 +line") {
		t.Errorf("expanded:\n%s", got)
	}
}
