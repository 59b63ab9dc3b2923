package ui

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"tandem/thread"
)

// Cell is one entry of the transcript. Render draws it at width; Version
// changes whenever its content changes, so the transcript can cache the
// lines of a cell by (version, width).
type Cell interface {
	Render(ctx *RenderContext, width int) []string
	Version() int
}

// ItemCell is implemented by the cells that draw a thread item (an agent
// message, reasoning, a command, a file change, a plan, a tool call):
// ThreadItem returns it. The cells of a viewer's own (a user message, a
// banner, a diff) do not.
type ItemCell interface {
	Cell
	ThreadItem() *thread.Item
}

// ThreadItem implements ItemCell.
func (c *AgentCell) ThreadItem() *thread.Item { return c.Item }

// ThreadItem implements ItemCell.
func (c *ReasoningCell) ThreadItem() *thread.Item { return c.Item }

// ThreadItem implements ItemCell.
func (c *CommandCell) ThreadItem() *thread.Item { return c.Item }

// ThreadItem implements ItemCell.
func (c *FileChangeCell) ThreadItem() *thread.Item { return c.Item }

// ThreadItem implements ItemCell.
func (c *PlanCell) ThreadItem() *thread.Item { return c.Item }

// ThreadItem implements ItemCell.
func (c *ToolCell) ThreadItem() *thread.Item { return c.Item }

// RenderContext carries what cells need to draw: styles and the Markdown
// renderer. Expanded asks cells for their full content (the transcript
// pager) instead of the collapsed form shown inline.
type RenderContext struct {
	Styles   *Styles
	Markdown *Markdown
	Expanded bool
	// Tail, when > 0, says only the last Tail lines of the transcript are
	// on screen (following the bottom): cells may lay out what lies above
	// plainly and cheaply (see Lazy). 0 asks for everything fully drawn.
	Tail int
	// Rows, when > 0 with Tail, is how many of those lines the screen
	// shows from the first: a cell drawn partially that starts more
	// than a screen below them stays so until it comes into view (a
	// search jumped far up a long thread). 0: every line of the Tail.
	Rows int
	// Deadline, when set, lets a cell stop styling once it has passed and
	// lay out the rest plainly (a Lazy cell's Partial then reports it);
	// the transcript pager renders a huge answer over several frames so.
	Deadline time.Time
}

// pastDeadline reports whether ctx's Deadline is set and has passed.
func (ctx *RenderContext) pastDeadline() bool {
	return !ctx.Deadline.IsZero() && time.Now().After(ctx.Deadline)
}

// versioned implements the Version bookkeeping. Once the cell is in a
// Transcript, Touch also tells the transcript, so a frame re-checks only
// the cells that changed.
type versioned struct {
	v     int
	owner *Transcript
	idx   int
}

func (c *versioned) attach(t *Transcript, i int) { c.owner, c.idx = t, i }

// Version implements Cell.
func (c *versioned) Version() int { return c.v }

// Touch marks the cell changed.
func (c *versioned) Touch() {
	c.v++
	if c.owner != nil {
		c.owner.markDirty(c.idx)
	}
}

// UserCell is a message the user sent. Images are its attachments as
// shown, one line each under the text ("shot.png · 240 KB"; see
// ImageLabel).
type UserCell struct {
	versioned
	Text   string
	Images []string
	// Author, in a shared session, is the driver who sent it: drawn
	// dim on the line above.
	Author string
}

// Render implements Cell.
func (c *UserCell) Render(ctx *RenderContext, width int) []string {
	var lines []string
	if c.Text != "" || len(c.Images) == 0 {
		lines = Wrap(Sanitize(c.Text), width-2)
	}
	bar := ctx.Styles.UserBar.Render("▌") + " "
	for i := range lines {
		lines[i] = bar + ctx.Styles.User.Render(lines[i])
	}
	if c.Author != "" {
		lines = append([]string{bar + ctx.Styles.Dim.Render(Truncate(SanitizeLine(c.Author), width-2))}, lines...)
	}
	for _, im := range c.Images {
		lines = append(lines, bar+ctx.Styles.Dim.Render(Truncate("⎘ "+SanitizeLine(im), width-2)))
	}
	return append([]string{""}, lines...)
}

// FileDiff is one file of a FileChangeCell: the fold's thread.FileDiff,
// its Path as drawn.
type FileDiff = thread.FileDiff

// FileChangeCell draws a patch the agent applied or proposes (a
// FileChange item). Paths under Cwd, the thread's workspace on the
// server, are shown relative to it ("greet.sh", as in Codex's own TUI).
type FileChangeCell struct {
	versioned
	Item *thread.Item
	Cwd  string
	// MaxDiffLines caps the diff lines shown per file (0 = 40); the
	// pager (RenderContext.Expanded) shows them all.
	MaxDiffLines int
	partial      bool // the last render was unstyled (off screen)
}

