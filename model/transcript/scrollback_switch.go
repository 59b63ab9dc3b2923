package transcript

import (
	"strings"

	"tandem/backend"
	"tandem/model/act"
	"tandem/ui"
)

// A thread switch with --no-alt-screen (scrollback.go): what the old
// thread leaves in the terminal's scrollback, and the separator before
// the new one.

// Leave is called as a thread switch replaces the transcript: the old
// thread's cells not printed yet are printed as they are, then a line
// that names the new thread t (opened as how: "new", "resumed", "forked",
// "rewound"; from is the thread a fork came from) — the scrollback above
// is never erased.
func (p *Panes) Leave(how string, t backend.Thread, from string, running bool) {
	s := &p.sb
	if !s.on {
		return
	}
	s.left = p.main.state.ThreadID()
	if p.w > 0 {
		p.queueCells(true, running)
	}
	// The new transcript starts over; the old cells still to be printed
	// are pending or in flight, and go out first.
	s.state, s.plans, s.from = map[ui.Cell]cellState{}, map[ui.Cell]int{}, 0
	title := t.Preview
	if t.Name != nil && *t.Name != "" {
		title = *t.Name
	}
	id := act.ShortID(t.ID)
	var what string
	switch {
	case how == "rewound":
		what = "rewound to an earlier message: thread " + id + " goes on from here"
	case how == "forked" && from != "" && from == s.left:
		what = "forked into thread " + id + ": the conversation above goes on here"
	default:
		what = how + " thread " + id + " " + act.QuoteTitle(title)
	}
	s.pending = append(s.pending, Separator(p.look.Styles, what, p.width()))
}

// Opened is called once a switched-to thread's history is loaded: the
// history of a rewind, or of a fork of the thread shown, is in the
// scrollback already (above the separator), so it is not printed again;
// another thread's history is.
func (p *Panes) Opened(how, from string) {
	s := &p.sb
	if !s.on || !(how == "rewound" || (how == "forked" && from != "" && from == s.left)) {
		return
	}
	for _, c := range p.main.v.transcript.Cells {
		if cellItem(c) != nil || isUserCell(c) {
			s.state[c] = cellPrinted
		}
	}
}

func isUserCell(c ui.Cell) bool {
	_, ok := c.(*ui.UserCell)
	return ok
}

// Separator is a dim rule naming what follows: "── text ───…" at width.
func Separator(st ui.Styles, text string, width int) string {
	line := "── " + text + " "
	if n := width - len([]rune(line)); n > 0 {
		line += strings.Repeat("─", n)
	}
	return st.Dim.Render(ui.Truncate(line, width))
}
