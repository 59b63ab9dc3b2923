package ui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"tandem/thread"
)

// AgentCell draws the agent's Markdown answer, an Agent item of the
// thread (agentMessage), streamed by `item/agentMessage/delta` and replaced
// by the final text when the item completes.
//
// Rendering is incremental. The source is cut into stable blocks at blank
// lines that lie outside an open code fence, list or quote, once the next
// block has begun; each stable block is rendered with glamour once per
// width and cached. The open tail (a paragraph still growing, an unclosed
// fence or table) is shown as plain wrapped text until it closes, so a
// delta costs O(tail), not O(message).
//
// Rendering is also lazy: with RenderContext.Tail > 0 only the blocks in
// the last Tail lines are styled with glamour; blocks above, which are off
// screen, are laid out plainly (cheap) until a render with Tail == 0 (the
// user scrolled up, the pager) styles them. Partial reports that state.
type AgentCell struct {
	versioned
	// Item is the answer; the cell only reads it.
	Item *thread.Item

	gen   int  // Item.TextGen the caches were built from
	final bool // the caches know the item is done
	scan  mdScanner
	// per-width render cache of the stable blocks
	cacheWidth int
	cacheMD    *Markdown
	segs       []mdBlock
	finalLines []string // the last block, rendered once Final
	partial    bool
	safe       safeText // Text made safe to draw (Sanitize), kept incrementally
}

// mdBlock is the cached drawing of one stable block.
type mdBlock struct {
	lines  []string
	styled bool
}

// NewAgentCell returns the cell drawing it.
func NewAgentCell(it *thread.Item) *AgentCell { return &AgentCell{Item: it, gen: it.TextGen} }

// Version implements Cell: the item's revision and the cell's own.
func (c *AgentCell) Version() int { return c.v + c.Item.Rev }

// Live implements Live: a streaming answer re-renders at most once a frame.
func (c *AgentCell) Live() bool { return !c.Item.Done }

// Partial implements Lazy: the last render left some blocks plain.
func (c *AgentCell) Partial() bool { return c.partial }

// Evict implements Evictable: the styled and plain blocks go; the
// scanner's cuts of the source stay, so drawing again is one render.
func (c *AgentCell) Evict() { c.resetCache() }

func (c *AgentCell) resetCache() {
	c.segs, c.finalLines = nil, nil
}

// sync brings the caches in line with the item: a replaced text starts
// over, a completed one redraws its last block.
func (c *AgentCell) sync() {
	if c.gen != c.Item.TextGen {
		c.gen = c.Item.TextGen
		c.scan = mdScanner{}
		c.safe.reset()
		c.resetCache()
	}
	if c.Item.Done && !c.final {
		c.final = true
		c.finalLines = nil
	}
}

// Render implements Cell.
func (c *AgentCell) Render(ctx *RenderContext, width int) []string {
	c.sync()
	// The agent's text never reaches the terminal raw: controls and escape
	// sequences are drawn visibly (Sanitize).
	src := c.safe.update(c.Item.Text(), c.final)
	if strings.TrimSpace(src) == "" {
		return nil
	}
	c.scan.advance(src)
	if c.cacheWidth != width || c.cacheMD != ctx.Markdown {
		c.cacheWidth, c.cacheMD = width, ctx.Markdown
		c.resetCache()
	}
	tail := src[c.scan.segStart:]
	var tailLines []string
	tailPlain := false
	if strings.TrimSpace(tail) != "" {
		if c.final && ctx.Tail < 0 && c.finalLines == nil {
			// wholly above the screen: the last block waits too
			tailLines, tailPlain = plainTail(tail, width, ctx.Styles.Width), true
		} else if c.final {
			if c.finalLines == nil {
				c.finalLines = renderMarkdown(ctx, tail, width)
			}
			tailLines = c.finalLines
		} else {
			tailLines = plainTail(withholdPartialGrapheme(tail), width, ctx.Styles.Width)
		}
	}
	for len(c.segs) < len(c.scan.segs) {
		c.segs = append(c.segs, mdBlock{})
	}
	// Blocks from index styleFrom on must be styled: all of them, or those
	// within the last ctx.Tail lines.
	styleFrom := 0
	if ctx.Tail != 0 {
		budget := ctx.Tail - len(tailLines)
		styleFrom = len(c.segs)
		for styleFrom > 0 && budget > 0 {
			styleFrom--
			b := &c.segs[styleFrom]
			if b.lines == nil {
				b.lines = c.plainBlock(ctx, src, styleFrom, width)
			}
			budget -= len(b.lines) + 1
		}
	}
	// Style newest first, so that a render cut short by ctx.Deadline has
	// styled what is nearest the bottom.
	for i := len(c.segs) - 1; i >= styleFrom; i-- {
		b := &c.segs[i]
		if b.styled {
			continue
		}
		if ctx.pastDeadline() {
			break
		}
		r := c.scan.segs[i]
		b.lines = renderMarkdown(ctx, src[r[0]:r[1]], width)
		b.styled = true
	}
	c.partial = tailPlain
	n := 0
	for i := range c.segs {
		b := &c.segs[i]
		if b.lines == nil {
			b.lines = c.plainBlock(ctx, src, i, width)
		}
		if !b.styled {
			c.partial = true
		}
		n += len(b.lines) + 1
	}
	out := make([]string, 0, 2+n+len(tailLines))
	out = append(out, "")
	for i, b := range c.segs {
		if i > 0 {
			out = append(out, "")
		}
		out = append(out, b.lines...)
	}
	if len(tailLines) > 0 {
		if len(c.segs) > 0 {
			out = append(out, "")
		}
		out = append(out, tailLines...)
	}
	if c.Item.Cut {
		out = markCut(ctx.Styles, out, width)
	}
	return out
}

