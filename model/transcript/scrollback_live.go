package transcript

import (
	"strconv"

	"tandem/ui"
)

// The live area with --no-alt-screen: the cells not printed yet, drawn
// below what the terminal's scrollback holds, and the room a print may
// take (scrollback.go).

// liveReserve is how many rows of the window the live area leaves free
// (a third): what one print may carry.
func (p *Panes) liveReserve() int { return max(1, p.h/3) }

// LiveRoom is how many rows the live area has for cells above a bottom
// (form, composer, status line) of bottom rows.
func (p *Panes) LiveRoom(bottom int) int { return p.h - p.liveReserve() - bottom }

// printRows is how many rows the next print may carry: the reserve, less
// what a bottom of bottom rows taller than the rest of the window takes
// (quitting, the live area is gone: the reserve).
func (p *Panes) printRows(bottom int, quitting bool) int {
	if quitting {
		return p.liveReserve()
	}
	return min(p.liveReserve(), p.h-bottom)
}

// LiveLines returns the live area's lines, at most room of them: when
// the cells are taller, their last lines under a line saying how many
// are above.
func (p *Panes) LiveLines(room int, running bool) []string {
	t := &p.main.v.transcript
	from := p.sb.liveFrom(t.Cells)
	if p.sb.bulk { // what is finished shows once printed (scrollback.bulk)
		for from < len(t.Cells) && (p.sb.state[t.Cells[from]] != cellLive || finished(t.Cells[from], from == len(t.Cells)-1, running)) {
			from++
		}
	}
	if room <= 0 || from >= len(t.Cells) {
		return nil
	}
	w := p.width()
	total := t.Sync(p.renderContext(room), p.RenderWidth())
	start := t.Start(from)
	if total-start <= room {
		return t.Window(start, total-start, w)
	}
	lines := t.Window(total-room, room, w)
	if len(lines) > 0 {
		hidden := total - room + 1 - start
		lines[0] = p.look.Styles.Dim.Render(ui.Truncate("  ↑ "+strconv.Itoa(hidden)+" more lines: printed when done (ctrl+t shows all)", w))
	}
	return lines
}

// InlineFrame returns the last live area kept at w×h, if it is good.
func (p *Panes) InlineFrame(w, h int) (string, bool) {
	s := &p.sb
	if s.frameOK && s.frameW == w && s.frameH == h && !p.main.v.transcript.Pending() {
		return s.frame, true
	}
	return "", false
}

// KeepInlineFrame keeps the live area just drawn (a render cache).
func (p *Panes) KeepInlineFrame(frame string, w, h int) {
	s := &p.sb
	s.frame, s.frameOK, s.frameW, s.frameH = frame, true, w, h
}
