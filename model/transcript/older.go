package transcript

import (
	"tandem/model/act"
	"tandem/thread"
	"tandem/ui"
)

// A resumed thread comes with its newest turns only (backend.ResumeTurns):
// the resume of a 20,000-turn thread then costs the server's own time, not
// the whole history's (#17). The turns before them are read on demand, a
// page at a time (`thread/turns/list`), when the transcript's top comes
// into view; an OlderCell at the top says so.

// olderPage is how many earlier turns one read brings.
const olderPage = 50

// olderState follows the earlier turns of a pane's thread: cursor reads
// the ones before the first turn drawn ("" when none are left), marker is
// the transcript's first cell while any are.
type olderState struct {
	thread  string
	cursor  string
	loading bool
	marker  *ui.OlderCell
	// held is a page that came while the pager was open: the pager
	// draws the transcript's cells by index, so it goes in once the
	// pager is closed.
	held *act.OlderTurns
}

// BeginOlder starts following thread id's earlier turns from cursor: when
// there are any, the marker goes first in the transcript. canRead says a
// client is there to read them (a watcher or a replay has none).
func (p *Panes) BeginOlder(id, cursor string, canRead bool) {
	m := p.main
	m.older = olderState{thread: id, cursor: cursor}
	if cursor == "" {
		return
	}
	m.older.marker = &ui.OlderCell{}
	switch {
	case p.sb.on:
		m.older.marker.Set(ui.OlderHidden, "--no-alt-screen prints into the terminal's scrollback, where nothing can go above; resume without it to read them")
	case !canRead:
		m.older.marker.Set(ui.OlderHidden, "a watcher or a replay has only the turns the session opened with")
	}
	m.v.transcript.Insert(0, m.older.marker)
}

// LoadOlderIfTop reads the next page of earlier turns when the top of the
// thread's transcript is in view (h rows tall) and there are any to read.
func (p *Panes) LoadOlderIfTop(h int, canRead bool) {
	m := p.main
	o := &m.older
	if o.cursor == "" || o.loading || o.marker == nil || o.marker.State == ui.OlderHidden ||
		!canRead || p.shown != m || p.pager != nil || p.w == 0 {
		return
	}
	v := &m.v
	if v.follow {
		if v.transcript.Sync(p.renderContext(h), p.RenderWidth()) > h {
			return
		}
	} else if v.top > 0 {
		return
	}
	o.loading = true
	o.marker.Set(ui.OlderLoading, "")
	p.env.Out.Call(act.ToPanes, act.ListOlderTurns{Thread: o.thread, Cursor: o.cursor, Limit: olderPage})
}

// OnOlderTurns puts a page of earlier turns above the ones drawn; the
// lines on screen stay where they are. A short page leaves the top in
// view, so the next one is read at once.
func (p *Panes) OnOlderTurns(msg act.OlderTurns, h int, canRead bool) {
	m := p.main
	o := &m.older
	if !o.loading || msg.Thread != o.thread || msg.Cursor != o.cursor || o.marker == nil {
		return // of a thread or a read that is no longer shown
	}
	if p.pager != nil {
		o.held = &msg
		return
	}
	o.loading = false
	if p.shown != m {
		o.marker.Set(ui.OlderMore, "") // read again once the thread is shown
		return
	}
	if msg.Err != nil {
		o.marker.Set(ui.OlderFailed, act.OneLine(msg.Err))
		return
	}
	v := &m.v
	at := 0
	for at < len(v.transcript.Cells) && v.transcript.Cells[at] != ui.Cell(o.marker) {
		at++
	}
	at++ // below the marker
	items := m.state.Prepend(msg.Turns)
	cells := make([]ui.Cell, 0, len(items))
	for _, it := range items {
		cells = append(cells, v.newCell(it, p.cwd, false))
	}
	before := v.transcript.Start(at)
	v.transcript.Insert(at, cells...)
	o.cursor = msg.Older
	if o.cursor == "" || len(msg.Turns) == 0 {
		o.cursor = ""
		o.marker.Set(ui.OlderNone, "")
	} else {
		o.marker.Set(ui.OlderMore, "")
	}
	if !v.follow {
		v.transcript.Sync(p.renderContext(v.visibleTail(v.top, h)), p.RenderWidth())
		v.top += v.transcript.Start(at+len(cells)) - before
	}
	v.frameOK = false
	if m.seek.turn != "" {
		p.seekOnOlder(h, canRead) // scrollto.go: the turn /search chose may be in this page
		return
	}
	p.LoadOlderIfTop(h, canRead)
}

// Peek draws a thread's newest turns while its resume runs: the resume's
// answer then replaces them (Open, LoadHistory). A peek that failed, or
// comes once the thread has items or a sub-agent is shown, changes
// nothing; switching says a thread is being opened.
func (p *Panes) Peek(msg act.ThreadPeek, switching bool) {
	m := p.main
	if msg.Err != nil || len(msg.Turns) == 0 || !switching || p.shown != m ||
		len(m.state.Items()) > 0 || p.peeked != "" {
		return
	}
	p.peeked = msg.ID
	var st thread.State
	st.Reset(msg.ID)
	m.v.reset()
	for _, it := range st.Load(msg.Turns) {
		m.v.addItem(it, p.cwd)
	}
}

// Peeked reports whether a thread's newest turns are drawn while its
// resume runs.
func (p *Panes) Peeked() bool { return p.peeked != "" }

// Empty reports whether the thread has no items yet.
func (p *Panes) Empty() bool { return len(p.main.state.Items()) == 0 }

// OlderPage is how many earlier turns one read brings.
const OlderPage = olderPage
