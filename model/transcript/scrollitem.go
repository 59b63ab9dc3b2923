package transcript

import "tandem/ui"

// ScrollToItem scrolls the shown pane so the cell drawing item id of
// turn turn ("" for the turn's first item drawn) starts a third of the
// way down a transcript h rows tall, and stops following the bottom. It
// reports false, moving nothing, when no such item is drawn (a turn not
// read yet: see older.go).
func (p *Panes) ScrollToItem(turn, id string, h int) bool {
	pane := p.shown
	var c ui.Cell
	for _, it := range pane.state.Items() {
		if it.Key.Turn == turn && (id == "" || it.Key.Item == id) {
			if c = pane.v.cell(it); c != nil {
				break
			}
		}
	}
	if c == nil {
		return false
	}
	p.scrollToCell(c, 0, h)
	return true
}

// scrollToCell scrolls the shown pane so line off of cell c is a third
// of the way down a transcript h rows tall.
func (p *Panes) scrollToCell(c ui.Cell, off, h int) {
	v := &p.shown.v
	t := &v.transcript
	i := indexOf(t, c, -1)
	if i < 0 {
		return
	}
	total := t.Sync(p.renderContext(v.visibleTail(v.top, h)), p.RenderWidth())
	v.follow = false
	v.top = min(max(0, t.Start(i)+off-h/3), max(0, total-h))
	v.frameOK = false
}
