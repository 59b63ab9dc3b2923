package transcript

import (
	"tandem/model/act"
	"tandem/ui"
)

// Scrolling to a turn (ScrollToTurn): /search resumes a thread at the
// turn that holds the match. A turn above the page the resume brought is
// read first, a page of earlier turns at a time (older.go), until it is
// there or none are left.

// seekState is the turn the thread's pane still has to scroll to once
// an earlier page brings it ("" none).
type seekState struct{ turn string }

// ScrollToTurn scrolls the thread's pane so that turn id's first line is
// the top one (or, on the last screen, follows the bottom); h is the
// transcript's height, canRead says a client can read earlier turns. It
// reports whether the turn is drawn now; when it is not, earlier pages
// are read and the scroll is made when they bring it. A turn neither
// drawn nor readable is left: the pane stays where it is.
func (p *Panes) ScrollToTurn(id string, h int, canRead bool) bool {
	m := p.main
	m.seek = seekState{}
	if id == "" {
		return false
	}
	if p.scrollTo(m, id, h) {
		return true
	}
	o := &m.older
	if o.cursor == "" || !canRead || o.marker == nil || o.marker.State == ui.OlderHidden {
		return false
	}
	m.seek.turn = id
	if !o.loading {
		o.loading = true
		o.marker.Set(ui.OlderLoading, "")
		p.env.Out.Call(act.ToPanes, act.ListOlderTurns{Thread: o.thread, Cursor: o.cursor, Limit: olderPage})
	}
	return false
}

// seekOnOlder goes on with a scroll to a turn once an earlier page is in.
func (p *Panes) seekOnOlder(h int, canRead bool) {
	if id := p.main.seek.turn; id != "" {
		p.ScrollToTurn(id, h, canRead)
	}
}

// scrollTo scrolls m to the first cell of turn id, if one is drawn.
func (p *Panes) scrollTo(m *Pane, id string, h int) bool {
	v := &m.v
	var cell ui.Cell
	for _, it := range m.state.Items() {
		if it.Key.Turn == id {
			if c, ok := v.cells[it]; ok {
				cell = c
				break
			}
		}
	}
	if cell == nil {
		return false
	}
	at := -1
	for i, c := range v.transcript.Cells {
		if c == cell {
			at = i
			break
		}
	}
	if at < 0 {
		return false
	}
	total := v.transcript.Sync(p.renderContext(0), p.RenderWidth()) // every line: the turn may be far up
	top := v.transcript.Start(at)
	if maxTop := max(0, total-h); top >= maxTop {
		v.follow = true
	} else {
		v.top, v.follow = top, false
	}
	v.frameOK = false
	return true
}
