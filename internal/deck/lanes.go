package deck

import (
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model"
)

// lane is one thread the deck holds: its model and what the deck knows of
// it from the model's State after each of its messages.
type lane struct {
	Lane
	pane Pane
	// sum is the thread at a glance; running that a turn runs; pending
	// the requests still unanswered.
	sum     model.Summary
	running bool
	pending []backend.ServerRequest
	// since is when the deck first saw each pending request (by reqKey).
	since map[string]time.Time
	// seenTurns is Summary.Turns when the lane was last on screen: more
	// since is unread output.
	seenTurns int
	// srvUnread: the server's read state (ReadStates) says the thread,
	// opened with its history, has an unread part; cleared when shown.
	// markedAt is Summary.Turns+1 when the thread was last marked read on
	// the server while on screen (0: not since it came on screen).
	srvUnread bool
	markedAt  int
	// shown is what the lane was last told (model.ShownMsg): whether it
	// is on screen; told whether it was told at all.
	shown, told bool
}

// waiting reports whether the thread (or a sub-agent of it) waits for an
// answer.
func (l *lane) waiting() bool {
	if len(l.pending) > 0 || l.sum.Phase == model.PhaseWaiting {
		return true
	}
	for _, a := range l.sum.Agents {
		if a.Phase == model.PhaseWaiting {
			return true
		}
	}
	return false
}

// reqKey identifies a request of one lane.
func reqKey(r backend.ServerRequest) string { return r.Thread() + "\x00" + string(r.ID()) }

func (d *Model) lane(id LaneID) *lane {
	for _, l := range d.lanes {
		if l.ID == id {
			return l
		}
	}
	return nil
}

// add takes l in (or updates the lane of its ID); it reports whether it
// is new.
func (d *Model) add(l Lane) bool {
	if have := d.lane(l.ID); have != nil {
		pane := have.pane
		if l.Model != nil {
			pane = l.Model
		}
		have.Lane, have.pane = l, pane
		d.confStale = true
		return false
	}
	if l.Model == nil {
		return false
	}
	nl := &lane{Lane: l, pane: l.Model, since: map[string]time.Time{}}
	d.lanes = append(d.lanes, nl)
	d.confStale = true
	d.refresh(nl)
	nl.seenTurns = nl.sum.Turns
	return true
}

// addLane is AddLane: a new lane is started (Init) at the deck's size
// and selected in the list. A lane of a stored thread the list showed
// keeps what the row said of its name, checkout and workspace; the one Enter
// asked to open is shown.
func (d *Model) addLane(l Lane) tea.Cmd {
	if d.lane(l.ID) == nil && l.Thread != "" {
		for _, st := range d.list.stored {
			if st.ID == l.Thread {
				if l.Worktree == "" {
					l.Worktree, l.Branch = st.Worktree, st.Branch
				}
				if l.Title == "" || l.Title == l.Thread {
					l.Title = st.Name
				}
				l.Elsewhere = l.Elsewhere || st.Elsewhere
			}
		}
	}
	if !d.add(l) {
		return nil
	}
	if d.focus == noLane {
		d.focus = l.ID
	}
	d.list.selectLane(d, l.ID)
	if l.Thread != "" && l.Thread == d.list.opening {
		d.list.opening, d.list.notice = "", ""
		d.show(l.ID)
	}
	cmds := []tea.Cmd{wrap(l.ID, l.Model.Init())}
	if d.width > 0 {
		cmds = append(cmds, d.toLane(l.ID, d.sizeFor(l.ID)))
	}
	return tea.Batch(cmds...)
}

// drop is DropLane.
//
// Every request still waiting in the lane is refused (off the update
// loop, by the command returned): the server gets an answer to each,
// though no one will see the lane again.
func (d *Model) drop(id LaneID) tea.Cmd {
	i := slices.IndexFunc(d.lanes, func(l *lane) bool { return l.ID == id })
	if i < 0 {
		return nil
	}
	var waiting []backend.ServerRequest
	for _, r := range d.lanes[i].pane.State().Pending {
		if !r.Answered() {
			waiting = append(waiting, r)
		}
	}
	d.lanes = slices.Delete(d.lanes, i, i+1)
	d.confStale = true
	if d.mode == modePeek && d.peek.lane == id {
		d.mode = modeInbox
	}
	if d.focus == id {
		d.focus = noLane
		if len(d.lanes) > 0 {
			d.focus = d.lanes[0].ID
		}
		if d.mode == modeLane {
			d.mode = modeList
		}
	}
	if len(waiting) == 0 {
		return nil
	}
	return func() tea.Msg {
		for _, r := range waiting {
			_ = r.Refuse()
		}
		return nil
	}
}

// toLane runs lane id's Update on msg and returns its command, tagged to
// the lane. The lane's View is not called.
func (d *Model) toLane(id LaneID, msg tea.Msg) tea.Cmd {
	l := d.lane(id)
	if l == nil {
		return nil
	}
	m, cmd := l.pane.Update(msg)
	if p, ok := m.(Pane); ok && p != nil {
		l.pane = p
	}
	d.refresh(l)
	return wrap(id, cmd)
}