// Version implements Cell.
func (c *FileChangeCell) Version() int { return c.v + c.Item.Rev }

// Partial implements Lazy: the last render, off screen, left the cell
// unstyled.
func (c *FileChangeCell) Partial() bool { return c.partial }

// Files returns the item's files as drawn: paths relative to Cwd.
func (c *FileChangeCell) Files() []FileDiff { return FileDiffs(c.Item.Files, c.Cwd) }

// FileDiffs are files as drawn, with paths under dir (paths use "/", as
// codex sends them on every platform it serves here) made relative to
// it; other paths stay as the server gave them.
func FileDiffs(files []thread.FileDiff, dir string) []FileDiff {
	dir = strings.TrimSuffix(dir, "/")
	out := make([]FileDiff, 0, len(files))
	for _, f := range files {
		rel := func(p string) string {
			if dir != "" && strings.HasPrefix(p, dir+"/") {
				return p[len(dir)+1:]
			}
			return p
		}
		f.Path, f.MovePath = rel(f.Path), rel(f.MovePath)
		out = append(out, f)
	}
	return out
}

// Render implements Cell.
func (c *FileChangeCell) Render(ctx *RenderContext, width int) []string {
	st := ctx.Styles
	verb := "Edited"
	status := c.Item.Status
	switch status {
	case "inProgress", "":
		verb = "Editing"
	case "declined":
		verb = "Declined edit of"
	case "failed":
		verb = "Failed to edit"
	case thread.StatusInterrupted:
		verb = "Interrupted edit of"
	case thread.StatusUnknown:
		verb = "Edit (outcome unknown) of"
	}
	// A cell above the screen (Tail < 0, see Lazy) is laid out as the
	// same lines unstyled; it is styled once it comes on screen.
	paint := styled
	if c.partial = ctx.Tail < 0 && !ctx.Expanded; c.partial {
		paint = unstyled
	}
	lines := []string{""}
	for _, f := range c.Files() {
		a, r := FileDiffStat(f)
		v := verb
		if f.Kind == thread.FileAdd && status == "completed" {
			v = "Added"
		} else if f.Kind == thread.FileDelete && status == "completed" {
			v = "Deleted"
		}
		head := fmt.Sprintf("%s %s ", v, SanitizeLine(f.Path))
		if f.MovePath != "" && f.MovePath != f.Path {
			head = fmt.Sprintf("%s %s → %s ", v, SanitizeLine(f.Path), SanitizeLine(f.MovePath))
		}
		lines = append(lines, paint(st.Accent, "✎ ")+paint(st.DiffHeader, Truncate(head, width-16))+
			paint(st.DiffAdd, fmt.Sprintf("+%d", a))+" "+paint(st.DiffDel, fmt.Sprintf("−%d", r)))
		maxLines := c.MaxDiffLines
		if ctx.Expanded { // the pager: every line
			maxLines = 1 << 30
		}
		lines = append(lines, renderFileDiff(paint, *st, f, width, maxLines)...)
	}
	return lines
}

// ReasoningCell draws the agent's reasoning summary (a Reasoning item),
// dim.
type ReasoningCell struct {
	versioned
	Item *thread.Item
	// Opened shows the whole summary in the transcript too (a search
	// found something in it: Open).
	Opened bool
}

// Version implements Cell.
func (c *ReasoningCell) Version() int { return c.v + c.Item.Rev }

// Live implements Live: a summary still streaming re-renders at most
// once a frame.
func (c *ReasoningCell) Live() bool { return !c.Item.Done }

// Heading returns the summary's latest bold heading ("**Planning the
// change**" → "Planning the change"), or "" when it has none.
func (c *ReasoningCell) Heading() string { return ReasoningHeading(c.Item.Text()) }

// ReasoningHeading returns the last complete **bold** span of a reasoning
// summary: codex's summaries start each part with one, and the status
// line shows it as the "working" header.
func ReasoningHeading(s string) string {
	end := strings.LastIndex(s, "**")
	for end >= 0 {
		start := strings.LastIndex(s[:end], "**")
		if start < 0 {
			return ""
		}
		if h := strings.TrimSpace(s[start+2 : end]); h != "" && strings.Count(s[:start], "**")%2 == 0 {
			return h
		}
		end = start
	}
	return ""
}

