package ui

import (
	"fmt"
	"strings"
	"time"
)

// Cell is one entry of the transcript. Render draws it at width; Version
// changes whenever its content changes, so the transcript can cache the
// lines of a cell by (version, width).
type Cell interface {
	Render(ctx *RenderContext, width int) []string
	Version() int
}

// RenderContext carries what cells need to draw: styles and the Markdown
// renderer.
type RenderContext struct {
	Styles   Styles
	Markdown *Markdown
}

// versioned implements the Version bookkeeping.
type versioned struct{ v int }

// Version implements Cell.
func (c *versioned) Version() int { return c.v }

// Touch marks the cell changed.
func (c *versioned) Touch() { c.v++ }

// UserCell is a message the user sent.
type UserCell struct {
	versioned
	Text string
}

// Render implements Cell.
func (c *UserCell) Render(ctx *RenderContext, width int) []string {
	lines := Wrap(c.Text, width-2)
	for i := range lines {
		lines[i] = ctx.Styles.UserBar.Render("▌") + " " + ctx.Styles.User.Render(lines[i])
	}
	return append([]string{""}, lines...)
}

// AgentCell is the agent's Markdown answer, streamed by deltas and
// replaced by the final text when the item completes.
type AgentCell struct {
	versioned
	ItemID string
	Text   strings.Builder
	Final  bool
}

// Append adds a streamed delta.
func (c *AgentCell) Append(delta string) {
	c.Text.WriteString(delta)
	c.Touch()
}

// SetFinal replaces the streamed text with the completed item's text.
func (c *AgentCell) SetFinal(text string) {
	if text != "" || c.Text.Len() == 0 {
		c.Text.Reset()
		c.Text.WriteString(text)
	}
	c.Final = true
	c.Touch()
}

// Render implements Cell.
func (c *AgentCell) Render(ctx *RenderContext, width int) []string {
	src := c.Text.String()
	if strings.TrimSpace(src) == "" {
		return nil
	}
	return append([]string{""}, ctx.Markdown.Render(src, width)...)
}

// CommandCell is a command the agent ran (commandExecution item).
type CommandCell struct {
	versioned
	ItemID   string
	Command  string
	Cwd      string
	Status   string // "inProgress", "completed", "failed", "declined"
	ExitCode *int
	Duration time.Duration
	Output   strings.Builder
	// TailLines is how many output lines are shown; the rest is counted.
	TailLines int
}

// AppendOutput adds a chunk of output.
func (c *CommandCell) AppendOutput(s string) {
	c.Output.WriteString(s)
	c.Touch()
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
	head := Wrap("$ "+c.Command, width-2)
	for i := range head {
		head[i] = st.Command.Render(head[i])
	}
	head = Prefix(head, mark+" ", "  ")
	if len(meta) > 0 {
		head[len(head)-1] += st.Dim.Render("  (" + strings.Join(meta, ", ") + ")")
	}
	lines := append([]string{""}, head...)
	if c.Cwd != "" {
		lines = append(lines, st.Dim.Render(Truncate("  in "+c.Cwd, width)))
	}
	out := strings.TrimRight(c.Output.String(), "\n")
	if out != "" {
		n := c.TailLines
		if n <= 0 {
			n = 5
		}
		all := strings.Split(out, "\n")
		hidden := 0
		if len(all) > n {
			hidden = len(all) - n
			all = all[len(all)-n:]
		}
		if hidden > 0 {
			lines = append(lines, st.Dim.Render(fmt.Sprintf("  │ … +%d lines", hidden)))
		}
		for _, l := range all {
			for _, w := range Wrap(l, width-4) {
				lines = append(lines, st.Dim.Render("  │ ")+w)
			}
		}
	}
	return lines
}

// FileDiff is one file of a FileChangeCell.
type FileDiff struct {
	Path string
	Kind string // "add", "delete", "update"
	Diff string // unified diff
}

// FileChangeCell is a patch the agent applied or proposes (fileChange
// item).
type FileChangeCell struct {
	versioned
	ItemID string
	Status string
	Files  []FileDiff
	// MaxDiffLines caps the diff lines shown per file (0 = 40).
	MaxDiffLines int
}

// SetFiles replaces the files.
func (c *FileChangeCell) SetFiles(files []FileDiff) {
	c.Files = files
	c.Touch()
}

// DiffStat counts added and removed lines of a unified diff, ignoring the
// ---/+++ headers.
func DiffStat(diff string) (added, removed int) {
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		case strings.HasPrefix(l, "+"):
			added++
		case strings.HasPrefix(l, "-"):
			removed++
		}
	}
	return
}

// Render implements Cell.
func (c *FileChangeCell) Render(ctx *RenderContext, width int) []string {
	st := ctx.Styles
	verb := "Edited"
	switch c.Status {
	case "inProgress", "":
		verb = "Editing"
	case "declined":
		verb = "Declined edit of"
	case "failed":
		verb = "Failed to edit"
	}
	lines := []string{""}
	for _, f := range c.Files {
		a, r := DiffStat(f.Diff)
		v := verb
		if f.Kind == "add" && c.Status == "completed" {
			v = "Added"
		} else if f.Kind == "delete" && c.Status == "completed" {
			v = "Deleted"
		}
		head := fmt.Sprintf("%s %s ", v, f.Path)
		lines = append(lines, st.Accent.Render("✎ ")+st.DiffHeader.Render(Truncate(head, width-16))+
			st.DiffAdd.Render(fmt.Sprintf("+%d", a))+" "+st.DiffDel.Render(fmt.Sprintf("−%d", r)))
		lines = append(lines, RenderDiff(st, f.Diff, width, c.MaxDiffLines)...)
	}
	return lines
}

