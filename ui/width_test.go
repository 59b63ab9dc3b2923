package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestLayoutMeasuresAsTheTerminalDraws: without mode 2027 (Styles.Width
// ansi.WcWidth, the renderer's default) a cluster such as 👩‍💻 is drawn 4
// cells wide, not lipgloss's 2. Every line the transcript and the status
// line lay out fits the width so measured, and no word is lost.
func TestLayoutMeasuresAsTheTerminalDraws(t *testing.T) {
	dev := "👩‍💻"
	words := func() []string {
		var w []string
		for i := range 24 {
			w = append(w, "w"+strings.Repeat("x", i%5)+dev)
		}
		return append(w, "END")
	}()
	text := "xxx" + dev + "AB CD " + strings.Join(words, " ")
	cases := []struct {
		name   string
		render func(ctx *RenderContext, width int) []string
		want   []string // what must be drawn, whole
	}{
		{"a completed answer (glamour)", func(ctx *RenderContext, width int) []string {
			c := newTestAgent()
			c.Append(text)
			c.SetFinal(text)
			return RenderFitted(c, ctx, width)
		}, append([]string{"xxx" + dev + "AB", "CD"}, words...)},
		{"an answer streaming (plain)", func(ctx *RenderContext, width int) []string {
			c := newTestAgent()
			c.Append(text + "\n\n| a | b |\n")
			return RenderFitted(c, ctx, width)
		}, append([]string{"xxx" + dev + "AB", "CD"}, words...)},
		{"a table row", func(ctx *RenderContext, width int) []string {
			c := newTestAgent()
			src := "| a | b |\n|---|---|\n| xxx" + dev + dev + dev + "AB | CD |\n"
			c.Append(src)
			c.SetFinal(src)
			return RenderFitted(c, ctx, width)
		}, []string{"CD"}},
		{"a banner (Wrap, fitted by the transcript)", func(ctx *RenderContext, width int) []string {
			return RenderFitted(&BannerCell{Kind: BannerWarning, Text: text}, ctx, width)
		}, append([]string{"CD"}, words...)},
		{"the status line", func(ctx *RenderContext, width int) []string {
			return []string{StatusLine(*ctx.Styles, StatusInfo{Model: "gpt " + dev + dev + dev, Cwd: "/w/" + dev + dev + "/x"}, width)}
		}, nil},
	}
	for _, tc := range cases {
		for _, width := range []int{20, 23, 31, 40, 57} {
			ctx := testCtx()
			ctx.Markdown = NewMarkdown("dark")
			lines := tc.render(ctx, width)
			for i, l := range lines {
				if w := ansi.StringWidthWc(l); w > width {
					t.Errorf("%s at %d: line %d is %d cells as drawn: %q", tc.name, width, i, w, ansi.Strip(l))
				}
			}
			got := Squash(ansi.Strip(strings.Join(lines, "\n")))
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%s at %d: %q is lost:\n%s", tc.name, width, w, ansi.Strip(strings.Join(lines, "\n")))
				}
			}
		}
	}
}

// Squash drops every blank, so words wrapped apart still read whole.
func Squash(s string) string { return strings.Join(strings.Fields(s), "") }

// TestCutTextEndsInEllipsis: a line the transcript must cut (a narrow
// command header with its state, a code line wider than the window) ends
// in "…", never mid-word with no mark. (glamour wraps code lines.)
func TestCutTextEndsInEllipsis(t *testing.T) {
	cases := []struct {
		name   string
		render func(ctx *RenderContext, width int) []string
		cut    string // a row that must be cut (it contains this)
	}{
		{"a narrow command header", func(ctx *RenderContext, width int) []string {
			c := newTestCommand("touch made.txt && echo done", "inProgress")
			c.awaiting = true
			return RenderFitted(c, ctx, width)
		}, "(a"},
	}
	for _, tc := range cases {
		for _, width := range []int{12, 20, 24, 31} {
			ctx := testCtx()
			ctx.Markdown = NewMarkdown("dark")
			found := false
			for _, l := range tc.render(ctx, width) {
				s := strings.TrimRight(ansi.Strip(l), " ")
				if !strings.Contains(s, tc.cut) {
					continue
				}
				found = true
				if !strings.HasSuffix(s, Ellipsis) && !strings.HasSuffix(s, ")") {
					t.Errorf("%s at %d: a cut row does not end in …: %q", tc.name, width, s)
				}
			}
			if !found {
				t.Errorf("%s at %d: no row holds %q", tc.name, width, tc.cut)
			}
		}
	}
}
