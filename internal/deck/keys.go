package deck

import (
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// ask is what the list asks before an action: a new thread's prompt, or
// a thread's new name.
type ask int

const (
	askNone ask = iota
	askNew
	askWorktree
	askRename
)

// listState is the list's and the inbox's: the selected lane and request,
// the filter, the scope, an asked input and the last notice.
type listState struct {
	sel      LaneID
	selReq   string // the inbox's selected request (laneReqKey)
	filter   string
	all      bool
	asking   ask
	askLane  LaneID
	input    string
	notice   string
	hasSel   bool
	quitWarn bool
}

// peekState is the request answered from the inbox in modePeek.
type peekState struct {
	lane LaneID
	req  string // reqKey
}

// open reports whether the peeked request still waits.
func (p peekState) open(d *Model) bool {
	l := d.lane(p.lane)
	if l == nil {
		return false
	}
	for _, r := range l.pending {
		if reqKey(r) == p.req {
			return true
		}
	}
	return false
}

func (s *listState) selectLane(d *Model, id LaneID) { s.sel, s.hasSel = id, true }

func (s *listState) noticeOf(r Result) {
	switch {
	case r.Err != nil:
		s.notice = r.Err.Error()
	default:
		s.notice = r.What
	}
}

// paste is a paste while the list has the keys: into the asked input, or
// the filter; one line.
func (s *listState) paste(text string) {
	text = strings.Join(strings.Fields(text), " ")
	if s.asking != askNone {
		s.input += text
	} else {
		s.filter += text
	}
}

// printable reports whether k types text (no Ctrl, no Alt).
func printable(k tea.KeyPressMsg) bool {
	return k.Text != "" && k.Mod&(tea.ModCtrl|tea.ModAlt|tea.ModSuper) == 0
}

func dropLast(s string) string {
	_, n := utf8.DecodeLastRuneInString(s)
	return s[:len(s)-n]
}

// key handles a key press: the deck's own keys, or the lane's on screen.
func (d *Model) key(k tea.KeyPressMsg) tea.Cmd {
	km := d.keys
	switch d.mode {
	case modeLane:
		if key.Matches(k, km.Deck) {
			d.mode = modeList
			d.list.selectLane(d, d.focus)
			return nil
		}
		return d.toLane(d.focus, k)
	case modePeek:
		if key.Matches(k, km.Deck) {
			d.endPeek()
			return d.toLane(d.peek.lane, d.sizeFor(d.peek.lane))
		}
		return d.toLane(d.peek.lane, k)
	}
	armed := d.list.quitWarn
	d.list.quitWarn, d.list.notice = false, ""
	if d.list.asking != askNone {
		return d.askKey(k)
	}
	switch {
	case key.Matches(k, km.DeckQuit):
		if armed {
			return tea.Quit
		}
		d.list.quitWarn = true
		d.list.notice = km.DeckQuit.Help().Key + " again to quit tandem"
	case key.Matches(k, km.DeckClose), key.Matches(k, km.Deck):
		switch {
		case d.list.filter != "":
			d.list.filter = ""
		case d.focus != noLane:
			d.show(d.focus)
		}
	case key.Matches(k, km.DeckUp):
		d.move(-1)
	case key.Matches(k, km.DeckDown):
		d.move(1)
	case key.Matches(k, km.DeckInbox):
		if d.mode == modeList {
			d.mode = modeInbox
		} else {
			d.mode = modeList
		}
	case key.Matches(k, km.DeckScope) && d.mode == modeList:
		d.list.all = !d.list.all
	case key.Matches(k, km.DeckOpen):
		return d.open()
	case key.Matches(k, km.DeckNew):
		d.list.asking, d.list.input = askNew, ""
	case key.Matches(k, km.DeckNewWorktree):
		d.list.asking, d.list.input = askWorktree, ""
	case key.Matches(k, km.DeckRename):
		if l := d.selected(); l != nil {
			d.list.asking, d.list.askLane, d.list.input = askRename, l.ID, d.name(l)
		}
	case key.Matches(k, km.DeckArchive):
		return d.hostCall("archive", func(h Host, id LaneID) tea.Cmd { return h.Archive(id) })
	case key.Matches(k, km.DeckInterrupt):
		return d.hostCall("interrupt", func(h Host, id LaneID) tea.Cmd { return h.Interrupt(id) })
	case key.Matches(k, km.DeckStop):
		return d.hostCall("stop", func(h Host, id LaneID) tea.Cmd { return h.Stop(id) })
	case key.Matches(k, km.DeckErase):
		if d.list.filter != "" {
			d.list.filter = dropLast(d.list.filter)
		}
	case printable(k) && d.mode == modeList:
		d.list.filter += k.Text
	}
	return nil
}

// askKey is a key while the list asks a prompt or a name.
func (d *Model) askKey(k tea.KeyPressMsg) tea.Cmd {
	km, s := d.keys, &d.list
	switch {
	case key.Matches(k, km.DeckClose):
		s.asking, s.input = askNone, ""
	case key.Matches(k, km.DeckErase):
		if s.input != "" {
			s.input = dropLast(s.input)
		}
	case key.Matches(k, km.DeckOpen):
		text := strings.TrimSpace(s.input)
		what := s.asking
		if text == "" {
			return nil
		}
		s.asking, s.input = askNone, ""
		if d.opts.Host == nil {
			s.notice = "no host here: can't start or rename a thread"
			return nil
		}
		switch what {
		case askNew:
			s.notice = "starting a thread…"
			return d.opts.Host.New(text, false)
		case askWorktree:
			s.notice = "making a worktree…"
			return d.opts.Host.New(text, true)
		case askRename:
			return d.opts.Host.Rename(s.askLane, text)
		}
	case printable(k):
		s.input += k.Text
	}
	return nil
}

// hostCall runs an action of the host on the selected lane.
func (d *Model) hostCall(what string, do func(Host, LaneID) tea.Cmd) tea.Cmd {
	l := d.selected()
	if l == nil || d.mode != modeList {
		return nil
	}
	if d.opts.Host == nil {
		d.list.notice = "no host here: can't " + what + " a thread"
		return nil
	}
	d.list.notice = what + ": " + d.name(l)
	return do(d.opts.Host, l.ID)
}

// show makes lane id the focused one, on screen.
func (d *Model) show(id LaneID) {
	l := d.lane(id)
	if l == nil {
		return
	}
	d.focus, d.mode = id, modeLane
	l.seenTurns = l.sum.Turns
}

// open is Enter: the list opens the selected thread; the inbox peeks at
// the selected request's lane to answer it there.
func (d *Model) open() tea.Cmd {
	if d.mode == modeList {
		if l := d.selected(); l != nil {
			d.show(l.ID)
		}
		return nil
	}
	e, ok := d.selectedEntry()
	if !ok {
		return nil
	}
	d.list.selReq = e.key()
	d.peek = peekState{lane: e.lane.ID, req: reqKey(e.req)}
	d.mode = modePeek
	return d.toLane(e.lane.ID, d.sizeFor(e.lane.ID))
}

// endPeek leaves the peeked lane for the inbox (the caller gives the lane
// its whole size back).
func (d *Model) endPeek() { d.mode = modeInbox }

// move moves the list's or the inbox's cursor by delta rows.
func (d *Model) move(delta int) {
	if d.mode == modeInbox {
		es := d.inbox()
		i := 0
		if sel, ok := d.selectedEntry(); ok {
			for j, e := range es {
				if e.key() == sel.key() {
					i = j
				}
			}
		}
		if len(es) > 0 {
			d.list.selReq = es[max(0, min(len(es)-1, i+delta))].key()
		}
		return
	}
	ls := d.visible()
	if len(ls) == 0 {
		return
	}
	i := 0
	sel := d.selected()
	for j, l := range ls {
		if l == sel {
			i = j
		}
	}
	d.list.selectLane(d, ls[max(0, min(len(ls)-1, i+delta))].ID)
}
