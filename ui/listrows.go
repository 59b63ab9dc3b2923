package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// ListRows draws the scrolling list of a picker or popup: at most
// maxRows of the n rows, the selected one (sel) in view and marked "› ",
// labels padded to one column (at most half the width) and details
// dimmed after them, every line cut to width. row returns a row's label
// and detail; plain styles the labels not selected. It returns the lines
// and the index after the last row drawn.
func ListRows(st Styles, plain lipgloss.Style, n, sel, maxRows, width int, row func(i int) (label, detail string)) ([]string, int) {
	start := 0
	if sel >= maxRows {
		start = sel - maxRows + 1
	}
	end := min(n, start+maxRows)
	labelW := 0
	for i := start; i < end; i++ {
		label, _ := row(i)
		labelW = max(labelW, lipgloss.Width(SanitizeLine(label)))
	}
	labelW = min(labelW, width/2)
	out := make([]string, 0, end-start)
	for i := start; i < end; i++ {
		label, detail := row(i)
		mark, sty := "  ", plain
		if i == sel {
			mark, sty = "› ", st.Accent.Bold(true)
		}
		label = Truncate(SanitizeLine(label), labelW)
		line := mark + sty.Render(label) + strings.Repeat(" ", max(0, labelW-lipgloss.Width(label)))
		if detail != "" {
			detail = SanitizeLine(strings.ReplaceAll(detail, "\n", " "))
			line += "  " + st.Dim.Render(Truncate(detail, max(1, width-labelW-4)))
		}
		out = append(out, Truncate(line, width))
	}
	return out, end
}