// refresh reads what the deck knows of l from its model.
func (d *Model) refresh(l *lane) {
	st := l.pane.State()
	opened := st.Summary.ThreadID != l.sum.ThreadID
	if opened && l.sum.ThreadID != "" {
		// The lane now shows another thread (/resume, /search, /new): the
		// title it was started with named the one before.
		l.Title = ""
	}
	if !sameConflictKey(l.sum, st.Summary) {
		d.confStale = true
	}
	l.sum, l.running = st.Summary, st.Running
	if opened { // the history it opened with is no news to tandem; the server may know better
		l.seen()
		if l.sum.ThreadID != "" && l.sum.Turns > 0 {
			d.askRead = append(d.askRead, l.ID) // readstate.go
		}
	}
	l.pending = l.pending[:0]
	keep := make(map[string]bool, len(st.Pending))
	for _, r := range st.Pending {
		if r.Answered() {
			continue
		}
		l.pending = append(l.pending, r)
		k := reqKey(r)
		keep[k] = true
		if _, ok := l.since[k]; !ok {
			l.since[k] = d.opts.Now()
		}
	}
	for _, v := range st.Watched {
		r := watched{v}
		l.pending = append(l.pending, r)
		k := reqKey(r)
		keep[k] = true
		if _, ok := l.since[k]; !ok {
			l.since[k] = d.opts.Now()
		}
	}
	for k := range l.since {
		if !keep[k] {
			delete(l.since, k)
		}
	}
	if d.reading(l) {
		l.seen()
	}
}

// settle follows what the last message changed: back to the inbox once a
// peeked request is answered, a notification for a lane not on screen
// that starts waiting, and the DeckInfo of the focused lane.
func (d *Model) settle() []tea.Cmd {
	var cmds []tea.Cmd
	if d.mode == modePeek && !d.peek.open(d) {
		d.endPeek()
		cmds = append(cmds, d.toLane(d.peek.lane, d.sizeFor(d.peek.lane)))
	}
	cmds = append(cmds, d.tellShown()...)
	cmds = append(cmds, d.readStates()...) // readstate.go: the server's read state
	cmds = append(cmds, d.ages())          // ages.go: the list's ages move on
	if d.confStale && d.mode == modeList {
		d.conf, d.confStale = d.conflicts(), false
	}
	if d.focus == noLane {
		return cmds
	}
	running, waiting := d.busyBut(d.focus) // quit.go
	info := model.DeckInfo{Waiting: waiting, Running: running, Key: d.keys.Deck.Help().Key}
	if !d.sentAny || info != d.sentInfo || d.sentTo != d.focus {
		d.sentAny, d.sentInfo, d.sentTo = true, info, d.focus
		cmds = append(cmds, d.toLane(d.focus, info))
	}
	return cmds
}

// tellShown tells each lane whose place changed whether it is on screen
// now (model.ShownMsg): a lane off screen lets the timers that only
// serve drawing go quiet (frame ticks, spinner, cursor blink).
func (d *Model) tellShown() []tea.Cmd {
	on := noLane
	if d.mode == modeLane || d.mode == modePeek {
		on = d.onScreen()
	}
	var cmds []tea.Cmd
	for _, l := range d.lanes {
		if want := l.ID == on; !l.told || l.shown != want {
			l.told, l.shown = true, want
			if !want && l.markedAt != 0 { // readstate.go: what it showed is read, once more as it goes
				l.markedAt = 0 // and again when it comes back
				d.leftRead = append(d.leftRead, l.ID)
			}
			cmds = append(cmds, d.toLane(l.ID, model.ShownMsg{Shown: want}))
		}
	}
	return cmds
}

// sameConflictKey reports whether a and b give the same conflicts: the
// same name and thread, and the same changed paths (Summary.Changed is a
// new slice each time a path is added, so the same slice is the same
// paths).
func sameConflictKey(a, b model.Summary) bool {
	return a.Name == b.Name && a.ThreadID == b.ThreadID && len(a.Changed) == len(b.Changed) &&
		(len(a.Changed) == 0 || &a.Changed[0] == &b.Changed[0])
}

// waitingBut counts the lanes but id that wait for an answer.
func (d *Model) waitingBut(id LaneID) int {
	n := 0
	for _, l := range d.lanes {
		if l.ID != id && l.waiting() {
			n++
		}
	}
	return n
}

// name is how the deck names l's thread: its name, the host's title, or
// its id.
func (d *Model) name(l *lane) string {
	switch {
	case l.sum.Name != "":
		return l.sum.Name
	case l.Title != "":
		return l.Title
	case l.sum.ThreadID != "":
		return "thread " + short(l.sum.ThreadID, 8)
	}
	return "new thread"
}

func short(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// SamePaths is the default Overlaps: the absolute paths both threads'
// fileChange items touched (Summary.Changed, sorted).
func SamePaths(a, b Thread) []string {
	var out []string
	x, y := a.Summary.Changed, b.Summary.Changed
	for i, j := 0, 0; i < len(x) && j < len(y); {
		switch {
		case x[i] == y[j]:
			out = append(out, x[i])
			i++
			j++
		case x[i] < y[j]:
			i++
		default:
			j++
		}
	}
	return out
}