// Render implements Cell: collapsed to its heading (or first line) in the
// transcript, the whole summary in the pager (ctx.Expanded).
func (c *ReasoningCell) Render(ctx *RenderContext, width int) []string {
	src := strings.TrimSpace(Sanitize(c.Item.Text()))
	if src == "" {
		return nil
	}
	st := ctx.Styles
	if !ctx.Expanded && !c.Opened {
		h := SanitizeLine(c.Heading())
		if h == "" {
			h, _, _ = strings.Cut(strings.ReplaceAll(src, "**", ""), "\n")
		}
		return []string{"", st.Dim.Render("∴ ") + st.Italic.Render(Truncate("Thinking: "+h, width-16)) + st.Dim.Render("  (ctrl+t)")}
	}
	s := strings.ReplaceAll(src, "**", "")
	lines := Wrap(s, width-2)
	for i := range lines {
		lines[i] = st.Italic.Render(lines[i])
	}
	lines = append([]string{""}, Prefix(lines, st.Dim.Render("∴ "), "  ")...)
	if c.Item.Cut {
		lines = markCut(st, lines, width)
	}
	return lines
}

// BannerKind says how loud a banner is.
type BannerKind int

// Banner kinds.
const (
	BannerInfo BannerKind = iota
	BannerWarning
	BannerError
	// BannerQuiet is a dim note ("·"): something shown for completeness.
	BannerQuiet
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
	case BannerQuiet:
		mark, sty = "· ", st.Dim
	}
	lines := Wrap(Sanitize(c.Text), width-2)
	for i := range lines {
		lines[i] = sty.Render(lines[i])
	}
	lines = Prefix(lines, sty.Render(mark), "  ")
	for _, d := range c.Detail {
		for _, w := range Wrap(Sanitize(d), width-4) {
			lines = append(lines, st.Dim.Render("  │ "+w))
		}
	}
	return append([]string{""}, lines...)
}

// ToolCell draws a tool-like item (a Tool item: an MCP or dynamic tool
// call, a web search, a review, a plan-mode plan …): a title line and
// optional detail lines.
type ToolCell struct {
	versioned
	Item *thread.Item
	// Opened shows every detail line (a search found something in
	// them: Open).
	Opened bool
}

// Version implements Cell.
func (c *ToolCell) Version() int { return c.v + c.Item.Rev }

// listMarker matches the marker of a Markdown list item ("- ", "12. ").
var listMarker = regexp.MustCompile(`^\s*(?:[-*+]|\d{1,3}[.)])\s+`)

// Render implements Cell.
func (c *ToolCell) Render(ctx *RenderContext, width int) []string {
	st := ctx.Styles
	it := c.Item
	mark := st.Running.Render("•")
	switch it.Status {
	case "completed":
		mark = st.OK.Render("✓")
	case "failed", "declined":
		mark = st.Fail.Render("✗")
	case thread.StatusInterrupted, thread.StatusUnknown:
		mark = st.Fail.Render("⊘")
	}
	if it.Quiet {
		// A hook, or a kind tandem does not know: one dim line, and the
		// first lines of what it said.
		lines := []string{"", st.Dim.Render(Truncate("· "+SanitizeLine(it.Title), width))}
		if d := strings.TrimSpace(Sanitize(it.Detail)); d != "" {
			ds := strings.Split(d, "\n")
			if len(ds) > 3 && !c.Opened {
				ds = append(ds[:3], fmt.Sprintf("… +%d lines (ctrl+t shows all)", len(ds)-3))
			}
			for _, l := range ds {
				lines = append(lines, st.Dim.Render(Truncate("  │ "+l, width)))
			}
		}
		return lines
	}
	title := Truncate(SanitizeLine(it.Title), width-2)
	switch it.Status {
	case thread.StatusInterrupted:
		title = st.Command.Render(Truncate(SanitizeLine(it.Title), max(1, width-16))) + st.Dim.Render(" (interrupted)")
	case thread.StatusUnknown:
		title = st.Command.Render(Truncate(SanitizeLine(it.Title), max(1, width-20))) + st.Dim.Render(" (outcome unknown)")
	default:
		title = st.Command.Render(title)
	}
	lines := []string{"", mark + " " + title}
	if it.Progress != "" && !it.Done {
		lines = append(lines, st.Dim.Render(Truncate("  ⋯ "+SanitizeLine(it.Progress), width)))
	}
	if it.Markdown && strings.TrimSpace(it.Detail) != "" && ctx.Markdown != nil {
		// glamour's own margin indents it like an answer
		return append(lines, renderMarkdown(ctx, Sanitize(it.Detail), width)...)
	}
	if it.Detail != "" {
		d := strings.Split(strings.TrimRight(Sanitize(it.Detail), "\n"), "\n")
		if len(d) > 6 && !c.Opened {
			d = append(d[:6], fmt.Sprintf("… +%d lines", len(d)-6))
		}
		for _, l := range d {
			// A list item's wrapped lines hang under its text.
			hang := strings.Repeat(" ", len(listMarker.FindString(l)))
			for i, w := range Wrap(l, width-4-len(hang)) {
				if i > 0 {
					w = hang + w
				}
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
