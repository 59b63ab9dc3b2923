package ui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Widths measured the way the terminal draws text. Bubble Tea's renderer
// measures a line code point by code point (ansi.WcWidth) unless the
// terminal reports Unicode core mode (2027), when it measures by grapheme
// cluster (ansi.GraphemeWidth). lipgloss and glamour always measure by
// cluster, so without mode 2027 (tmux, xterm, most terminals) a cluster
// such as 👩‍💻 (two emoji and a joiner: 2 cells to lipgloss, 4 as drawn)
// makes a line wider than it was laid out, and the renderer cuts its end
// off. Styles.Width says which method the terminal uses; the functions
// here measure, cut and re-wrap with it.

// Width returns the cells s takes under m (escape sequences take none).
func Width(s string, m ansi.Method) int {
	if m == ansi.GraphemeWidth {
		return ansi.StringWidth(s)
	}
	return ansi.StringWidthWc(s)
}

// Cut cuts s to width cells as measured under m, ending in "…" when it
// was longer: the one way text is cut short on screen.
func Cut(s string, width int, m ansi.Method) string {
	if width <= 0 {
		return ""
	}
	if m == ansi.GraphemeWidth {
		return ansi.Truncate(s, width, Ellipsis)
	}
	// TruncateWc (x/ansi 0.11) keeps the whole text when a wide cluster
	// straddles the cut: cut shorter until it fits.
	for w := width; w > 0; w-- {
		if out := ansi.TruncateWc(s, w, Ellipsis); ansi.StringWidthWc(out) <= width {
			return out
		}
	}
	return ""
}

// Ellipsis ends every text cut short.
const Ellipsis = "…"

// Fit makes every line of lines at most width cells wide under m, and
// returns them (the slice may be lines itself). A line that fits as
// lipgloss measured it (by cluster) but not as the terminal draws it is
// wrapped onto a line of its own, so nothing of it is lost; a line too
// wide either way (a code block's) is cut, ending in "…".
func Fit(lines []string, width int, m ansi.Method) []string {
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !wider(l, width, m) {
			continue
		}
		if m == ansi.WcWidth && ansi.StringWidth(l) <= width {
			rows := checked(strings.Split(ansi.HardwrapWc(l, width, true), "\n"), width, m)
			lines = slices.Replace(lines, i, i+1, rows...)
			i += len(rows) - 1
			continue
		}
		lines[i] = Cut(l, width, m)
	}
	return lines
}

// wider reports whether l takes more than width cells under m, measuring
// only when it could: a line of no more bytes than width is narrower (no
// code point is wider than its UTF-8 encoding is long).
func wider(l string, width int, m ansi.Method) bool {
	return len(l) > width && Width(l, m) > width
}

// WrapTo is Wrap measuring under m: text hard-wrapped to width cells as
// the terminal draws them, breaking long words.
func WrapTo(s string, width int, m ansi.Method) []string {
	if m == ansi.GraphemeWidth {
		return Wrap(s, width)
	}
	if width < 1 {
		width = 1
	}
	s = ExpandTabs(strings.ReplaceAll(s, "\r\n", "\n"))
	out := make([]string, 0, strings.Count(s, "\n")+1)
	for _, line := range strings.Split(s, "\n") {
		if !wider(line, width, m) {
			out = append(out, line)
			continue
		}
		out = append(out, checked(strings.Split(ansi.WrapWc(line, width, ""), "\n"), width, m)...)
	}
	return out
}

// checked cuts the rows a wrap left wider than width under m (x/ansi's
// wrap can, at a wide cluster), so no row is ever drawn past the edge.
func checked(rows []string, width int, m ansi.Method) []string {
	for i, r := range rows {
		if wider(r, width, m) {
			rows[i] = Cut(r, width, m)
		}
	}
	return rows
}

// renderMarkdown renders Markdown block md at width cells as the terminal
// draws them. glamour wraps by cluster, so a block with clusters drawn
// wider without mode 2027 is rendered again narrower by what overflowed
// (a few times at most: only such clusters cost it), then Fit.
func renderMarkdown(ctx *RenderContext, md string, width int) []string {
	m := ctx.Styles.Width
	w := width
	var lines []string
	for range 3 {
		lines = trimBlank(ctx.Markdown.Render(md, w))
		over := 0
		for _, l := range lines {
			if wider(l, width, m) {
				over = max(over, Width(l, m)-width)
			}
		}
		if over == 0 || m == ansi.GraphemeWidth || w-over < 10 {
			break
		}
		w -= over
	}
	return Fit(lines, width, m)
}
