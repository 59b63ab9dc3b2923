package unidiff

import (
	"fmt"
	"strings"
	"testing"
)

// dump writes f compactly: headers as "H<kind> text", hunks as
// "@@ -a,b +c,d", lines as their sign and text, "⏎̸" after a line with no
// newline, "!" before an extra line, "?" and the problem after a hunk.
func dump(f File) string {
	var b strings.Builder
	headers := func(before int) {
		for _, h := range f.Headers {
			if h.Before == before {
				fmt.Fprintf(&b, "H%d %s\n", h.Kind, h.Text)
			}
		}
	}
	for i, h := range f.Hunks {
		headers(i)
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d\n", h.OldStart, h.OldCount, h.NewStart, h.NewCount)
		for _, l := range h.Lines {
			if l.Extra {
				b.WriteString("!")
			}
			b.WriteString(string(rune(l.Op)) + strings.ReplaceAll(l.Text, "\r", "␍"))
			if l.NoNewline {
				b.WriteString("⏎̸")
			}
			b.WriteString("\n")
		}
		if h.Problem != "" {
			b.WriteString("? " + h.Problem + "\n")
		}
	}
	headers(len(f.Hunks))
	fmt.Fprintf(&b, "+%d -%d", f.Added, f.Removed)
	for _, p := range f.Problems {
		b.WriteString("\n! " + p)
	}
	return b.String()
}

