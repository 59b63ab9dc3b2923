package ui

import (
	"regexp"
	"strings"
)

// RenderCell draws one cell as it goes into the terminal's scrollback
// (--no-alt-screen): fully (ctx.Tail is ignored), collapsed as inline,
// every line cut to width cells and without trailing blanks (the
// terminal's selection then copies no padding). The lines are the
// caller's; nothing is cached, since a finished cell is printed once.
func RenderCell(c Cell, ctx *RenderContext, width int) []string {
	full := *ctx
	full.Tail = 0
	lines := RenderFitted(c, &full, width)
	for i, l := range lines {
		lines[i] = TrimRight(l)
	}
	return lines
}

// trailing matches a line's trailing blanks and the SGR sequences among
// them.
var trailing = regexp.MustCompile(`(?:\x1b\[[0-9;:]*m| )+$`)

// TrimRight drops the spaces at the end of a styled line, keeping its
// escape sequences (a reset at the end stays).
func TrimRight(l string) string {
	loc := trailing.FindStringIndex(l)
	if loc == nil {
		return l
	}
	return l[:loc[0]] + strings.ReplaceAll(l[loc[0]:], " ", "")
}

// Start returns the first line of cell i as of the last Sync, or Total
// when i is past the last cell (the live area of --no-alt-screen starts
// at the first cell not printed yet).
func (t *Transcript) Start(i int) int {
	if i < 0 {
		return 0
	}
	if i >= len(t.Cells) || i >= len(t.starts) || i >= t.validStarts {
		return t.total
	}
	return t.starts[i]
}
