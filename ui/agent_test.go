package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func testCtx() *RenderContext {
	return &RenderContext{Styles: new(NewStyles(true)), Markdown: NewMarkdown("notty")}
}

// streamed feeds src to a cell in pieces of n bytes (never splitting a
// rune), rendering after each piece, and returns the final render.
func streamed(t testing.TB, src string, n, width int) (*testAgent, []string) {
	c := newTestAgent()
	ctx := testCtx()
	for len(src) > 0 {
		k := min(n, len(src))
		for k < len(src) && !utf8Start(src[k]) {
			k++
		}
		c.Append(src[:k])
		src = src[k:]
		c.Render(ctx, width)
	}
	c.SetFinal(c.Text())
	return c, c.Render(ctx, width)
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

func TestAgentStreamingMatchesOneShot(t *testing.T) {
	src := "# Title\n\nSome *intro* text.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\n```go\nfunc main() {\n\n\tprintln(1)\n}\n```\n\n- one\n- two\n\n- three\n\nend.\n"
	_, got := streamed(t, src, 3, 60)
	c2 := newTestAgent()
	c2.Append(src)
	c2.SetFinal(src)
	want := c2.Render(testCtx(), 60)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("streamed render differs from one-shot:\n%s\n---\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	joined := ansi.Strip(strings.Join(got, "\n"))
	for _, s := range []string{"Title", "println(1)", "three", "end."} {
		if strings.Count(joined, s) != 1 {
			t.Errorf("%q appears %d times", s, strings.Count(joined, s))
		}
	}
}

func TestScannerKeepsFenceAndListOpen(t *testing.T) {
	var s mdScanner
	src := "para\n\n```\ncode\n\nmore\n"
	s.advance(src)
	if len(s.segs) != 1 || src[s.segStart:] != "```\ncode\n\nmore\n" {
		t.Fatalf("segs %v tail %q", s.segs, src[s.segStart:])
	}
	src += "```\n\nafter\n"
	s.advance(src)
	if len(s.segs) != 2 || src[s.segStart:] != "after\n" {
		t.Fatalf("segs %v tail %q", s.segs, src[s.segStart:])
	}
	var l mdScanner
	src = "- a\n\n- b\n\n  cont\n\nnext\n"
	l.advance(src)
	if len(l.segs) != 1 || src[l.segs[0][0]:l.segs[0][1]] != "- a\n\n- b\n\n  cont\n" {
		t.Fatalf("list split wrongly: %v", l.segs)
	}
}

func TestOpenTailIsPlain(t *testing.T) {
	c := newTestAgent()
	c.Append("intro\n\n| a | b |\n|---|")
	lines := c.Render(testCtx(), 40)
	if got := strings.TrimSpace(lines[len(lines)-1]); got != "|---|" {
		t.Fatalf("open table tail not plain: %q", lines)
	}
}

func TestWithholdPartialGrapheme(t *testing.T) {
	cases := map[string]string{
		"hi 👩\u200d": "hi ",
		"flag 🇯":     "flag ",
		"flag 🇯🇵":    "flag 🇯🇵",
		"plain":      "plain",
		"漢字":         "漢字",
	}
	for in, want := range cases {
		if got := withholdPartialGrapheme(in); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
}

func TestWideTextFitsWidth(t *testing.T) {
	src := strings.Repeat("漢字テキスト👩‍👩‍👧 emoji ", 40) + "\n\n" + strings.Repeat("x", 5000) + "\n"
	for _, final := range []bool{false, true} {
		c := newTestAgent()
		c.Append(src)
		if final {
			c.SetFinal(src)
		}
		var tr Transcript
		tr.Append(c)
		for _, l := range tr.Lines(testCtx(), 50) {
			if w := ansi.StringWidth(l); w > 50 {
				t.Fatalf("line of width %d > 50: %q", w, l)
			}
		}
	}
}

func BenchmarkLongLineNoSpaces(b *testing.B) {
	src := strings.Repeat("x", 5000) + "\n"
	ctx := testCtx()
	for b.Loop() {
		c := newTestAgent()
		c.Append(src)
		c.SetFinal(src)
		c.Render(ctx, 100)
	}
}

// TestCutAnswerIsMarkdownWithMark: an answer cut mid-stream (thread
// Item.Cut: an interrupt, a steer) is drawn like a completed one, its
// open last block styled as Markdown, and ends with the dim "(cut)".
func TestCutAnswerIsMarkdownWithMark(t *testing.T) {
	cases := []struct {
		name, src string
		width     int
		last      string // the last line, stripped
	}{
		{"the mark follows the last word", "## Title\n\nsome **bold** and _more_ then a half-wri", 60, "  some bold and more then a half-wri (cut)"},
		{"a full last line gets a line of its own", "**" + strings.Repeat("x", 34) + "**", 40, "  (cut)"},
		{"a list cut mid-item", "- one\n- **two** thr", 40, "  • two thr (cut)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestAgent()
			ctx := testCtx()
			ctx.Markdown = NewMarkdown("dark") // notty keeps ** and `
			c.Append(tc.src)
			c.Render(ctx, tc.width)              // streaming: the tail is plain
			c.Item.Done, c.Item.Cut = true, true // as thread.State's cut does
			c.Item.Rev++
			c.Touch()
			lines := c.Render(ctx, tc.width)
			got := ansi.Strip(strings.Join(lines, "\n"))
			if c.Live() {
				t.Error("a cut answer is still live")
			}
			if last := ansi.Strip(lines[len(lines)-1]); last != tc.last {
				t.Errorf("last line %q, want %q\n%s", last, tc.last, got)
			}
			if strings.Contains(got, "**") || strings.Contains(got, "_") {
				t.Errorf("the cut tail is raw Markdown:\n%s", got)
			}
			if !strings.Contains(lines[len(lines)-1], testCtx().Styles.Dim.Render(CutMark)) {
				t.Errorf("the mark is not dim: %q", lines[len(lines)-1])
			}
		})
	}
}