func TestParse(t *testing.T) {
	cases := []struct {
		name, diff, want string
	}{
		// codex 0.169.0's diff for an update that removes a "--" line
		// and adds a "---" one (seen through the app-server).
		{"signs doubled inside a hunk", "@@ -1,3 +1,3 @@\n create table t;\n--- SECURITY: keep the audit trigger\n+--- new\n create trigger a;\n",
			"@@ -1,3 +1,3\n create table t;\n--- SECURITY: keep the audit trigger\n+--- new\n create trigger a;\n+1 -1"},
		{"+++ --- ++ -- @@ diff inside a hunk", "--- a/x\n+++ b/x\n@@ -1,3 +1,4 @@\n---- a/x\n++++ b/x\n+++y\n--z\n @@ -1 +1 @@\n+diff --git a/q b/q\n",
			"H3 --- a/x\nH4 +++ b/x\n@@ -1,3 +1,4\n---- a/x\n++++ b/x\n+++y\n--z\n @@ -1 +1 @@\n+diff --git a/q b/q\n+3 -2"},
		{"counts default to 1", "@@ -3 +3 @@ func main()\n-a\n+b\n", "@@ -3,1 +3,1\n-a\n+b\n+1 -1"},
		{"no newline at end, new side", "@@ -1,2 +1,2 @@\n a\n-c\n+b\n\\ No newline at end of file\n",
			"@@ -1,2 +1,2\n a\n-c\n+b⏎̸\n+1 -1"},
		{"no newline at end, old side", "@@ -1,2 +1,2 @@\n a\n-c\n\\ No newline at end of file\n+b\n",
			"@@ -1,2 +1,2\n a\n-c⏎̸\n+b\n+1 -1"},
		{"CRLF kept", "@@ -1,2 +1,2 @@\r\n a\r\n-b\r\n+c\r\n\r\n", "@@ -1,2 +1,2\n a␍\n-b␍\n+c␍\n+1 -1"},
		{"CRLF empty context line", "@@ -1,2 +1,2 @@\r\n\r\n-b\r\n+c\r\n", "@@ -1,2 +1,2\n ␍\n-b␍\n+c␍\n+1 -1"},
		{"empty context line", "@@ -1,2 +1,2 @@\n\n-b\n+c\n", "@@ -1,2 +1,2\n \n-b\n+c\n+1 -1"},
		// codex ends a move's diff with a note (thread/state.go).
		{"a move's trailing note", "@@ -1,2 +1,2 @@\n-x\n+y\n keep\n\n\nMoved to: /w/b.txt",
			"@@ -1,2 +1,2\n-x\n+y\n keep\nH6 Moved to: /w/b.txt\n+1 -1"},
		{"git rename", "diff --git a/a.txt b/b.txt\nsimilarity index 90%\nrename from a.txt\nrename to b.txt\n",
			"H1 diff --git a/a.txt b/b.txt\nH5 similarity index 90%\nH5 rename from a.txt\nH5 rename to b.txt\n+0 -0"},
		{"binary", "diff --git a/i.png b/i.png\nindex 1..2 100644\nBinary files a/i.png and b/i.png differ\n",
			"H1 diff --git a/i.png b/i.png\nH2 index 1..2 100644\nH7 Binary files a/i.png and b/i.png differ\n+0 -0"},
		{"two hunks", "@@ -1,2 +1,2 @@\n a\n-b\n+B\n@@ -6,1 +6,1 @@\n-g\n+G\n",
			"@@ -1,2 +1,2\n a\n-b\n+B\n@@ -6,1 +6,1\n-g\n+G\n+2 -2"},
		{"pure deletion", "@@ -2,2 +1,0 @@\n-b\n-c\n", "@@ -2,2 +1,0\n-b\n-c\n+0 -2"},
		// Counts that disagree with the lines: every line kept, the hunk
		// says so.
		{"cut short by the end", "@@ -1,3 +1,3 @@\n a\n", "@@ -1,3 +1,3\n a\n? 2 old and 2 new lines missing (its header says -1,3 +1,3)\n+0 -0"},
		{"cut short by a non-hunk line", "@@ -1,3 +1,3 @@\n a\nMoved to: x\n b\n",
			"@@ -1,3 +1,3\n a\n? 2 old and 2 new lines missing (its header says -1,3 +1,3)\nH6 Moved to: x\nH0  b\n+0 -0"},
		{"extra lines after the counts", "@@ -1 +1 @@\n-a\n+b\n+++evil\n--gone\n ctx\n\ntrailer\n",
			"@@ -1,1 +1,1\n-a\n+b\n!+++evil\n!--gone\n! ctx\n? its lines (-1,3 +1,3) disagree with its header's counts (-1,1 +1,1)\nH0 trailer\n+2 -2"},
		{"a sign for the wrong side", "@@ -1,1 +1,1 @@\n+a\n+b\n-c\n",
			"@@ -1,1 +1,1\n+a\n+b\n-c\n? its lines (-1,1 +1,2) disagree with its header's counts (-1,1 +1,1)\n+2 -1"},
		{"an @@ line where the counts run", "@@ -1,2 +1,2 @@\n a\n@@ -5 +5 @@\n-x\n+y\n",
			"@@ -1,2 +1,2\n a\n? 1 old and 1 new lines missing (its header says -1,2 +1,2)\n@@ -5,1 +5,1\n-x\n+y\n+1 -1"},
		{"bad hunk header", "@@ -x +y @@\n-a\n", "H0 @@ -x +y @@\nH0 -a\n+0 -0\n! line 1: bad hunk header \"@@ -x +y @@\""},
		{"not a diff", "not a diff", "H0 not a diff\n+0 -0"},
		{"empty", "", "+0 -0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := dump(Parse(c.diff)); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

func TestErr(t *testing.T) {
	cases := []struct{ diff, want string }{
		{"@@ -1,2 +1,2 @@\n a\n-b\n+c\n", ""},
		{"@@ -1,3 +1,3 @@\n a\n", "hunk at line 1: 2 old and 2 new lines missing"},
		{"x\n@@ -1 +1 @@\n-a\n+b\n+c\n", "hunk at line 2: its lines"},
		{"@@ -x +y @@\n", "line 1: bad hunk header"},
	}
	for _, c := range cases {
		f := Parse(c.diff)
		err := f.Err()
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err %v; want %q", c.diff, err, c.want)
		}
	}
}

// An added or deleted file is its content, read by the kind: every line
// as it is in the file, whatever it starts with.
func TestReadChangeContent(t *testing.T) {
	// codex 0.169.0's item diff for an added tool.py (seen through the
	// app-server): the content, not a diff.
	hostile := "print(1)\n++__import__('os').system('touch PWNED')\n@@ -1 +1 @@\n+x\n-y\n--- a/z\ndone"
	cases := []struct {
		kind, text, want string
	}{
		{"add", hostile, "@@ -0,0 +1,7\n+print(1)\n+++__import__('os').system('touch PWNED')\n+@@ -1 +1 @@\n++x\n+-y\n+--- a/z\n+done⏎̸\n+7 -0"},
		{"delete", "-- SECURITY\n++b\n", "@@ -1,2 +0,0\n--- SECURITY\n-++b\n+0 -2"},
		{"add", "", "+0 -0"},
		{"add", "\n", "@@ -0,0 +1,1\n+\n+1 -0"},
		{"add", "a\r\nb\r\n", "@@ -0,0 +1,2\n+a␍\n+b␍\n+2 -0"},
		// The kind decides: an update is a diff, even when the text could be content.
		{"update", "@@ -1 +1 @@\n-a\n+b\n", "@@ -1,1 +1,1\n-a\n+b\n+1 -1"},
	}
	for _, c := range cases {
		if got := dump(ReadChange(c.kind, c.text)); got != c.want {
			t.Errorf("%s %q: got\n%s\nwant\n%s", c.kind, c.text, got, c.want)
		}
	}
}

// The turn diff codex 0.169.0 sent for a move, a delete, an update and an
// add (turn/diff/updated, seen through the app-server).
const turnDiff = "diff --git a/a.txt b/b.txt\nindex b7f4ed9..7bd4c4e\n--- a/a.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n-x\n+y\n keep\n" +
	"diff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\nindex 912543b..0000000\n--- a/gone.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n---a\n-++b\n" +
	"diff --git a/schema.sql b/schema.sql\nindex fa55d2a..2c45713\n--- a/schema.sql\n+++ b/schema.sql\n@@ -1,3 +1,3 @@\n create table t;\n--- SECURITY: keep the audit trigger\n+--- new\n create trigger a;\n" +
	"diff --git a/tool.py b/tool.py\nnew file mode 100644\nindex 0000000..a33b27d\n--- /dev/null\n+++ b/tool.py\n@@ -0,0 +1,4 @@\n+print(1)\n+++__import__('os').system('touch PWNED')\n+@@ -1 +1 @@\n+done\n"

func TestParseAll(t *testing.T) {
	cases := []struct {
		name, diff string
		want       []string // per file: "old → new +a -r hunks"
	}{
		{"git turn diff", turnDiff, []string{"a.txt → b.txt +1 -1 1", "gone.txt → /dev/null +0 -2 1", "schema.sql → schema.sql +1 -1 1", "/dev/null → tool.py +4 -0 1"}},
		{"plain --- +++ pairs", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n--- a/y\n+++ b/y\n@@ -1 +1,2 @@\n a\n+c\n", []string{"x → x +1 -1 1", "y → y +1 -0 1"}},
		// A "diff --git" line inside a hunk's counts is content of it
		// (here a context line of a file that has such a line).
		{"diff line inside a hunk", "diff --git a/p b/p\n--- a/p\n+++ b/p\n@@ -1,2 +1,2 @@\n-x\n+y\n diff --git a/q b/q\n", []string{"p → p +1 -1 1"}},
		{"blank lines only", "\n\n", nil},
		{"binary and mode only", "diff --git a/i.png b/i.png\nBinary files a/i.png and b/i.png differ\ndiff --git a/s.sh b/s.sh\nold mode 100644\nnew mode 100755\n", []string{"i.png → i.png +0 -0 0", "s.sh → s.sh +0 -0 0"}},
	}
	for _, c := range cases {
		var got []string
		for _, f := range ParseAll(c.diff) {
			got = append(got, fmt.Sprintf("%s → %s +%d -%d %d", f.OldPath, f.NewPath, f.Added, f.Removed, len(f.Hunks)))
			if err := f.Err(); err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
	// A hunk that runs short into the next file's "diff" line: two
	// files, the first one's hunk saying so.
	short := ParseAll("diff --git a/p b/p\n@@ -1,3 +1,3 @@\n a\ndiff --git a/q b/q\n@@ -1 +1 @@\n-x\n+y\n")
	if len(short) != 2 || short[0].Err() == nil || !strings.Contains(short[0].Err().Error(), "lines missing") || short[1].Path() != "q" || short[1].Added != 1 {
		t.Errorf("a hunk run short into the next file: %+v", short)
	}
	fs := ParseAll(turnDiff)
	if p := fs[1].Path(); p != "gone.txt" {
		t.Errorf("a deleted file's path %q", p)
	}
	if fs[3].Hunks[0].Lines[1].Text != "++__import__('os').system('touch PWNED')" {
		t.Errorf("the added file's second line: %q", fs[3].Hunks[0].Lines[1].Text)
	}
}
