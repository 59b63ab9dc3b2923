package deck

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/model/keys"
)

var (
	boldStyle  = lipgloss.NewStyle().Bold(true)
	faintStyle = lipgloss.NewStyle().Faint(true)
	selStyle   = lipgloss.NewStyle().Reverse(true)
)

// View implements tea.Model: the focused lane's View (only that lane's:
// a lane not on screen is never drawn), the list, the inbox, or the lane
// a request is answered in under a header naming its thread. The title
// counts the threads that wait.
func (d *Model) View() tea.View {
	if d.width == 0 || d.height == 0 {
		return tea.NewView("")
	}
	waiting := d.waitingBut(noLane)
	switch d.mode {
	case modeLane:
		if l := d.lane(d.focus); l != nil {
			v := l.pane.View()
			if waiting > 0 {
				v.WindowTitle = fmt.Sprintf("tandem · %d waiting", waiting)
			}
			return v
		}
	case modePeek:
		if l := d.lane(d.peek.lane); l != nil {
			v := l.pane.View()
			// The form is the thread's first request (State.Pending: the
			// shown one first), which may not be the row chosen: say which.
			asks := ""
			if len(l.pending) > 0 {
				asks = ": " + what(l.pending[0])
				if len(l.pending) > 1 {
					asks += fmt.Sprintf(" (1 of its %d)", len(l.pending))
				}
			}
			head := "answering " + oneLine(d.name(l)) + " from the inbox" + asks + " · " + keys.Display(d.keys.Deck) + " back to the inbox"
			v.Content = boldStyle.Render(fit(head, d.width)) + "\n" + v.Content
			v.WindowTitle = fmt.Sprintf("tandem · %d waiting", waiting)
			return v
		}
	}
	var lines []string
	switch {
	case d.mode == modeInbox:
		lines = d.inboxLines()
	case d.list.asking == askCommit:
		lines = d.commitLines() // commitmerge.go
	default:
		lines = d.listLines()
	}
	v := tea.NewView(strings.Join(lines, "\n"))
	v.AltScreen = true
	v.ReportFocus = true
	v.WindowTitle = "tandem · agents"
	if waiting > 0 {
		v.WindowTitle = fmt.Sprintf("tandem · %d waiting", waiting)
	}
	return v
}

