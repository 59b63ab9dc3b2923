package ui

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"tandem/internal/shellwords"
	"tandem/internal/spill"
)

// Output limits of a CommandCell. Up to OutputMemCap bytes are kept in
// memory; past that the whole output goes to a spill file (internal/spill:
// a temp file, redacted) and memory keeps only the first OutputHeadCap
// and the last OutputTailCap bytes.
const (
	OutputMemCap  = 2 << 20
	OutputHeadCap = 64 << 10
	OutputTailCap = 1 << 20
)

// CommandCell is a command the agent ran (commandExecution item), or one
// the user ran with source "userShell". Its output streams in by
// `item/commandExecution/outputDelta` and is shown as head and tail with a
// "+N lines" note; Expanded shows more. Memory stays bounded (see
// OutputMemCap); the full output of a big command is in SpillPath.
type CommandCell struct {
	versioned
	ItemID   string
	Command  string
	Cwd      string
	Source   string // "agent", "userShell", …
	Status   string // "inProgress", "completed", "failed", "declined"
	ExitCode *int
	Duration time.Duration
	// Expanded shows up to ExpandedLines of output instead of the head and
	// tail.
	Expanded bool
	// awaiting is set while the command's approval request is pending; the
	// cell then reads "awaiting approval" instead of "running".
	awaiting bool
	// shown is Command as drawn (shellwords.Display, sanitized), kept
	// while Command stays shownFor: a running command's cell is redrawn
	// every frame its output grows, and its command line need not be
	// parsed each time.
	shown, shownFor string

	buf       []byte // whole output while it fits OutputMemCap, else the head
	tail      []byte // last bytes once spilled
	total     int64  // bytes received
	newlines  int64  // '\n' received
	spillFile *spill.File
	spillPath string
	spillErr  error
}

// Collapsed and expanded output heights, in source lines.
const (
	HeadLines     = 2
	TailLines     = 3
	ExpandedLines = 200
)

// AppendOutput adds a chunk of output. It costs O(len(s)) and never holds
// more than about OutputMemCap+OutputTailCap bytes.
func (c *CommandCell) AppendOutput(s string) {
	if s == "" {
		return
	}
	c.total += int64(len(s))
	c.newlines += int64(strings.Count(s, "\n"))
	c.Touch()
	if c.spillFile == nil && c.spillErr == nil && len(c.buf)+len(s) <= OutputMemCap {
		c.buf = append(c.buf, s...)
		return
	}
	if c.spillFile == nil && c.spillErr == nil {
		f, err := spill.Create()
		if err != nil {
			c.spillErr = err
		} else {
			c.spillFile, c.spillPath = f, f.Name()
			_, c.spillErr = f.Write(c.buf)
		}
		c.tail = append(c.tail, c.buf[max(0, len(c.buf)-OutputTailCap):]...)
		c.buf = append([]byte(nil), c.buf[:min(len(c.buf), OutputHeadCap)]...)
	}
	if c.spillFile != nil && c.spillErr == nil {
		_, c.spillErr = c.spillFile.WriteString(s)
	}
	if len(s) >= OutputTailCap {
		c.tail = append(c.tail[:0], s[len(s)-OutputTailCap:]...)
		return
	}
	if len(c.tail)+len(s) > 2*OutputTailCap {
		keep := OutputTailCap - len(s)
		copy(c.tail, c.tail[len(c.tail)-keep:])
		c.tail = c.tail[:keep]
	}
	c.tail = append(c.tail, s...)
}

// SetOutput replaces the output (the completed item's aggregatedOutput
// when nothing was streamed).
func (c *CommandCell) SetOutput(s string) {
	c.Close()
	c.buf, c.tail, c.total, c.newlines = nil, nil, 0, 0
	c.spillPath, c.spillErr = "", nil
	c.AppendOutput(s)
	c.Touch()
}

// OutputBytes returns how many output bytes arrived.
func (c *CommandCell) OutputBytes() int64 { return c.total }

// OutputLines returns the number of output lines.
func (c *CommandCell) OutputLines() int64 {
	n := c.newlines
	if c.total > 0 && c.lastByte() != '\n' {
		n++
	}
	return n
}

// MemBytes returns the bytes of output held in memory.
func (c *CommandCell) MemBytes() int { return cap(c.buf) + cap(c.tail) }

// SpillPath is the temp file holding the full output, redacted, of a
// command whose output outgrew memory ("" otherwise). Its unfinished last
// line is written when FullOutputPath is called.
func (c *CommandCell) SpillPath() string { return c.spillPath }

// Close closes and removes the spill file.
func (c *CommandCell) Close() {
	if c.spillFile != nil {
		c.spillFile.Remove()
		c.spillFile = nil
	}
}

// SetAwaitingApproval marks the command as waiting for the user's
// approval (true) or not (false).
func (c *CommandCell) SetAwaitingApproval(on bool) {
	if c.awaiting != on {
		c.awaiting = on
		c.Touch()
	}
}

// Live implements Live: a running command re-renders at most once a frame.
func (c *CommandCell) Live() bool { return c.Status == "inProgress" || c.Status == "" }

// ToggleExpanded flips Expanded.
func (c *CommandCell) ToggleExpanded() {
	c.Expanded = !c.Expanded
	c.Touch()
}

