package textedit

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/clipperhouse/uax29/v2/graphemes"
)

// Backspace, Delete, Left and Right take whole grapheme clusters: a ZWJ
// sequence, a flag, a letter with a combining accent, a keycap, Hangul
// and CJK each go in one step.
func TestGraphemeClusters(t *testing.T) {
	cases := []struct {
		name, before, last string // last: the cluster that ends the text
	}{
		{"ascii", "abc", "c"},
		{"ZWJ sequence", "a ", "👩\u200d💻"},
		{"family", "", "👨\u200d👩\u200d👧\u200d👦"},
		{"flag", "🇩🇪", "🇫🇷"},
		{"combining acute", "caf", "e\u0301"},
		{"two combining marks", "", "a\u0301\u0323"},
		{"keycap", "", "1\ufe0f\u20e3"},
		{"skin tone", "ok ", "👍🏽"},
		{"Hangul syllables", "한", "국"},
		{"Hangul jamo", "", "\u1100\u1161\u11a8"},
		{"CJK", "日本", "語"},
		{"kana with voicing mark", "か", "か\u3099"},
		{"emoji presentation", "", "❤\ufe0f"},
		// Unicode 15.1 joins a conjunct (consonant, virama, consonant):
		// three clusters, as x/ansi counts them.
		{"Devanagari conjunct", "नम", "स्ते"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := c.before + c.last
			b := New(40)
			b.SetText(text)
			if !b.Backspace() || b.Text() != c.before {
				t.Fatalf("Backspace after %q left %q, want %q", text, b.Text(), c.before)
			}
			b.SetText(text)
			b.Left()
			if got := b.Cursor().Col; got != len(c.before) {
				t.Fatalf("Left from the end of %q: col %d, want %d", text, got, len(c.before))
			}
			if !b.Delete() || b.Text() != c.before {
				t.Fatalf("Delete before %q left %q, want %q", c.last, b.Text(), c.before)
			}
			b.SetText(text)
			b.Top()
			steps := 0
			for b.Cursor().Col < len(text) {
				b.Right()
				steps++
			}
			if want := clusters(text); steps != want {
				t.Fatalf("Right took %d steps over %q, want %d clusters", steps, text, want)
			}
			// Widths as the renderer measures them for the terminal: code
			// point by code point without Unicode core mode, by cluster
			// with it.
			if got, want := b.TextWidth(text), ansi.StringWidthWc(text); got != want {
				t.Errorf("TextWidth(%q) = %d, the renderer measures %d (WcWidth)", text, got, want)
			}
			b.SetMethod(ansi.GraphemeWidth)
			if got, want := b.TextWidth(text), ansi.StringWidth(text); got != want {
				t.Errorf("TextWidth(%q) = %d, the renderer measures %d (GraphemeWidth)", text, got, want)
			}
		})
	}
}

// A combining mark typed after its letter (as a separate key) joins it;
// the cursor stays on a cluster boundary after an insert that makes a
// cluster with the text after it.
func TestInsertJoinsClusters(t *testing.T) {
	b := New(40)
	b.Insert("cafe")
	b.Insert("\u0301")
	if !b.Backspace() || b.Text() != "caf" {
		t.Fatalf("after e + U+0301, Backspace left %q", b.Text())
	}
	b.SetText("\u0301x")
	b.Top()
	b.Insert("e")
	if c := b.Cursor().Col; c != len("e\u0301") {
		t.Fatalf("cursor at %d inside the cluster e+U+0301, want %d", c, len("e\u0301"))
	}
	b.SetText("👩\u200d")
	b.Insert("💻")
	if !b.Backspace() || b.Text() != "" {
		t.Fatalf("a ZWJ sequence typed in two keys is one cluster; Backspace left %q", b.Text())
	}
}

