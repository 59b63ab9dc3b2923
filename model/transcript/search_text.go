package transcript

import (
	"strings"

	"tandem/internal/lib/find"
	"tandem/thread"
	"tandem/ui"
)

// What a search looks in: a cell's whole text, not what it draws — a
// command's output past its head and tail, a reasoning summary drawn as
// its heading, a diff past the lines shown, a tool call's every detail
// line. A cell's text is kept (per version) while the search line is
// open, folded once for a query that ignores case, so a keystroke costs
// the counting only.

// cellText is a cell's searchable text as of its version.
type cellText struct {
	cell        ui.Cell
	version     int
	raw, folded string
	hasFolded   bool
}

// texts are the kept texts of one search, by the cell's index (a cell
// found at another index, after earlier turns went in above, is read
// again).
type texts []cellText

// of returns the text of c, cell i, as q counts in it.
func (t *texts) of(i int, c ui.Cell, q find.Query) string {
	if i >= len(*t) {
		*t = append(*t, make([]cellText, i+1-len(*t))...)
	}
	e := &(*t)[i]
	if e.cell != c || e.version != c.Version() {
		*e = cellText{cell: c, version: c.Version(), raw: CellText(c)}
	}
	if !q.Folds() {
		return e.raw
	}
	if !e.hasFolded {
		e.folded, e.hasFolded = find.Fold(e.raw), true
	}
	return e.folded
}

// outputLines is how many lines of a command's output, at its head and
// its tail, a search reads: what the output keeps in memory and the
// cell can draw (the middle of a huge output is in a spill file).
const outputLines = 2 * ui.ExpandedLines

// CellText is what a search looks in for cell c: its whole text (a user
// message, an answer's Markdown, a reasoning summary, a command line
// and its output, every file and diff line, a tool call's title and
// detail, a plan's steps, a banner), "" for a cell with none.
func CellText(c ui.Cell) string {
	switch c := c.(type) {
	case *ui.UserCell:
		if len(c.Images) == 0 {
			return c.Text
		}
		return c.Text + "\n" + strings.Join(c.Images, "\n")
	case *ui.AgentCell:
		return c.Item.Text()
	case *ui.ReasoningCell:
		return strings.ReplaceAll(c.Item.Text(), "**", "")
	case *ui.CommandCell:
		return commandText(c.Item)
	case *ui.FileChangeCell:
		var b strings.Builder
		for _, f := range c.Files() {
			b.WriteString(f.Path + "\n")
			if f.MovePath != "" {
				b.WriteString(f.MovePath + "\n")
			}
			b.WriteString(f.Diff + "\n")
		}
		return b.String()
	case *ui.PlanCell:
		var b strings.Builder
		b.WriteString(c.Item.Text() + "\n")
		for _, s := range c.Item.Steps {
			b.WriteString(s.Step + "\n")
		}
		return b.String()
	case *ui.ToolCell:
		return c.Item.Title + "\n" + c.Item.Detail + "\n" + c.Item.Progress
	case *ui.BannerCell:
		if len(c.Detail) == 0 {
			return c.Text
		}
		return c.Text + "\n" + strings.Join(c.Detail, "\n")
	}
	return ""
}

// commandText is a command's line and the output it keeps in memory.
func commandText(it *thread.Item) string {
	var b strings.Builder
	b.WriteString(ui.CommandText(it.Command) + "\n")
	if o := it.Output; o != nil {
		if n := o.Lines(); n <= outputLines {
			b.WriteString(strings.Join(o.Tail(int(n)), "\n"))
		} else {
			b.WriteString(strings.Join(o.Head(outputLines/2), "\n") + "\n")
			b.WriteString(strings.Join(o.Tail(outputLines/2), "\n"))
		}
	}
	return b.String()
}

// foldText is find.Fold (a query that ignores case counts in it).
func foldText(s string) string { return find.Fold(s) }