// RenderDiff colours a unified diff, indented by 4, at most max lines
// (0 = 40) with a "+N lines" note for the rest.
func RenderDiff(st Styles, diff string, width, max int) []string {
	if max <= 0 {
		max = 40
	}
	var lines []string
	src := strings.Split(strings.TrimRight(diff, "\n"), "\n")
	shown := 0
	for i, l := range src {
		if strings.HasPrefix(l, "+++") || strings.HasPrefix(l, "---") || strings.HasPrefix(l, "diff ") || strings.HasPrefix(l, "index ") {
			continue
		}
		if shown == max {
			lines = append(lines, st.Dim.Render(fmt.Sprintf("    … +%d lines", len(src)-i)))
			break
		}
		shown++
		sty := st.Dim
		switch {
		case strings.HasPrefix(l, "@@"):
			sty = st.DiffHunk
		case strings.HasPrefix(l, "+"):
			sty = st.DiffAdd
		case strings.HasPrefix(l, "-"):
			sty = st.DiffDel
		}
		for _, w := range Wrap(l, width-4) {
			lines = append(lines, "    "+sty.Render(w))
		}
	}
	return lines
}

// ReasoningCell is the agent's reasoning summary, shown dim.
type ReasoningCell struct {
	versioned
	ItemID string
	Text   strings.Builder
}

// Append adds a summary delta.
func (c *ReasoningCell) Append(delta string) {
	c.Text.WriteString(delta)
	c.Touch()
}

// SetText replaces the summary.
func (c *ReasoningCell) SetText(s string) {
	c.Text.Reset()
	c.Text.WriteString(s)
	c.Touch()
}

// Render implements Cell.
func (c *ReasoningCell) Render(ctx *RenderContext, width int) []string {
	s := strings.TrimSpace(strings.ReplaceAll(c.Text.String(), "**", ""))
	if s == "" {
		return nil
	}
	lines := Wrap(s, width-2)
	for i := range lines {
		lines[i] = ctx.Styles.Italic.Render(lines[i])
	}
	return append([]string{""}, Prefix(lines, ctx.Styles.Dim.Render("∴ "), "  ")...)
}

// BannerKind says how loud a banner is.
type BannerKind int

// Banner kinds.
const (
	BannerInfo BannerKind = iota
	BannerWarning
	BannerError
)

// BannerCell is a visible notice: a warning, an error, a failed or
// interrupted turn, a dead server.
type BannerCell struct {
	versioned
	Kind   BannerKind
	Text   string
	Detail []string // extra dim lines (e.g. the server's last stderr)
}

// Render implements Cell.
func (c *BannerCell) Render(ctx *RenderContext, width int) []string {
	st := ctx.Styles
	mark, sty := "ℹ ", st.Info
	switch c.Kind {
	case BannerWarning:
		mark, sty = "⚠ ", st.Warn
	case BannerError:
		mark, sty = "✗ ", st.Error
	}
	lines := Wrap(c.Text, width-2)
	for i := range lines {
		lines[i] = sty.Render(lines[i])
	}
	lines = Prefix(lines, sty.Render(mark), "  ")
	for _, d := range c.Detail {
		for _, w := range Wrap(d, width-4) {
			lines = append(lines, st.Dim.Render("  │ "+w))
		}
	}
	return append([]string{""}, lines...)
}

// ToolCell is a generic tool call (dynamic or MCP tool, web search …):
// a title line and optional detail lines.
type ToolCell struct {
	versioned
	ItemID string
	Title  string
	Status string
	Detail string
}

// Set updates the cell.
func (c *ToolCell) Set(title, status, detail string) {
	c.Title, c.Status, c.Detail = title, status, detail
	c.Touch()
}

// Render implements Cell.
func (c *ToolCell) Render(ctx *RenderContext, width int) []string {
	st := ctx.Styles
	mark := st.Running.Render("•")
	switch c.Status {
	case "completed":
		mark = st.OK.Render("✓")
	case "failed", "declined":
		mark = st.Fail.Render("✗")
	}
	lines := []string{"", mark + " " + st.Command.Render(Truncate(c.Title, width-2))}
	if c.Detail != "" {
		d := strings.Split(strings.TrimRight(c.Detail, "\n"), "\n")
		if len(d) > 6 {
			d = append(d[:6], fmt.Sprintf("… +%d lines", len(d)-6))
		}
		for _, l := range d {
			for _, w := range Wrap(l, width-4) {
				lines = append(lines, st.Dim.Render("  │ "+w))
			}
		}
	}
	return lines
}

// FormatDuration renders d as "850ms", "2.3s" or "1m05s".
func FormatDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	default:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
}