func TestSanitize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain", "plain"},
		{"a\r\nb", "a\nb"},
		{"a\rb\r", "a\nb\n"},
		{"a\r\r\nb", "a\n\nb"},
		{"\tx", "    x"},
		{"a\x1b[31mb", "a[31mb"},
		{"bad\xffutf8", "badutf8"},
		{"日本\u200d", "日本\u200d"},
		{"a\u202eevil\u202c.go", "aevil.go"},   // an override: the draft's letters would show reversed
		{"\u2066x\u2069 \u200fy", "x \u200fy"}, // an isolate goes, a plain RTL mark stays
		{"c1\u0085x", "c1x"},
	}
	for _, c := range cases {
		if got := Sanitize(c.in); got != c.want {
			t.Errorf("Sanitize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// rowsOf returns the buffer's rows as text.
func rowsOf(b *Buffer) []string {
	var out []string
	for _, r := range b.Window(0, b.Rows()) {
		out = append(out, r.Text)
	}
	return out
}

func TestWrap(t *testing.T) {
	cases := []struct {
		text  string
		width int
		rows  []string
	}{
		{"hello world", 20, []string{"hello world"}},
		{"hello world", 8, []string{"hello ", "world"}},
		{"hello world", 5, []string{"hello ", "world", ""}}, // the cursor's cell after a full row
		{"abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"ab   cd", 3, []string{"ab   ", "cd"}}, // spaces hang
		{"日本語のテキスト", 6, []string{"日本語", "のテキ", "スト"}},
		{"ab日本", 5, []string{"ab日", "本"}},
		{"👩\u200d💻👩\u200d💻👩\u200d💻", 8, []string{"👩\u200d💻👩\u200d💻", "👩\u200d💻"}}, // 4 cells each without Unicode core mode
		{"日", 1, []string{"日", ""}},
		{"नमस्ते दुनिया", 8, []string{"नमस्ते ", "दुनिया"}}, // नि and या are 2 cells each but no break
		{"one\n\ntwo", 10, []string{"one", "", "two"}},
	}
	for _, c := range cases {
		b := New(c.width)
		b.SetText(c.text)
		if got := rowsOf(b); !slices.Equal(got, c.rows) {
			t.Errorf("%q at width %d: rows %q, want %q", c.text, c.width, got, c.rows)
		}
		if b.Rows() != len(c.rows) {
			t.Errorf("%q at width %d: Rows() = %d, want %d", c.text, c.width, b.Rows(), len(c.rows))
		}
	}
}

// check compares the buffer's incremental state with a fresh layout of
// its text.
func check(t *testing.T, b *Buffer, want string, step int) {
	t.Helper()
	if got := b.Text(); got != want {
		t.Fatalf("step %d: text %q, want %q", step, got, want)
	}
	if b.Len() != len(want) {
		t.Fatalf("step %d: Len %d, want %d", step, b.Len(), len(want))
	}
	fresh := New(b.width)
	fresh.SetText(want)
	rows := 0
	for i := range b.paras {
		if !slices.Equal(b.paras[i].starts, fresh.paras[i].starts) {
			t.Fatalf("step %d: line %d %q wrapped at %v, a fresh layout at %v", step, i, b.paras[i].text, b.paras[i].starts, fresh.paras[i].starts)
		}
		rows += len(b.paras[i].starts)
	}
	if b.Rows() != rows {
		t.Fatalf("step %d: Rows %d, want %d", step, b.Rows(), rows)
	}
	above := 0
	for _, p := range b.paras[:b.row] {
		above += len(p.starts)
	}
	if got := b.rowsAbove(); got != above {
		t.Fatalf("step %d: %d rows above the cursor, want %d", step, got, above)
	}
	c := b.Cursor()
	if line := b.paras[c.Row].text; c.Col > len(line) || snap(line, c.Col) != c.Col {
		t.Fatalf("step %d: cursor %v is not on a cluster boundary of %q", step, c, line)
	}
}

// Random edits keep the incremental wrap, the counts and the cursor equal
// to what a fresh layout of the same text gives.
func TestEditsMatchFreshLayout(t *testing.T) {
	pieces := []string{"a", "b", " ", "  ", "word", "日本", "👩\u200d💻", "🇫🇷", "e\u0301", "\n", "longerwordthanthewidth", "x y z", "\u0301"}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, width := range []int{1, 3, 7, 12} {
		b := New(width)
		for step := range 3000 {
			switch op := rng.IntN(12); op {
			case 0, 1, 2, 3:
				b.Insert(pieces[rng.IntN(len(pieces))])
			case 4:
				b.Backspace()
			case 5:
				b.Delete()
			case 6:
				b.Left()
			case 7:
				b.Right()
			case 8:
				if rng.IntN(2) == 0 {
					b.Up()
				} else {
					b.Down()
				}
			case 9:
				if rng.IntN(2) == 0 {
					b.WordLeft()
				} else {
					b.DeleteWordRight()
				}
			case 10:
				if rng.IntN(4) == 0 {
					b.KillToEnd()
				} else {
					b.DeleteWordLeft()
				}
			case 11:
				if rng.IntN(3) == 0 {
					from := b.Cursor()
					b.Insert("pasted\ntext\nhere")
					// The cursor may have moved past a combining mark
					// that now joins the inserted text's last letter.
					if got := b.Slice(from); !strings.HasPrefix(got, "pasted\ntext\nhere") {
						t.Fatalf("Slice = %q", got)
					}
					b.DeleteSlice(from)
				} else {
					b.Case(Upper)
				}
			}
			// The model's text, rebuilt from the lines.
			lines := make([]string, b.Lines())
			for i := range lines {
				lines[i] = b.Line(i)
			}
			check(t, b, strings.Join(lines, "\n"), step)
			if b.Len() > 400 {
				b.SetText(b.Text()[:0])
			}
		}
	}
}

func TestUpDownKeepColumn(t *testing.T) {
	b := New(40)
	b.SetText("first line\nab\nthird line here")
	b.Up()
	if c := b.Cursor(); c.Row != 1 || c.Col != 2 {
		t.Fatalf("Up from the end of line 3: %v, want the end of line 2", c)
	}
	b.Up()
	if c := b.Cursor(); c.Row != 0 || c.Col != len("first line") {
		t.Fatalf("a second Up keeps the column: %v", c)
	}
	b.Up()
	if c := b.Cursor(); c != (Pos{0, 0}) {
		t.Fatalf("Up on the first row goes to the start: %v", c)
	}
	b.SetText(strings.Repeat("abcd ", 4)) // two rows at width 10
	b.SetWidth(10)
	b.Top()
	b.Down()
	if c := b.Cursor(); c.Col != 10 || b.CursorRow() != 1 {
		t.Fatalf("Down within a wrapped line: %v row %d", c, b.CursorRow())
	}
}

func TestWindowFollowsCursor(t *testing.T) {
	b := New(10)
	b.SetText(strings.Repeat("line\n", 20) + "last")
	rows := b.Window(b.CursorRow()-2, 3)
	if len(rows) != 3 || rows[2].Text != "last" || rows[2].Cursor != 4 || rows[0].Cursor != -1 {
		t.Fatalf("window %+v", rows)
	}
	b.Top()
	rows = b.Window(0, 2)
	if rows[0].Cursor != 0 || rows[0].Under != "l" {
		t.Fatalf("window at the top %+v", rows)
	}
}

// clusters counts the grapheme clusters of s by UAX #29 (the segmenter
// under lipgloss's widths).
func clusters(s string) int {
	n := 0
	for g := graphemes.FromString(s); g.Next(); {
		n++
	}
	return n
}

// The rows wrap at the terminal's widths: without Unicode core mode
// नमस्ते दुनिया is 10 cells (code point by code point, as tmux and xterm
// draw it), so at width 11 a row holds it and a space; with the mode it
// is 7, and the next word joins the row. SetMethod re-wraps.
func TestWrapFollowsMethod(t *testing.T) {
	b := New(11)
	b.SetText("नमस्ते दुनिया ab")
	if got := rowsOf(b); len(got) != 2 || got[0] != "नमस्ते दुनिया " {
		t.Fatalf("WcWidth rows %q", got)
	}
	b.SetMethod(ansi.GraphemeWidth)
	if got := rowsOf(b); len(got) != 1 {
		t.Fatalf("GraphemeWidth rows %q", got)
	}
	b.SetMethod(ansi.WcWidth)
	if got := rowsOf(b); len(got) != 2 {
		t.Fatalf("back to WcWidth: rows %q", got)
	}
}

// Each deletion takes its span of the cursor's line and leaves the cursor
// at the span's start; at the line's edge it joins the neighbouring line,
// and at the text's edge it deletes nothing and reports false.
func TestDeletions(t *testing.T) {
	const text = "ab cd ef\ngh ij" // line 0 ends at offset 8, line 1 starts at 9
	cases := []struct {
		name   string
		op     func(*Buffer) bool
		at     int
		ok     bool
		want   string
		cursor int // offset afterwards
	}{
		{"Backspace", (*Buffer).Backspace, 5, true, "ab c ef\ngh ij", 4},
		{"Backspace at a line's start", (*Buffer).Backspace, 9, true, "ab cd efgh ij", 8},
		{"Backspace at the start", (*Buffer).Backspace, 0, false, text, 0},
		{"Delete", (*Buffer).Delete, 3, true, "ab d ef\ngh ij", 3},
		{"Delete at a line's end", (*Buffer).Delete, 8, true, "ab cd efgh ij", 8},
		{"Delete at the end", (*Buffer).Delete, len(text), false, text, len(text)},
		{"DeleteWordLeft", (*Buffer).DeleteWordLeft, 5, true, "ab  ef\ngh ij", 3},
		{"DeleteWordLeft at a line's start", (*Buffer).DeleteWordLeft, 9, true, "ab cd efgh ij", 8},
		{"DeleteWordRight", (*Buffer).DeleteWordRight, 2, true, "ab ef\ngh ij", 2},
		{"DeleteWordRight at a line's end", (*Buffer).DeleteWordRight, 8, true, "ab cd efgh ij", 8},
		{"KillToEnd", (*Buffer).KillToEnd, 3, true, "ab \ngh ij", 3},
		{"KillToEnd at a line's end", (*Buffer).KillToEnd, 8, true, "ab cd efgh ij", 8},
		{"KillToEnd at the end", (*Buffer).KillToEnd, len(text), false, text, len(text)},
		{"KillToStart", (*Buffer).KillToStart, 12, true, "ab cd ef\nij", 9},
		{"KillToStart at a line's start", (*Buffer).KillToStart, 9, true, "ab cd efgh ij", 8},
		{"KillToStart at the start", (*Buffer).KillToStart, 0, false, text, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := New(40)
			b.SetText(text)
			b.SetOffset(c.at)
			ok := c.op(b)
			if ok != c.ok || b.Text() != c.want || b.Offset() != c.cursor {
				t.Errorf("at %d: %v, %q, cursor %d; want %v, %q, cursor %d", c.at, ok, b.Text(), b.Offset(), c.ok, c.want, c.cursor)
			}
		})
	}
}