func (c *CommandCell) lastByte() byte {
	if c.spillFile != nil || c.spillErr != nil {
		if len(c.tail) > 0 {
			return c.tail[len(c.tail)-1]
		}
		return 0
	}
	if len(c.buf) > 0 {
		return c.buf[len(c.buf)-1]
	}
	return 0
}

// headLines returns the first n lines held in memory.
func (c *CommandCell) headLines(n int) []string {
	var out []string
	b := c.buf
	for len(out) < n && len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, string(b))
			break
		}
		out = append(out, string(b[:i]))
		b = b[i+1:]
	}
	return out
}

// tailLines returns the last n lines held in memory.
func (c *CommandCell) tailLines(n int) []string {
	b := c.buf
	if c.spillFile != nil || c.spillErr != nil {
		b = c.tail
	}
	b = bytes.TrimSuffix(b, []byte("\n"))
	out := make([]string, 0, n)
	for len(out) < n && len(b) > 0 {
		i := bytes.LastIndexByte(b, '\n')
		out = append(out, string(b[i+1:]))
		if i < 0 {
			break
		}
		b = b[:i]
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// cleanLine makes a line of raw output safe to lay out: no escape
// sequences, what a carriage return overwrote dropped, tabs expanded, and
// cut to at most width cells.
func cleanLine(l string, width int) string {
	if i := strings.LastIndexByte(strings.TrimRight(l, "\r"), '\r'); i >= 0 {
		l = l[i+1:]
	}
	if len(l) > 8*width+16 {
		l = l[:8*width+16]
	}
	l = Sanitize(ansi.Strip(strings.TrimRight(l, "\r")))
	return Truncate(l, width)
}

// Render implements Cell.
func (c *CommandCell) Render(ctx *RenderContext, width int) []string {
	st := ctx.Styles
	var mark, state string
	switch c.Status {
	case "completed":
		if c.ExitCode != nil && *c.ExitCode != 0 {
			mark = st.Fail.Render("✗")
		} else {
			mark = st.OK.Render("✓")
		}
	case "failed":
		mark = st.Fail.Render("✗")
	case "declined":
		mark = st.Fail.Render("⊘")
		state = "declined"
	default:
		mark = st.Running.Render("•")
		state = "running"
		if c.awaiting {
			state = "awaiting approval"
		}
	}
	var meta []string
	if state != "" {
		meta = append(meta, state)
	}
	if c.ExitCode != nil {
		meta = append(meta, fmt.Sprintf("exit %d", *c.ExitCode))
	}
	if c.Duration > 0 {
		meta = append(meta, FormatDuration(c.Duration))
	}
	prompt := "$ "
	if c.Source == "userShell" {
		prompt = "! "
	}
	if c.shownFor != c.Command || c.shown == "" {
		c.shown, c.shownFor = Sanitize(shellwords.Display(c.Command)), c.Command
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
		head[len(head)-1] += st.Dim.Render("  (" + strings.Join(meta, ", ") + ")")
	}
	lines := append([]string{""}, head...)
	if c.Cwd != "" && (c.Expanded || ctx.Expanded) {
		lines = append(lines, st.Dim.Render(Truncate("  in "+SanitizeLine(c.Cwd), width)))
	}
	if c.total == 0 {
		return lines
	}
	bar := st.Dim.Render("  │ ")
	w := width - 4
	total := c.OutputLines()
	var shown []string
	var hidden int64
	if c.Expanded || ctx.Expanded {
		shown = c.tailLines(ExpandedLines)
		hidden = total - int64(len(shown))
		if hidden > 0 {
			lines = append(lines, st.Dim.Render(fmt.Sprintf("  │ … +%d lines above", hidden)))
		}
		for _, l := range shown {
			lines = append(lines, bar+cleanLine(l, w))
		}
	} else if total <= HeadLines+TailLines+1 {
		for _, l := range c.tailLines(int(total)) {
			lines = append(lines, bar+cleanLine(l, w))
		}
	} else {
		for _, l := range c.headLines(HeadLines) {
			lines = append(lines, bar+cleanLine(l, w))
		}
		hidden = total - HeadLines - TailLines
		lines = append(lines, st.Dim.Render(fmt.Sprintf("  │ … +%d lines (ctrl+o to expand)", hidden)))
		for _, l := range c.tailLines(TailLines) {
			lines = append(lines, bar+cleanLine(l, w))
		}
	}
	if c.spillPath != "" {
		lines = append(lines, st.Dim.Render(Truncate(fmt.Sprintf("  └ %s of output received, kept in %s", humanBytes(c.total), c.spillPath), width)))
	}
	return lines
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// FullOutputPath returns a file holding the command's whole output,
// redacted: the spill file when the output outgrew memory (its unfinished
// last line written out first), else a new spill file with the output
// kept in memory (temp is set: the caller removes that one). It is what
// the output pager opens.
func (c *CommandCell) FullOutputPath() (path string, temp bool, err error) {
	if c.spillFile != nil && c.spillErr == nil {
		if c.spillErr = c.spillFile.Flush(); c.spillErr == nil {
			return c.spillPath, false, nil
		}
	}
	b := c.buf
	if c.spillPath != "" || c.spillErr != nil {
		b = append(append(append([]byte(nil), c.buf...), "\n… (middle lost)\n"...), c.tail...)
	}
	path, err = spill.Save(b)
	if err != nil {
		return "", false, err
	}
	return path, true, nil
}