// count writes n things: "1 thread", "2 threads".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// fit cuts s to w cells and pads it to them.
func fit(s string, w int) string {
	n := width(s)
	if n > w {
		if plainASCII(s) && w > 0 { // no grapheme clusters to find
			s = s[:w-1] + "…"
		} else {
			s = ansi.Truncate(s, w, "…")
		}
		n = width(s)
	}
	if n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// width is how many cells s takes.
func width(s string) int {
	if plainASCII(s) {
		return len(s)
	}
	return ansi.StringWidth(s)
}

// plainASCII reports whether s is printable ASCII only (one cell a byte,
// no escape sequence).
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// frame lays out a screen of d.height lines: head lines, then body
// scrolled so line sel shows, then the foot lines.
func (d *Model) frame(head, body []string, sel int, foot []string) []string {
	room := max(0, d.height-len(head)-len(foot))
	top := 0
	if sel >= room {
		top = sel - room + 1
	}
	out := append([]string(nil), head...)
	for i := top; i < len(body) && i < top+room; i++ {
		out = append(out, body[i])
	}
	for len(out) < d.height-len(foot) {
		out = append(out, "")
	}
	for _, f := range foot {
		out = append(out, faintStyle.Render(fit(f, d.width)))
	}
	return out[max(0, len(out)-d.height):]
}

// column is one column of the list: its head and its cells, row by row.
type column struct {
	head  string
	width int
}

// layout picks the columns' widths for rows at width w: name, state and
// the last line first; then age, tokens, where and branch while they fit.
func layout(w int, rows [][]string, heads []string) []column {
	cols := make([]column, len(heads))
	for i, h := range heads {
		cols[i] = column{head: h, width: width(h)}
		for _, r := range rows {
			cols[i].width = max(cols[i].width, width(r[i]))
		}
	}
	caps := []int{24, 24, 18, 15, 6, 4, 0} // name, where, branch, state, tokens, age, last
	for i, c := range caps {
		if c > 0 {
			cols[i].width = min(cols[i].width, c)
		}
	}
	total := func() int {
		n := 2 // the marks
		for _, c := range cols[:len(cols)-1] {
			if c.width > 0 {
				n += c.width + 1
			}
		}
		return n
	}
	for _, drop := range []int{2, 1, 4, 5} { // branch, where, tokens, age
		if total()+12 <= w {
			break
		}
		cols[drop].width = 0
	}
	cols[len(cols)-1].width = max(0, w-total())
	if over := total() - w; over > 0 { // still too wide: the name gives
		cols[0].width = max(1, cols[0].width-over)
	}
	return cols
}

// cells joins one row's cells in the columns.
func cells(cols []column, row []string) string {
	var b strings.Builder
	for i, c := range cols {
		if c.width == 0 {
			continue
		}
		b.WriteString(fit(row[i], c.width))
		if i < len(cols)-1 {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// listLines is the list: a title, the filter (or the prompt asked), the
// rows (a thread, its sub-agents nested, its conflicts; then the stored
// threads not open), a help line.
func (d *Model) listLines() []string {
	rs := d.rows()
	scope := "this workspace"
	if d.list.all {
		scope = "all workspaces"
	}
	title := fmt.Sprintf("tandem agents · %s · %d waiting · %s", count(len(rs), "thread"), d.waitingBut(noLane), scope)
	head := []string{boldStyle.Render(fit(title, d.width)), fit(d.inputLine(), d.width)}
	heads := []string{"NAME", "WHERE", "BRANCH", "STATE", "TOKENS", "AGE", "LAST"}
	type line struct {
		key   string // the row's (row.key); "" for a sub-agent's line
		cells []string
		marks string
		plain string // a line that is no row (a conflict)
	}
	var lines []line
	var cellRows [][]string
	conf := d.conf // kept by settle (conflicts)
	now := d.opts.Now()
	for _, r := range rs {
		if st := r.stored; st != nil {
			c := []string{st.Name, d.storedWhere(st), st.Branch, "idle", "", age(now, st.Created), ""}
			lines = append(lines, line{key: r.key(), cells: c, marks: " "})
			cellRows = append(cellRows, c)
			continue
		}
		l := r.lane
		mark := " "
		if len(conf[l.ID]) > 0 {
			mark = "!"
		}
		c := []string{oneLine(d.name(l)), d.where(l), oneLine(l.Branch), d.narrow(d.state(l)), tokens(l.sum.Tokens), age(now, l.sum.Created), oneLine(l.sum.LastLine)}
		lines = append(lines, line{key: r.key(), cells: c, marks: mark})
		cellRows = append(cellRows, c)
		for i, a := range l.sum.Agents {
			n := a.Name
			if n == "" {
				n = short(a.ThreadID, 8)
			}
			branch := "├ "
			if i == len(l.sum.Agents)-1 {
				branch = "└ "
			}
			c := []string{branch + oneLine(n), "", "", d.narrow(phaseWord(a.Phase)), "", "", ""}
			lines = append(lines, line{cells: c, marks: " "})
			cellRows = append(cellRows, c)
		}
		for _, c := range conf[l.ID] {
			lines = append(lines, line{plain: "   ! same file: " + c})
		}
	}
	cols := layout(d.width-2, cellRows, heads)
	if d.height >= 8 {
		hs := make([]string, len(cols))
		for i, c := range cols {
			hs[i] = c.head
		}
		head = append(head, faintStyle.Render(fit("  "+cells(cols, hs), d.width)))
	}
	sel, _ := d.selectedIn(rs)
	selKey := ""
	if sel.lane != nil || sel.stored != nil {
		selKey = sel.key()
	}
	var body []string
	at := 0
	for _, ln := range lines {
		if ln.plain != "" {
			body = append(body, fit(ln.plain, d.width))
			continue
		}
		s := " " + ln.marks + cells(cols, ln.cells)
		if ln.key != "" && ln.key == selKey {
			at = len(body)
			s = "›" + ln.marks + cells(cols, ln.cells)
			body = append(body, selStyle.Render(fit(s, d.width)))
			continue
		}
		body = append(body, fit(s, d.width))
	}
	if len(rs) == 0 {
		body = append(body, fit("  no thread here · "+keys.Display(d.keys.DeckNew)+" starts one", d.width))
	}
	return d.frame(head, body, at, d.foot(d.listHelp(sel)))
}

// narrow is a state's word on a narrow terminal (under 60 columns):
// "waiting", "unread".
func (d *Model) narrow(state string) string {
	if d.width >= 60 {
		return state
	}
	switch state {
	case "waiting for you":
		return "waiting"
	case "done · unread":
		return "unread"
	}
	return state
}

// inputLine is the filter, or the prompt or name the list asks.
func (d *Model) inputLine() string {
	switch d.list.asking {
	case askNew:
		return "prompt for a new thread: " + d.list.input + "▏"
	case askWorktree:
		return "prompt for a new thread in a worktree: " + d.list.input + "▏"
	case askRename:
		return "new name: " + d.list.input + "▏"
	case askRemove:
		n := "the worktree"
		if l := d.lane(d.list.askLane); l != nil {
			n = oneLine(d.name(l)) + "'s worktree"
		}
		return "remove " + n + " anyway, losing what is below? " + keys.Display(d.keys.DeckRemove) + " yes · any other key no"
	}
	if d.list.filter == "" {
		return faintStyle.Render("filter: type to filter")
	}
	return "filter: " + d.list.filter + "▏"
}

// footLines is how many lines a notice may take (a refusal naming its
// files): the last is cut.
const footLines = 4

// foot is the notice when there is one, wrapped at the width in up to
// footLines lines (at most a third of the screen), else help (one line).
func (d *Model) foot(help string) []string {
	if d.list.notice == "" {
		return []string{help}
	}
	lines := strings.Split(ansi.Wrap(oneLine(d.list.notice), max(1, d.width), " ,"), "\n")
	if most := max(1, min(footLines, d.height/3)); len(lines) > most {
		lines = lines[:most]
		lines[most-1] += " …"
	}
	return lines
}

// listHelp is the list's help line: the keys that act on sel, the
// selected row (merge and remove for a thread in a worktree tandem made).
func (d *Model) listHelp(sel row) string {
	km := d.keys
	switch d.list.asking {
	case askNone:
	case askRemove:
		return keys.Display(km.DeckRemove) + " remove anyway · any other key: keep it"
	default:
		return keys.Display(km.DeckOpen) + " done · " + keys.Display(km.DeckClose) + " drop it"
	}
	if sel.stored != nil {
		return keys.Display(km.DeckOpen) + " open (resume it) · " + keys.Display(km.DeckInbox) + " inbox · " +
			keys.Display(km.DeckNew) + " new · " + keys.Display(km.DeckScope) + " all/here · " + keys.Display(km.DeckClose) + " back"
	}
	parts := []string{keys.Display(km.DeckOpen) + " open"}
	if sel.lane != nil && sel.lane.Worktree != "" {
		parts = append(parts, keys.Display(km.DeckMerge)+" merge back", keys.Display(km.DeckRemove)+" remove worktree")
	}
	parts = append(parts,
		keys.Display(km.DeckInbox)+" inbox",
		keys.Display(km.DeckNew)+" new", keys.Display(km.DeckNewWorktree)+" in a worktree",
		keys.Display(km.DeckRename)+" rename", keys.Display(km.DeckArchive)+" archive",
		keys.Display(km.DeckInterrupt)+" interrupt", keys.Display(km.DeckStop)+" stop",
		keys.Display(km.DeckScope)+" all/here", keys.Display(km.DeckClose)+" back",
	)
	return strings.Join(parts, " · ")
}

// inboxLines is the inbox: every request waiting, oldest first, with
// who asks and what, and how long it has waited.
func (d *Model) inboxLines() []string {
	es := d.inbox()
	title := fmt.Sprintf("inbox · %s waiting · oldest first", count(len(es), "request"))
	head := []string{boldStyle.Render(fit(title, d.width))}
	sel, _ := d.selectedEntry()
	now := d.opts.Now()
	var body []string
	at := 0
	w := 0
	for _, e := range es {
		w = max(w, ansi.StringWidth(oneLine(d.asker(e.lane, e.req))))
	}
	w = min(w, max(8, d.width/3))
	for _, e := range es {
		row := fit(oneLine(d.asker(e.lane, e.req)), w) + " " + fit(age(now, e.since), 4) + " " + what(e.req)
		if e.key() == sel.key() {
			at = len(body)
			body = append(body, selStyle.Render(fit("› "+row, d.width)))
			continue
		}
		body = append(body, fit("  "+row, d.width))
	}
	if len(es) == 0 {
		body = append(body, fit("  nothing waits for you", d.width))
	}
	km := d.keys
	help := keys.Display(km.DeckOpen) + " answer it here · " + keys.Display(km.DeckInbox) + " the list · " + keys.Display(km.DeckClose) + " back"
	return d.frame(head, body, at, d.foot(help))
}
