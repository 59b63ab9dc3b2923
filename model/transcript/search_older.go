package transcript

import (
	"errors"
	"strconv"

	"tandem/backend"
	"tandem/model/act"
	"tandem/thread"
	"tandem/ui"
)

// Past the oldest match of the turns drawn, a search goes on in the
// thread's earlier turns not read yet (older.go): the server is asked
// where the term occurs (`thread/searchOccurrences`: messages and
// answers) and the pages up to the newest such turn are read. When the
// server knows of none (or has no such method) the pages are read
// (`thread/turns/list`, searchPage turns a call) and searched here,
// every item, until one matches or the thread's start. Either way
// the pages read go above the transcript, as scrolling up would have
// put them, and the newest match in them is shown. Esc stops it.

// searchPage is how many earlier turns one read of a search brings.
const searchPage = 200

// occurrencesPage is how many occurrences one server search brings.
const occurrencesPage = 200

// olderSearch is a search of the earlier turns, running.
type olderSearch struct {
	seq    int
	thread string
	// asking: the server's search runs; target is the turn to read to
	// ("" while unknown, or when the server's search found none or is not
	// there: read until a page matches); found the occurrences the server
	// told of.
	asking bool
	target string
	found  int
	// cursor reads the next page; read are the turns read so far,
	// oldest first.
	cursor string
	read   []backend.Turn
}

// progress says what the search of earlier turns does.
func (o *olderSearch) progress() string {
	if o.asking {
		return "asking the server about earlier turns…"
	}
	return "reading earlier turns… " + strconv.Itoa(len(o.read)) + " read"
}

// findOlder searches the earlier turns not read yet for the query, if
// the shown pane is the thread's and any are left to read.
func (p *Panes) findOlder(h int, canRead bool) {
	s := p.find
	m := p.main
	o := &m.older
	switch {
	case s.pane != m || o.cursor == "" || o.marker == nil:
		s.note = "no earlier match"
		return
	case s.exhausted == s.q.Term():
		s.note = "no earlier match (earlier turns searched)"
		return
	case !canRead || o.marker.State == ui.OlderHidden:
		s.note = "no earlier match here; earlier turns are not read in this view"
		return
	case o.loading:
		s.note = "earlier turns are being read: again in a moment"
		return
	}
	o.loading = true
	o.marker.Set(ui.OlderLoading, "")
	p.findSeq++
	s.older = &olderSearch{seq: p.findSeq, thread: o.thread, cursor: o.cursor}
	if p.noServerFind {
		p.readSearchPage()
		return
	}
	s.older.asking = true
	p.env.Out.Call(act.ToPanes, act.SearchOccurrences{Thread: o.thread, Term: s.q.Term(), Limit: occurrencesPage, Seq: p.findSeq})
}

// olderFor returns the running search of earlier turns seq is of (nil
// when it was stopped or replaced).
func (p *Panes) olderFor(seq int) *olderSearch {
	if p.find == nil || p.find.older == nil || p.find.older.seq != seq {
		return nil
	}
	return p.find.older
}

// onOccurrences takes a page of the server's search: the newest
// occurrence in a turn not read yet is what to read to.
func (p *Panes) onOccurrences(msg act.Occurrences, f DoneFacts) {
	o := p.olderFor(msg.Seq)
	if o == nil {
		return
	}
	if msg.Err != nil {
		var re *backend.RPCError
		if errors.As(msg.Err, &re) && re.Code == backend.CodeMethodNotFound {
			p.noServerFind = true // read the pages instead, from now on
			o.asking = false
			p.readSearchPage()
			return
		}
		p.stopOlderSearch("the server's search failed: " + act.OneLine(msg.Err))
		return
	}
	loaded := map[string]bool{}
	for _, it := range p.main.state.Items() {
		loaded[it.Key.Turn] = true
	}
	reached := false
	for _, oc := range msg.Found {
		if loaded[oc.TurnID] {
			reached = true // the rest are in turns drawn
			break
		}
		o.target = oc.TurnID
		o.found++
	}
	if !reached && msg.Next != "" {
		p.env.Out.Call(act.ToPanes, act.SearchOccurrences{Thread: o.thread, Term: msg.Term, Cursor: msg.Next, Limit: occurrencesPage, Seq: o.seq})
		return
	}
	o.asking = false
	// No target: the server's search covers messages and answers only,
	// so the pages are read and every item searched here (a command's
	// output, reasoning, a diff, a tool call), until one matches or the
	// thread's start.
	p.readSearchPage()
}

// readSearchPage asks for the next page of earlier turns.
func (p *Panes) readSearchPage() {
	o := p.find.older
	p.env.Out.Call(act.ToPanes, act.ReadSearchTurns{Thread: o.thread, Cursor: o.cursor, Limit: searchPage, Seq: o.seq})
}

// onSearchTurns takes a page of earlier turns read for the search.
func (p *Panes) onSearchTurns(msg act.SearchTurns, f DoneFacts) {
	o := p.olderFor(msg.Seq)
	if o == nil || msg.Cursor != o.cursor {
		return
	}
	if msg.Err != nil {
		p.stopOlderSearch("could not read earlier turns: " + act.OneLine(msg.Err))
		return
	}
	o.read = append(append([]backend.Turn(nil), msg.Turns...), o.read...)
	o.cursor = msg.Older
	done := false
	if o.target != "" {
		for _, t := range msg.Turns {
			done = done || t.ID == o.target
		}
	} else {
		done = p.turnsMatch(msg.Turns)
	}
	switch {
	case done || len(msg.Turns) == 0 && len(o.read) > 0 && o.target != "":
		p.putSearchPages(f)
	case o.cursor == "" || len(msg.Turns) == 0:
		p.find.exhausted = p.find.q.Term()
		p.stopOlderSearch("no earlier match in " + strconv.Itoa(len(o.read)) + " earlier turns")
	default:
		p.readSearchPage()
	}
}

// turnsMatch reports whether any item of turns holds the query, drawn
// as the transcript would draw it.
func (p *Panes) turnsMatch(turns []backend.Turn) bool {
	var st thread.State
	st.Reset(p.main.state.ThreadID())
	defer st.Close()
	var v view
	q := p.find.q
	for _, it := range st.Load(turns) {
		text := CellText(v.newCell(it, p.cwd, false))
		if q.Folds() {
			text = foldText(text)
		}
		if q.Count(text) > 0 {
			return true
		}
	}
	return false
}

// putSearchPages puts the turns read above the transcript (as scrolling
// up reads them) and shows the newest match among them.
func (p *Panes) putSearchPages(f DoneFacts) {
	s := p.find
	o := s.older
	s.older = nil
	before := s.total
	m := p.main
	m.older.loading = true // OnOlderTurns takes the page as its own read
	p.OnOlderTurns(act.OlderTurns{Thread: o.thread, Cursor: m.older.cursor, Turns: o.read, Older: o.cursor}, f.Height, f.CanRead)
	p.count(false)
	h := max(1, f.Height-1)
	if added := s.total - before; added > 0 {
		s.cur = added - 1
		p.gotoMatch(h)
		return
	}
	s.note = "found by the server, ignoring case: type the query in lower case"
}

// stopOlderSearch stops the search of earlier turns, if any, with a
// word about why ("" for none); the pages read are dropped.
func (p *Panes) stopOlderSearch(why string) {
	s := p.find
	if s == nil || s.older == nil {
		return
	}
	s.older = nil
	s.note = why
	o := &p.main.older
	o.loading = false
	if o.marker != nil && o.marker.State == ui.OlderLoading {
		o.marker.Set(ui.OlderMore, "")
	}
	p.main.v.frameOK = false
}
