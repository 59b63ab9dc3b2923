package forms

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// diffView is a fixed-height window over pre-rendered diff lines, scrolled
// with shift+↑/↓ (a line) and ctrl+u/ctrl+d (half a window). It sits
// above an approval's choices, whose own keys it leaves alone.
//
// The lines were rendered for the width the form opened at; at a
// narrower width a line too long for it is broken into rows (wrapRows),
// never cut, so every cell of it can be read, and what is unread counts
// in rows.
type diffView struct {
	src    []string // the lines as given
	lines  []string // rows at width: src, long lines broken
	srcOf  []int    // the src line of each row
	height int
	top    int // first row shown
	width  int
	// seen is how many rows from the top have been in the window (the
	// deepest its bottom reached); readOn says the window holds the
	// request's own text, which must be read to its end before answering.
	seen   int
	readOn bool
	// info styles the position line: the theme's description style, a
	// colour measured for contrast (Faint's is the terminal's guess).
	info lipgloss.Style
	keys Keys // LineUp/Down and HalfUp/Down scroll it
}

// contMark starts each row of a line after its first.
const contMark = "↪ "

// wrapRows lays src out in rows at most w cells wide: a longer line is
// broken into rows, every cell of it kept (spaces too) and its styles
// carried on, each row after its first starting with mark. srcOf is the
// src line of each row.
func wrapRows(src []string, w int, mark lipgloss.Style) (rows []string, srcOf []int) {
	rows, srcOf = make([]string, 0, len(src)), make([]int, 0, len(src))
	markW := ansi.StringWidth(contMark)
	for i, l := range src {
		if ansi.StringWidth(l) <= w {
			rows, srcOf = append(rows, l), append(srcOf, i)
			continue
		}
		var b strings.Builder
		ww := lipgloss.NewWrapWriter(&b) // each row closes its styles, the next opens them again
		_, _ = io.WriteString(ww, ansi.Hardwrap(l, max(1, w-markW), true))
		_ = ww.Close()
		for j, r := range strings.Split(b.String(), "\n") {
			if j > 0 {
				r = mark.Render(contMark) + r
			}
			rows, srcOf = append(rows, r), append(srcOf, i)
		}
	}
	return rows, srcOf
}

// fit lays the window out at width, height rows, and notes what it
// shows as read.
func (d *diffView) fit(width, height int) {
	d.wrap(width)
	d.height = height
	d.top = max(0, min(d.top, len(d.lines)-d.height))
	d.markSeen()
}

// wrap breaks the rows for width anew when it changed, the window
// keeping its top line and the lines read whole (a line read in part is
// unread again).
func (d *diffView) wrap(width int) {
	width = max(10, width)
	if d.srcOf != nil && width == d.width {
		return
	}
	topSrc, seenSrc := 0, 0
	if d.srcOf != nil { // laid out before: keep the place and what was read
		seenSrc = d.seenSrc()
		if d.top < len(d.srcOf) {
			topSrc = d.srcOf[d.top]
		}
	}
	d.lines, d.srcOf = wrapRows(d.src, width, d.info)
	d.top, d.seen = sort.SearchInts(d.srcOf, topSrc), sort.SearchInts(d.srcOf, seenSrc)
	d.width = width
}

// seenSrc is how many src lines have been on screen whole.
func (d *diffView) seenSrc() int {
	if d.seen >= len(d.lines) {
		return len(d.src)
	}
	return d.srcOf[d.seen]
}

// markSeen notes the window's bottom as read.
func (d *diffView) markSeen() {
	d.seen = max(d.seen, min(len(d.lines), d.top+d.height))
}

// scroll handles a scroll key and reports whether it was one.
func (d *diffView) scroll(k tea.KeyPressMsg) bool {
	if len(d.lines) == 0 || d.height <= 0 {
		return false
	}
	switch {
	case key.Matches(k, d.keys.LineDown):
		d.top++
	case key.Matches(k, d.keys.LineUp):
		d.top--
	case key.Matches(k, d.keys.HalfDown):
		d.top += max(1, d.height/2)
	case key.Matches(k, d.keys.HalfUp):
		d.top -= max(1, d.height/2)
	case key.Matches(k, d.keys.PageDown):
		d.top += d.height
	case key.Matches(k, d.keys.PageUp):
		d.top -= d.height
	default:
		return false
	}
	d.top = max(0, min(d.top, len(d.lines)-d.height))
	d.markSeen()
	return true
}

