package deck

import (
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tandem/model"
	"tandem/model/keys"
)

// ask is what the list asks before an action: a new thread's prompt, or
// a thread's new name.
type ask int

const (
	askNone ask = iota
	askNew
	askWorktree
	askRename
	askRemove // force the removal RemoveWorktree refused?
	askCommit // commit the worktree's changes and merge (commitmerge.go)?
)

// listState is the list's and the inbox's: the selected row and request,
// the filter, the scope, an asked input and the last notice, and the
// stored threads.
type listState struct {
	sel      string // the selected row (row.key); "" the first
	selReq   string // the inbox's selected request (laneReqKey)
	filter   string
	all      bool
	asking   ask
	askLane  LaneID
	input    string
	notice   string
	quitWarn bool
	// quitBusy is what the quit warning named: the threads running and
	// waiting (quit.go quitAgain).
	quitBusy [2]int
	// burst tells a paste typed as keys into input from typing (burst.go).
	burst promptBurst
	// making is the notice that a thread is being started ("starting a
	// thread…") or a worktree made: the lane added (in a worktree when
	// inWorktree) takes it off the screen.
	making     string
	inWorktree bool
	// stored are the threads the server keeps (Host.Threads) of the
	// scope shown; seq counts the fetches (an older one's answer is
	// dropped); opening is the stored thread Enter asked to open, shown
	// once its lane comes.
	stored  []StoredThread
	seq     int
	opening string
	// commit is the question askCommit asks (commitmerge.go).
	commit commitAsk
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

func (s *listState) selectLane(d *Model, id LaneID) { s.sel = laneKey(id) }

func (s *listState) noticeOf(r Result) {
	switch {
	case r.Err != nil:
		s.notice = r.Err.Error()
		if r.Confirm && s.asking == askNone {
			s.asking, s.askLane, s.input = askRemove, r.Lane, ""
		}
	default:
		s.notice = r.What
	}
}

// takeStored keeps the stored threads of the latest fetch, if it is of
// the scope shown.
func (s *listState) takeStored(m Stored) {
	if m.seq != s.seq || m.All != s.all {
		return
	}
	if m.Err != nil {
		s.stored = nil
		s.notice = "the stored threads: " + m.Err.Error()
		return
	}
	s.stored = make([]StoredThread, len(m.Threads))
	for i, t := range m.Threads {
		t.Name, t.Branch = oneLine(t.Name), oneLine(t.Branch)
		if t.Name == "" {
			t.Name = "thread " + short(t.ID, 8)
		}
		s.stored[i] = t
	}
}

// fetchStored asks the host for the stored threads of the scope shown
// (nil without a host).
func (d *Model) fetchStored() tea.Cmd {
	if d.opts.Host == nil || d.opts.ReadOnly { // a watcher opens no stored thread
		return nil
	}
	cmd := d.opts.Host.Threads(d.list.all)
	if cmd == nil {
		return nil
	}
	d.list.seq++
	seq := d.list.seq
	return func() tea.Msg {
		msg := cmd()
		if s, ok := msg.(Stored); ok {
			s.seq = seq
			return s
		}
		return msg
	}
}

// paste is a paste while the list has the keys: into the asked input, or
// the filter; one line.
func (s *listState) paste(text string) {
	text = strings.Join(strings.Fields(text), " ")
	if s.asking != askNone {
		s.input += text
	} else {
		s.filter, s.sel = s.filter+text, "" // the best match is selected
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
			if l := d.lane(d.focus); l != nil { // what it showed until now is read
				d.refresh(l)
				l.seen()
			}
			d.mode = modeList
			d.list.selectLane(d, d.focus)
			return d.fetchStored()
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
	if d.opts.ReadOnly && d.refused(k) {
		return nil
	}
	switch {
	case key.Matches(k, km.DeckQuit):
		if armed && !d.quitAgain() { // quit.go: nothing busier than the warning said
			return tea.Quit
		}
		d.list.quitWarn = true
		d.list.notice = d.quitNote() // quit.go: the threads still running or waiting named
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
		d.list.stored = nil
		return d.fetchStored()
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
	case key.Matches(k, km.DeckMerge):
		return d.worktreeCall("merge", func(h Host, id LaneID) tea.Cmd { return h.Merge(id) })
	case key.Matches(k, km.DeckRemove):
		return d.worktreeCall("remove", func(h Host, id LaneID) tea.Cmd { return h.RemoveWorktree(id, false) })
	case key.Matches(k, km.DeckErase):
		if d.list.filter != "" {
			d.list.filter = dropLast(d.list.filter)
		}
	case printable(k) && d.mode == modeList:
		d.list.filter, d.list.sel = d.list.filter+k.Text, "" // the best match is selected
	}
	return nil
}

// askKey is a key while the list asks a prompt or a name, or whether to
// force a refused removal.
func (d *Model) askKey(k tea.KeyPressMsg) tea.Cmd {
	km, s := d.keys, &d.list
	switch s.asking {
	case askRemove:
		return d.confirmKey(k)
	case askCommit:
		return d.commitKey(k)
	}
	if s.burst.take(k, d.keyTime()) { // burst.go: a paste typed as keys is one prompt
		s.input = pasted(s.input, k)
		return nil
	}
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
			s.making, s.inWorktree = s.notice, false
			return d.opts.Host.New(text, false)
		case askWorktree:
			s.notice = "making a worktree…"
			s.making, s.inWorktree = s.notice, true
			return d.opts.Host.New(text, true)
		case askRename:
			return d.opts.Host.Rename(s.askLane, text)
		}
	case printable(k):
		s.input += k.Text
	}
	return nil
}

