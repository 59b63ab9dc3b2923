package transcript

import "tandem/ui"

// Your prompts (#29, docs/SEARCH.md): one key scrolls the transcript, or
// the pager, to the previous or the next prompt you sent (a UserCell),
// its top line (the blank above the text) at the top of the screen.

// isPrompt reports whether c draws a message the user sent.
func isPrompt(c ui.Cell) bool {
	_, ok := c.(*ui.UserCell)
	return ok
}

// PromptJump is how many lines the shown pane's transcript, h rows tall,
// has to scroll for the prompt before the screen's top line (dir < 0) or
// the one after it (dir > 0) to be on the top line; ok is false when
// there is none that way. With none before, it is the way to the top,
// whose scroll reads the thread's earlier turns (older.go); with none
// after, the way to the bottom. The cells the prompt brings into view
// are drawn first, so the line it starts on is the one it is drawn at.
func (p *Panes) PromptJump(dir, h int) (lines int, ok bool) {
	v := &p.shown.v
	top := v.top
	total := v.transcript.Sync(p.renderContext(v.visibleTail(top, h)), p.RenderWidth())
	if v.follow {
		top = max(0, total-h)
	}
	cells := v.transcript.Cells
	at := -1
	if dir < 0 {
		for i := len(cells) - 1; i >= 0; i-- {
			if isPrompt(cells[i]) && v.transcript.Start(i) < top {
				at = i
				break
			}
		}
	} else if top < total-h {
		for i := range cells {
			if isPrompt(cells[i]) && v.transcript.Start(i) > top {
				at = i
				break
			}
		}
	}
	if at < 0 {
		if dir < 0 {
			return -top, false
		}
		return total - top, false
	}
	// Draw what comes into view from the prompt down, then measure.
	v.transcript.Sync(p.renderContext(v.visibleTail(v.transcript.Start(at), h)), p.RenderWidth())
	return v.transcript.Start(at) - top, true
}

// pagerPromptJump moves the pager to the prompt before its top line (dir
// < 0) or after it (dir > 0), if there is one drawn yet.
func (p *Panes) pagerPromptJump(dir int) {
	pg := p.pager
	if pg.page != nil {
		return // a page of text has no prompts
	}
	cells := p.shown.v.transcript.Cells
	starts := make([]int, len(pg.cells))
	n := 0
	for i, c := range pg.cells {
		starts[i] = n
		n += len(c)
	}
	at := -1
	for i := range pg.cells {
		if i >= len(cells) || len(pg.cells[i]) == 0 || !isPrompt(cells[i]) {
			continue
		}
		if dir < 0 && starts[i] < pg.top {
			at = i // the last one above
		}
		if dir > 0 && starts[i] > pg.top {
			at = i
			break
		}
	}
	if at < 0 {
		return
	}
	pg.scroll(starts[at]-pg.top, p.h)
}
