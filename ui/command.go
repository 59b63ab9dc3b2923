package ui

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"tandem/internal/lib/shellwords"
	"tandem/internal/lib/termsafe"
	"tandem/thread"
)

// CommandCell draws a command the agent ran (a Command item), or one the
// user ran with source "userShell". Its output streams into the item
// and is shown as head and tail with a "+N lines" note; Expanded shows
// more. The item's Output keeps memory bounded; a big command's full
// output is in its spill file.
type CommandCell struct {
	versioned
	Item *thread.Item
	// Expanded shows up to ExpandedLines of output instead of the head and
	// tail.
	Expanded bool
	// awaiting is set while the command's approval request is pending; the
	// cell then reads "awaiting approval" instead of "running".
	awaiting bool
	// shown is the command as drawn (shellwords.Display, sanitized), kept
	// while the command stays shownFor: a running command's cell is
	// redrawn every frame its output grows, and its command line need not
	// be parsed each time.
	shown, shownFor string
}

// Version implements Cell.
func (c *CommandCell) Version() int { return c.v + c.Item.Rev }

// expandedRows is how many rows one line of output may wrap to when the
// cell is expanded (or in the pager); the rest is in $PAGER (alt+o).
const expandedRows = 50

// Collapsed and expanded output heights, in source lines.
const (
	HeadLines     = 2
	TailLines     = 3
	ExpandedLines = 200
)

// SetAwaitingApproval marks the command as waiting for the user's
// approval (true) or not (false).
func (c *CommandCell) SetAwaitingApproval(on bool) {
	if c.awaiting != on {
		c.awaiting = on
		c.Touch()
	}
}

// Live implements Live: a running command re-renders at most once a frame.
func (c *CommandCell) Live() bool { return c.Item.Status == "inProgress" || c.Item.Status == "" }

// ToggleExpanded flips Expanded.
func (c *CommandCell) ToggleExpanded() {
	c.Expanded = !c.Expanded
	c.Touch()
}

// cleanLine makes a line of raw output safe to lay out, as the model
// reads it: every escape sequence but a colour is a marker with its whole
// payload (mark draws it dim), a carriage return is a dim ␍ and keeps the
// text it would overwrite on a terminal (it could hide what the model
// reads), tabs are expanded, and the line is cut to width with "…".
func cleanLine(l string, width int, mark func(...string) string) string {
	l = strings.TrimRight(l, "\r")
	l, cut := cutBytes(l, 8*width+16)
	if strings.IndexByte(l, 0x1b) < 0 && strings.IndexByte(l, '\r') < 0 {
		return truncateCut(Sanitize(l), width, cut)
	}
	var b strings.Builder
	col := 0 // runes drawn, for tab stops
	marker := func(m string) {
		b.WriteString(mark(m))
		col += utf8.RuneCountInString(m)
	}
	termsafe.Spans(l, func(span string, k termsafe.Kind) {
		switch k {
		case termsafe.Text:
			for i, part := range strings.Split(span, "\r") {
				if i > 0 {
					marker("␍")
				}
				var t string
				t, col = expandTabsAt(termsafe.Controls(part), col)
				b.WriteString(t)
			}
		case termsafe.Escape:
			marker(termsafe.Marker(span))
		}
	})
	return truncateCut(b.String(), width, cut)
}

// cutBytes cuts s to at most n bytes, at a rune's start, and says
// whether it cut.
func cutBytes(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}

// truncateCut is Truncate, and when the text was cut before (cut) it ends
// in "…" even if what is left fits.
func truncateCut(s string, width int, cut bool) string {
	if cut && ansi.StringWidth(s) <= width {
		return ansi.Truncate(s, width-1, "") + "…"
	}
	return Truncate(s, width)
}

