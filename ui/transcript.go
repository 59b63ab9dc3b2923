package ui

import (
	"github.com/charmbracelet/x/ansi"
)

// Transcript is the ordered list of cells with a per-cell render cache
// keyed by (version, width). Finished cells therefore render once per
// width.
type Transcript struct {
	Cells []Cell
	cache []cachedLines
}

type cachedLines struct {
	version, width int
	lines          []string
	ok             bool
}

// Append adds a cell at the end.
func (t *Transcript) Append(c Cell) {
	t.Cells = append(t.Cells, c)
}

// Reset removes every cell.
func (t *Transcript) Reset() {
	t.Cells = nil
	t.cache = nil
}

// Lines renders the whole transcript at width and returns its lines, each
// cut to width.
func (t *Transcript) Lines(ctx *RenderContext, width int) []string {
	if len(t.cache) < len(t.Cells) {
		t.cache = append(t.cache, make([]cachedLines, len(t.Cells)-len(t.cache))...)
	}
	var out []string
	for i, c := range t.Cells {
		e := &t.cache[i]
		if !e.ok || e.version != c.Version() || e.width != width {
			lines := c.Render(ctx, width)
			for j, l := range lines {
				if ansi.StringWidth(l) > width {
					lines[j] = ansi.Truncate(l, width, "")
				}
			}
			*e = cachedLines{version: c.Version(), width: width, lines: lines, ok: true}
		}
		out = append(out, e.lines...)
	}
	return out
}