// confirmKey answers the question whether to force a removal the host
// refused: the remove key again (the refusal, naming what would be lost,
// is on screen since it came: the key is pressed after it) in the list
// forces it on the lane asked about; any other key, or any key in the
// inbox (which shows no question), keeps everything.
func (d *Model) confirmKey(k tea.KeyPressMsg) tea.Cmd {
	s := &d.list
	id := s.askLane
	s.asking, s.input = askNone, ""
	l := d.lane(id)
	if !key.Matches(k, d.keys.DeckRemove) || l == nil || d.mode != modeList { // the inbox shows no question
		s.notice = "nothing removed"
		return nil
	}
	if d.opts.Host == nil {
		s.notice = "no host here: can't remove a worktree"
		return nil
	}
	s.notice = "removing the worktree of " + d.name(l) + " anyway…"
	return d.opts.Host.RemoveWorktree(id, true)
}

// worktreeCall runs a worktree action of the host (merge, remove) on the
// selected lane: refused at once for a stored thread not open, a thread
// in no worktree tandem made, or one whose turn runs (merge or remove
// under a running agent would race with its edits: interrupt it first).
func (d *Model) worktreeCall(what string, do func(Host, LaneID) tea.Cmd) tea.Cmd {
	r, ok := d.selectedRow()
	if !ok || d.mode != modeList {
		return nil
	}
	switch l := r.lane; {
	case l == nil:
		d.list.notice = what + ": open the thread first (" + keys.Display(d.keys.DeckOpen) + ")"
		return nil
	case l.Worktree == "":
		d.list.notice = what + ": " + d.name(l) + " runs in no worktree tandem made"
		return nil
	case l.running || l.sum.Phase == model.PhaseRunning || l.waiting():
		d.list.notice = what + ": a turn runs in " + d.name(l) + " — wait for it to end, or interrupt it (" + keys.Display(d.keys.DeckInterrupt) + ")"
		return nil
	}
	return d.hostCall(what, do)
}

// hostCall runs an action of the host on the selected lane (a stored
// thread must be opened first).
func (d *Model) hostCall(what string, do func(Host, LaneID) tea.Cmd) tea.Cmd {
	r, ok := d.selectedRow()
	if !ok || d.mode != modeList {
		return nil
	}
	l := r.lane
	if l == nil {
		d.list.notice = what + ": open the thread first (" + keys.Display(d.keys.DeckOpen) + ")"
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
	l.seen()
}

// open is Enter: the list opens the selected thread; the inbox peeks at
// the selected request's lane to answer it there.
func (d *Model) open() tea.Cmd {
	if d.mode == modeList {
		r, ok := d.selectedRow()
		switch {
		case !ok:
		case r.lane != nil:
			d.show(r.lane.ID)
		case d.opts.Host == nil:
			d.list.notice = "no host here: can't open a stored thread"
		default:
			d.list.opening = r.stored.ID
			d.list.notice = "opening " + oneLine(r.stored.Name) + "…"
			return d.opts.Host.Resume(r.stored.ID)
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
	rs := d.rows()
	if len(rs) == 0 {
		return
	}
	i := 0
	if sel, ok := d.selectedRow(); ok {
		for j, r := range rs {
			if r.key() == sel.key() {
				i = j
			}
		}
	}
	d.list.sel = rs[max(0, min(len(rs)-1, i+delta))].key()
}

// refused reports whether k is an action or an answer a watcher's deck
// (Options.ReadOnly) refuses, and says so in the notice.
func (d *Model) refused(k tea.KeyPressMsg) bool {
	km := d.keys
	what := ""
	switch {
	case key.Matches(k, km.DeckNew), key.Matches(k, km.DeckNewWorktree):
		what = "start a thread"
	case key.Matches(k, km.DeckRename):
		what = "rename a thread"
	case key.Matches(k, km.DeckArchive):
		what = "archive a thread"
	case key.Matches(k, km.DeckInterrupt):
		what = "interrupt a thread"
	case key.Matches(k, km.DeckStop):
		what = "stop a thread"
	case key.Matches(k, km.DeckMerge):
		what = "merge a worktree"
	case key.Matches(k, km.DeckRemove):
		what = "remove a worktree"
	case key.Matches(k, km.DeckOpen) && d.mode == modeInbox:
		what = "answer a request"
	default:
		return false
	}
	d.list.notice = watchOnly(what)
	return true
}
