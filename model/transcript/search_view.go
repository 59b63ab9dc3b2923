package transcript

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"tandem/internal/lib/find"
	"tandem/model/keys"
	"tandem/ui"
)

// findWindow is Window with the search line open: h-1 rows of the
// transcript, every match on them marked (the current one underlined
// too), and the search line.
func (p *Panes) findWindow(h int) []string {
	s := p.find
	v := &p.shown.v
	lines := p.window(h - 1)
	t := &v.transcript
	top := v.top
	if maxTop := max(0, t.Total()-(h-1)); v.follow || top > maxTop {
		top = maxTop
	}
	cur := p.curLine()
	out := make([]string, len(lines), len(lines)+1)
	for k, l := range lines {
		col := -1
		if top+k == cur {
			col = s.at.col
		}
		out[k] = find.Mark(l, s.q.Spans(find.Plain(l)), col)
	}
	return append(out, p.findLine(p.width()))
}

// curLine is the transcript line of the current match as drawn now (-1
// for none): placed again when its cell was drawn anew since.
func (p *Panes) curLine() int {
	s := p.find
	if s.cur < 0 || s.at.cell == nil || s.at.col < 0 {
		return -1
	}
	t := &s.pane.v.transcript
	i := indexOf(t, s.at.cell, s.at.hint)
	if i < 0 {
		return -1
	}
	s.at.hint = i
	width := p.RenderWidth()
	if n := t.Start(i+1) - t.Start(i); s.at.version != s.at.cell.Version() || s.at.width != width || s.at.n != n {
		j := s.cur
		for _, x := range s.hits {
			if x.cell == s.at.cell {
				j -= x.first
				break
			}
		}
		cell := s.at.cell
		s.at = s.locate(t, i, width, j)
		s.at.cell, s.at.hint = cell, i
	}
	return t.Start(i) + s.at.off
}

// findLine draws the search line w wide: the query, then the count
// ("3/17"), what the search of earlier turns is doing, or a word about
// the last step, and the keys while there is room.
func (p *Panes) findLine(w int) string {
	s := p.find
	st := p.look.Styles
	count := ""
	switch {
	case s.q.Empty():
	case s.total == 0:
		count = "no match"
	case s.cur < 0:
		count = strconv.Itoa(s.total) + " matches"
	default:
		count = strconv.Itoa(s.cur+1) + "/" + strconv.Itoa(s.total)
	}
	if o := s.older; o != nil {
		count += " · " + o.progress() + " · " + keys.Short(p.keys.FindClose, 1) + " stops"
	} else if s.note != "" {
		count += " · " + s.note
	}
	count = strings.TrimPrefix(count, " · ")
	left := " find: " + ui.SanitizeLine(s.term) + "▏"
	right := count + " "
	if hint := p.findHint(); lipgloss.Width(left)+lipgloss.Width(right)+lipgloss.Width(hint) <= w {
		right = count + hint
	}
	gap := w - lipgloss.Width(left) - lipgloss.Width(right)
	line := left + strings.Repeat(" ", max(1, gap)) + right
	return st.Status.Reverse(true).Render(ui.Truncate(line, w))
}

// findHint is the search line's keys, from the keymap: "  Enter older ·
// Shift+Enter newer · Tab stay · Esc back ".
func (p *Panes) findHint() string {
	km := p.keys
	return "  " + keys.Short(km.FindOlder, 1) + " older · " + keys.Short(km.FindNewer, 1) + " newer · " +
		keys.Short(km.FindStay, 1) + " stay · " + keys.Short(km.FindClose, 1) + " back "
}