// Render implements Cell.
func (c *CommandCell) Render(ctx *RenderContext, width int) []string {
	st := ctx.Styles
	it, out := c.Item, c.Item.Output
	var mark, state string
	switch it.Status {
	case "completed":
		if it.ExitCode != nil && *it.ExitCode != 0 {
			mark = st.Fail.Render("✗")
		} else {
			mark = st.OK.Render("✓")
		}
	case "failed":
		mark = st.Fail.Render("✗")
	case "declined":
		mark = st.Fail.Render("⊘")
		state = "declined"
	case thread.StatusInterrupted:
		mark = st.Fail.Render("⊘")
		state = "interrupted"
	case thread.StatusUnknown:
		mark = st.Dim.Render("?")
		state = "outcome unknown: codex app-server went away"
	default:
		mark = st.Running.Render("•")
		state = "running"
		if c.awaiting {
			state = "awaiting approval"
		} else if it.Stdin != "" {
			// The agent typed into it: it waits on terminal input.
			state = "waiting for terminal input · sent " + strconv.Quote(Truncate(it.Stdin, 24))
		}
	}
	var meta []string
	if state != "" {
		meta = append(meta, state)
	}
	if it.ExitCode != nil {
		meta = append(meta, fmt.Sprintf("exit %d", *it.ExitCode))
	}
	if it.Duration > 0 {
		meta = append(meta, FormatDuration(it.Duration))
	}
	prompt := "$ "
	if it.Source == "userShell" {
		prompt = "! "
	}
	if c.shownFor != it.Command || c.shown == "" {
		c.shown, c.shownFor = Sanitize(shellwords.Display(it.Command)), it.Command
	}
	cmd := c.shown
	if limit := 4096; len(cmd) > limit && !c.Expanded && !ctx.Expanded {
		// Expanded (and in the pager) the whole command shows.
		cmd = strings.ToValidUTF8(cmd[:limit], "") + "…"
	}
	head := Wrap(prompt+cmd, width-2)
	if len(head) > 4 && !c.Expanded && !ctx.Expanded {
		head = append(head[:3], "…")
	}
	for i := range head {
		head[i] = st.Command.Render(head[i])
	}
	head = Prefix(head, mark+" ", "  ")
	if len(meta) > 0 {
		// On the command's last row when it fits there, else on a row of
		// its own (cut, ending in "…", when even that is too narrow).
		m := "(" + strings.Join(meta, ", ") + ")"
		if last := head[len(head)-1]; ansi.StringWidth(last)+2+ansi.StringWidth(m) <= width {
			head[len(head)-1] += st.Dim.Render("  " + m)
		} else {
			head = append(head, "  "+st.Dim.Render(Truncate(m, width-2)))
		}
	}
	lines := append([]string{""}, head...)
	if it.Cwd != "" && (c.Expanded || ctx.Expanded) {
		lines = append(lines, st.Dim.Render(Truncate("  in "+SanitizeLine(it.Cwd), width)))
	}
	if out == nil || out.Bytes() == 0 {
		return lines
	}
	bar := st.Dim.Render("  │ ")
	dim := styleWrap(st.Dim) // for the markers of escape sequences
	w := width - 4
	total := out.Lines()
	var shown []string
	var hidden int64
	if c.Expanded || ctx.Expanded {
		shown = out.Tail(ExpandedLines)
		hidden = total - int64(len(shown))
		if hidden > 0 {
			lines = append(lines, st.Dim.Render(fmt.Sprintf("  │ … +%d lines above", hidden)))
		}
		for _, l := range shown {
			// Expanded (and in the pager) a line is wrapped, not cut: what
			// the model read of it is on screen, up to expandedRows rows.
			rows := Wrap(cleanLine(l, expandedRows*w, dim), w)
			if len(rows) > expandedRows {
				rows = append(rows[:expandedRows-1], st.Dim.Render(Truncate("… the rest of this line: alt+o shows the whole output", w)))
			}
			for _, r := range rows {
				lines = append(lines, bar+r)
			}
		}
	} else if total <= HeadLines+TailLines+1 {
		for _, l := range out.Tail(int(total)) {
			lines = append(lines, bar+cleanLine(l, w, dim))
		}
	} else {
		for _, l := range out.Head(HeadLines) {
			lines = append(lines, bar+cleanLine(l, w, dim))
		}
		hidden = total - HeadLines - TailLines
		lines = append(lines, st.Dim.Render(fmt.Sprintf("  │ … +%d lines (ctrl+o to expand)", hidden)))
		for _, l := range out.Tail(TailLines) {
			lines = append(lines, bar+cleanLine(l, w, dim))
		}
	}
	if p := out.SpillPath(); p != "" {
		lines = append(lines, st.Dim.Render(Truncate(fmt.Sprintf("  └ %s of output received, kept in %s", ByteSize(out.Bytes()), p), width)))
	}
	return lines
}

// CommandText is a command line as a reader reads it, as a command cell
// shows it: codex's `/bin/bash -lc 'SCRIPT'` wrapper taken off
// (shellwords.Display); not sanitized.
func CommandText(cmd string) string { return shellwords.Display(cmd) }