// CutMark ends an answer or summary that never completed (thread
// Item.Cut: interrupted, or steered mid-answer), drawn dim.
const CutMark = "(cut)"

// markCut ends lines (a cell's, the first blank) with the dim CutMark: on
// the last line when it fits, else on a line of its own.
func markCut(st *Styles, lines []string, width int) []string {
	mark := st.Dim.Render(CutMark)
	if n := len(lines); n > 1 {
		// glamour may pad a line with styled spaces: the mark follows
		// the last visible character.
		last := lines[n-1]
		if w := ansi.StringWidth(strings.TrimRight(ansi.Strip(last), " ")); w > 0 && w+1+len(CutMark) <= width {
			lines[n-1] = ansi.Truncate(last, w, "") + " " + mark
			return lines
		}
	}
	return append(lines, "  "+mark)
}

// plainBlock lays out stable block i plainly, for when it is off screen.
func (c *AgentCell) plainBlock(ctx *RenderContext, src string, i, width int) []string {
	r := c.scan.segs[i]
	return plainTail(src[r[0]:r[1]], width, ctx.Styles.Width)
}

// FitsWidth implements Fitted: Render cuts its lines to the width.
func (c *AgentCell) FitsWidth() {}

// trimBlank drops blank lines (spaces and escape codes only) at both ends.
func trimBlank(lines []string) []string {
	blank := func(l string) bool { return strings.TrimSpace(ansi.Strip(l)) == "" }
	for len(lines) > 0 && blank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && blank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// plainTail draws the open tail as plain text, indented like glamour's
// document margin.
func plainTail(tail string, width int, m ansi.Method) []string {
	tail = strings.TrimRight(tail, "\n")
	lines := WrapTo(tail, width-4, m)
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return lines
}

// withholdPartialGrapheme drops a trailing grapheme cluster that a later
// delta may still extend: a dangling zero-width joiner or a lone regional
// indicator (half a flag). Runes never split (deltas are JSON strings), but
// clusters do.
func withholdPartialGrapheme(s string) string {
	for {
		r, n := utf8.DecodeLastRuneInString(s)
		if n == 0 {
			return s
		}
		switch {
		case r == '\u200d':
			// drop the joiner and the cluster it would join
			s = s[:len(s)-n]
			r2, n2 := utf8.DecodeLastRuneInString(s)
			if n2 > 0 && r2 != '\n' {
				s = s[:len(s)-n2]
			}
			continue
		case r == utf8.RuneError && n == 1:
			s = s[:len(s)-n]
			continue
		case r >= 0x1F1E6 && r <= 0x1F1FF:
			k := 0
			for t := s; ; k++ {
				r3, n3 := utf8.DecodeLastRuneInString(t)
				if n3 == 0 || r3 < 0x1F1E6 || r3 > 0x1F1FF {
					break
				}
				t = t[:len(t)-n3]
			}
			if k%2 == 1 {
				s = s[:len(s)-n]
			}
		}
		return s
	}
}

// mdScanner finds the stable block boundaries of streaming Markdown. It
// looks only at complete lines and remembers where it stopped, so each
// delta is scanned once.
type mdScanner struct {
	pos      int      // bytes of complete lines scanned
	segStart int      // start of the open block
	segs     [][2]int // committed stable blocks [start, end)
	fence    string   // open fence marker ("```", "~~~~"), "" if none
	blank    int      // start of the blank-line run after a block, -1 none
	inList   bool     // the open block contains a list
	quote    bool     // the open block is a block quote
	content  bool     // the open block has a non-blank line
	started  bool
}

func (s *mdScanner) advance(src string) {
	if !s.started {
		s.started = true
		s.blank = -1
	}
	for {
		nl := strings.IndexByte(src[s.pos:], '\n')
		if nl < 0 {
			s.peek(src[s.pos:], s.pos)
			return
		}
		off := s.pos
		line := strings.TrimRight(src[off:off+nl], "\r")
		s.pos = off + nl + 1
		s.line(line, off)
	}
}

// peek lets a line still being typed close the block before it: once it
// shows enough to tell it is not a continuation (a list item, indented
// text), the finished block need not wait for the line's end.
func (s *mdScanner) peek(partial string, off int) {
	if s.blank < 0 || s.fence != "" {
		return
	}
	trim := strings.TrimLeft(partial, " ")
	if len(trim) < 4 || (!strings.Contains(trim, " ") && len(trim) < 11) {
		return // too short to tell a list item ("12. x") from text
	}
	if len(partial)-len(trim) >= 2 || (s.inList && isListItem(trim)) {
		return
	}
	if s.content {
		s.segs = append(s.segs, [2]int{s.segStart, s.blank})
	}
	s.segStart = off
	s.inList, s.quote, s.content = false, false, false
	s.blank = -1
}

func (s *mdScanner) line(l string, off int) {
	trim := strings.TrimLeft(l, " ")
	indent := len(l) - len(trim)
	if s.fence != "" {
		if indent < 4 && strings.HasPrefix(trim, s.fence) && strings.Trim(trim, s.fence[:1]) == "" {
			s.fence = ""
		}
		return
	}
	if strings.TrimSpace(l) == "" {
		if s.blank < 0 {
			s.blank = off
		}
		return
	}
	if s.blank >= 0 {
		cont := indent >= 2 || (s.inList && isListItem(trim))
		if !cont {
			if s.content {
				s.segs = append(s.segs, [2]int{s.segStart, s.blank})
			}
			s.segStart = off
			s.inList, s.quote, s.content = false, false, false
		}
		s.blank = -1
	}
	s.content = true
	if indent < 4 {
		if f := fenceMarker(trim); f != "" {
			s.fence = f
			return
		}
	}
	if indent < 2 && isListItem(trim) {
		s.inList = true
	}
	if strings.HasPrefix(trim, ">") {
		s.quote = true
	}
}

func fenceMarker(trim string) string {
	for _, ch := range []string{"`", "~"} {
		n := 0
		for n < len(trim) && trim[n:n+1] == ch {
			n++
		}
		if n >= 3 {
			if ch == "`" && strings.Contains(trim[n:], "`") {
				return ""
			}
			return strings.Repeat(ch, n)
		}
	}
	return ""
}

func isListItem(trim string) bool {
	if len(trim) >= 2 && (trim[0] == '-' || trim[0] == '*' || trim[0] == '+') && trim[1] == ' ' {
		return true
	}
	i := 0
	for i < len(trim) && i < 9 && trim[i] >= '0' && trim[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(trim) && (trim[i] == '.' || trim[i] == ')') && trim[i+1] == ' '
}

// Shed implements Shedder: it forgets the glamour drawing of every
// stable block but those in the answer's last keep lines (their plain
// layout is redone when they are drawn off screen again), so that after
// a whole-transcript render — the pager — a huge answer holds no more
// than the live view needs. The next render re-styles blocks as they
// come into view.
func (c *AgentCell) Shed(keep int) {
	n, shed := 0, false
	for i := len(c.segs) - 1; i >= 0; i-- {
		b := &c.segs[i]
		lines := len(b.lines) + 1
		if n >= keep && b.styled {
			b.lines, b.styled = nil, false
			shed = true
		}
		n += lines
	}
	if shed {
		c.partial = true
		c.Touch()
	}
}