// view draws the window with a position line under it; "" without a diff.
func (d *diffView) view(width int) string {
	if len(d.lines) == 0 || d.height <= 0 {
		return ""
	}
	end := min(len(d.lines), d.top+d.height)
	var b strings.Builder
	for _, l := range d.lines[d.top:end] {
		// Rows fit the width (fit); should one not, it shows it is cut.
		b.WriteString(ansi.Truncate(l, max(10, width), "…"))
		b.WriteByte('\n')
	}
	info := fmt.Sprintf("lines %d–%d of %d", d.top+1, end, len(d.lines))
	switch below := len(d.lines) - end; {
	case below == 1:
		info = "↓ 1 more line below · " + info
	case below > 1:
		info = fmt.Sprintf("↓ %d more lines below · ", below) + info
	}
	info = "  " + info
	if d.readOn && end < len(d.lines) {
		info += " · " + d.keys.LineDown.Help().Key + " " + d.keys.HalfDown.Help().Key + " read on"
	} else if len(d.lines) > d.height {
		info += " · " + keyPair(d.keys.LineUp, d.keys.LineDown) + " " + keyPair(d.keys.HalfUp, d.keys.HalfDown) + " scroll"
	}
	if w := max(10, width); ansi.StringWidth(info) > w {
		// Narrow: the counts alone, never a number cut short.
		info = fmt.Sprintf("  ↓ %d · %d–%d/%d", len(d.lines)-end, d.top+1, end, len(d.lines))
		info = ansi.Truncate(info, w, "…")
	}
	b.WriteString(d.info.Render(info))
	return b.String()
}

// Update forwards to the form unless the key scrolls the diff, or would
// answer with a choice that grants while lines of the diff are unread:
// then the form says so and waits (a refusal answers at once).
func (a *Approval) Update(msg tea.Msg) tea.Cmd {
	k, isKey := msg.(tea.KeyPressMsg)
	if isKey && !a.settled && a.diff.scroll(k) {
		a.note = ""
		return nil
	}
	// The choosing keys are the ones huh's select answers with (Next, or
	// Submit on the last field: one keymap, the form's), and the choice
	// is the highlighted one, which is what huh answers with.
	if i, ok := a.sel.Hovered(); isKey && !a.settled && ok && key.Matches(k, a.keys.Select.Next, a.keys.Select.Submit) &&
		i >= 0 && i < len(a.spec.Choices) && a.spec.Choices[i].Grants {
		if n := a.Unread(); n > 0 {
			a.note = fmt.Sprintf("read all of it first: %d more %s below (%s, %s) — a no answers at once", n, plural(n, "line"),
				a.diff.keys.PageDown.Help().Key, a.diff.keys.HalfDown.Help().Key)
			return nil
		}
	}
	return a.base.Update(msg)
}

func plural(n int, what string) string {
	if n == 1 {
		return what
	}
	return what + "s"
}

// View draws the diff window (if any) above the choices, and under them
// why the last Enter did not answer.
func (a *Approval) View() string {
	fv := a.base.View()
	if fv == "" {
		return ""
	}
	if a.note != "" {
		fv += "\n" + a.diff.info.Bold(true).Render(ansi.Truncate("  "+a.note, max(10, a.diff.width), "…"))
	}
	if dv := a.diff.view(a.diff.width); dv != "" {
		return dv + "\n" + fv
	}
	return fv
}

// DiffLines are the approval's diff lines, every one (the pager shows
// them whole).
func (a *Approval) DiffLines() []string { return a.spec.Diff }

// DiffTop is the first diff line shown (0-based), for tests.
func (a *Approval) DiffTop() int { return a.diff.top }

// keyPair names two bindings' keys as one: "shift+↑" and "shift+↓" are
// "shift+↑/↓", Ctrl+U and Ctrl+D are "ctrl+u/d".
func keyPair(a, b key.Binding) string {
	x, y := a.Help().Key, b.Help().Key
	if i := strings.LastIndexByte(x, '+'); i > 0 && strings.HasPrefix(y, x[:i+1]) {
		return x + "/" + y[i+1:]
	}
	return x + "/" + y
}
