package ui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"tandem/internal/lib/unidiff"
	"tandem/thread"
)

// Every diff drawn here is read by internal/lib/unidiff: hunks by their
// header counts (a line inside one is content whatever it starts with),
// an added or deleted file's content by its kind.

// FileDiffStat counts the added and removed lines of one file of a
// fileChange, read by its kind: every line of an added or deleted
// file's content, the "+" and "-" lines of an update's hunks.
func FileDiffStat(f FileDiff) (added, removed int) {
	d := unidiff.ReadChange(f.Kind, f.Diff)
	return d.Added, d.Removed
}

// DiffStat counts the added and removed lines of a unified diff of one
// file or many (its hunks' "+" and "-" lines; headers are not lines).
func DiffStat(diff string) (added, removed int) {
	for _, f := range unidiff.ParseAll(diff) {
		added += f.Added
		removed += f.Removed
	}
	return
}

// RenderFileDiff colours one file's change (read by its kind) as a
// unified diff with old and new line numbers in a gutter, at most
// maxLines diff rows (0 = 40) and a "+N lines" note for the rest. An
// added or deleted file's content is shown as all "+" or all "−" lines,
// each exactly as in the file. A hunk whose lines disagree with its
// header's counts is shown whole under a warning.
func RenderFileDiff(st Styles, f FileDiff, width, maxLines int) []string {
	return renderFileDiff(styled, st, f, width, maxLines)
}

// renderFileDiff is RenderFileDiff, its styles applied by paint.
func renderFileDiff(paint painter, st Styles, f FileDiff, width, maxLines int) []string {
	d := unidiff.ReadChange(f.Kind, f.Diff)
	return renderRowsWith(paint, st, diffRows(d, f.Kind == thread.FileAdd || f.Kind == thread.FileDelete), width, maxLines)
}

// painter applies a style to text: styled does, unstyled lays the text
// out as it is (the same lines, for a cell off screen: see Lazy).
type painter func(lipgloss.Style, string) string

func styled(st lipgloss.Style, s string) string  { return st.Render(s) }
func unstyled(_ lipgloss.Style, s string) string { return s }

// rowKind is how a diff row is drawn.
type rowKind int

const (
	rowContext rowKind = iota
	rowAdd
	rowDel
	rowNote // dim text under the gutter: a header, "\ No newline…"
	rowWarn // a problem of the diff
	rowSep  // between hunks
)

// diffRow is one row of a drawn diff before wrapping: its gutter number
// and its text (without the sign).
type diffRow struct {
	kind rowKind
	num  int // 0: no number
	text string
}

// diffRows lays d out as rows: its problems, the headers worth showing
// (modes, moves, binary notes, anything that is not a diff's), and every
// line of every hunk; content marks an added or deleted file's content
// (an empty one says so).
func diffRows(d unidiff.File, content bool) []diffRow {
	var rows []diffRow
	for _, p := range d.Problems {
		rows = append(rows, diffRow{kind: rowWarn, text: p})
	}
	headers := func(before int) {
		for _, h := range d.Headers {
			if h.Before != before {
				continue
			}
			switch h.Kind {
			case unidiff.GitDiff, unidiff.Index, unidiff.OldFile, unidiff.NewFile:
				// The file's title says what these do.
			default:
				rows = append(rows, diffRow{kind: rowNote, text: h.Text})
			}
		}
	}
	for i, h := range d.Hunks {
		headers(i)
		if i > 0 {
			rows = append(rows, diffRow{kind: rowSep})
		}
		if h.Problem != "" {
			rows = append(rows, diffRow{kind: rowWarn, text: fmt.Sprintf("this hunk's lines are shown as they came, but %s", h.Problem)})
		}
		oldN, newN := h.OldStart, h.NewStart
		for _, l := range h.Lines {
			switch l.Op {
			case unidiff.Add:
				rows = append(rows, diffRow{kind: rowAdd, num: newN, text: l.Text})
				newN++
			case unidiff.Delete:
				rows = append(rows, diffRow{kind: rowDel, num: oldN, text: l.Text})
				oldN++
			default:
				rows = append(rows, diffRow{kind: rowContext, num: newN, text: l.Text})
				oldN++
				newN++
			}
			if l.NoNewline {
				rows = append(rows, diffRow{kind: rowNote, text: `\ No newline at end of file`})
			}
		}
	}
	headers(len(d.Hunks))
	if content && len(d.Hunks) == 0 {
		rows = append(rows, diffRow{kind: rowNote, text: "(empty file)"})
	}
	return rows
}

// renderRows draws rows at width, at most maxLines of them (0 = 40), a
// "… +N lines" note for the rest; long lines wrap under the gutter.
func renderRows(st Styles, rows []diffRow, width, maxLines int) []string {
	return renderRowsWith(styled, st, rows, width, maxLines)
}

// renderRowsWith is renderRows, its styles applied by paint.
func renderRowsWith(paint painter, st Styles, rows []diffRow, width, maxLines int) []string {
	if maxLines <= 0 {
		maxLines = 40
	}
	nw := 1 // gutter width: the largest line number
	for _, r := range rows {
		nw = max(nw, len(strconv.Itoa(r.num)))
	}
	blank := "    " + strings.Repeat(" ", nw) + " "
	var lines []string
	for i, r := range rows {
		if i == maxLines {
			lines = append(lines, paint(st.Dim, fmt.Sprintf("    … +%d lines", len(rows)-i)))
			break
		}
		var sign string
		sty := st.Dim
		switch r.kind {
		case rowSep:
			lines = append(lines, paint(st.DiffHunk, "    "+strings.Repeat(" ", nw)+" ⋮"))
			continue
		case rowWarn:
			for _, w := range Wrap("⚠ "+SanitizeLine(r.text), width-4) {
				lines = append(lines, "    "+paint(st.Warn, w))
			}
			continue
		case rowNote:
			sign = " "
		case rowAdd:
			sign, sty = "+", st.DiffAdd
		case rowDel:
			sign, sty = "-", st.DiffDel
		default:
			sign = " "
		}
		gutter := blank
		if r.num > 0 || r.kind != rowNote {
			num := strconv.Itoa(r.num)
			gutter = "    " + strings.Repeat(" ", nw-len(num)) + num + " "
		}
		for j, w := range Wrap(sign+SanitizeLine(r.text), width-len(gutter)) {
			g := gutter
			if j > 0 {
				g = blank
			}
			lines = append(lines, paint(st.Dim, g)+paint(sty, w))
		}
	}
	return lines
}

// DiffCell draws a diff of many files (the turn's diff, /diff): a title,
// then for each file its path, what happened to it and its counts, and
// every line.
type DiffCell struct {
	versioned
	Title string
	Diff  string
}

// Render implements Cell.
func (c *DiffCell) Render(ctx *RenderContext, width int) []string {
	st := ctx.Styles
	lines := []string{"", st.Info.Render("ℹ ") + st.Info.Render(Truncate(SanitizeLine(c.Title), width-2))}
	for _, f := range unidiff.ParseAll(c.Diff) {
		head := SanitizeLine(diffFileTitle(f)) + " "
		lines = append(lines, st.Accent.Render("✎ ")+st.DiffHeader.Render(Truncate(head, width-16))+
			st.DiffAdd.Render(fmt.Sprintf("+%d", f.Added))+" "+st.DiffDel.Render(fmt.Sprintf("−%d", f.Removed)))
		lines = append(lines, renderRows(*st, diffRows(f, false), width, 1<<30)...)
	}
	return lines
}

// diffFileTitle names a file of a many-file diff: its path, and whether
// it was added, deleted or renamed.
func diffFileTitle(f unidiff.File) string {
	switch {
	case f.OldPath == "/dev/null":
		return "added " + f.NewPath
	case f.NewPath == "/dev/null":
		return "deleted " + f.OldPath
	case f.OldPath != "" && f.NewPath != "" && f.OldPath != f.NewPath:
		return f.OldPath + " → " + f.NewPath
	case f.Path() == "":
		return "(no file named)"
	}
	return f.Path()
}
