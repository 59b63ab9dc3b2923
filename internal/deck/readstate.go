package deck

import tea "charm.land/bubbletea/v2"

// ReadStates is a Host that can reach the server's read state of a
// thread (`thread/read`'s readState, `thread/readState/update`): the
// "unread" part every client of the server sees. A deck whose host is
// one marks a thread read on the server while it is on screen, and takes
// an adopted thread's "done · unread" from the server; without it (or
// when the server answers Unsupported) the deck keeps its own count of
// the turns that ended while a thread was off screen.
type ReadStates interface {
	// ReadState reads the server's read state of lane's thread; its
	// command gives ReadState.
	ReadState(lane LaneID) tea.Cmd
	// MarkRead marks lane's thread read on the server (the person sees
	// it); its command gives ReadState.
	MarkRead(lane LaneID) tea.Cmd
}

// ReadState is a ReadStates host's answer for a lane: Known when the
// server told its read state (Unread: the thread has an unread part),
// Unsupported when the server has no read state at all (an older codex:
// the deck stops asking). Neither: this call failed (a thread with no
// turn stored yet, a revision changed meanwhile), the deck's own count
// stands.
type ReadState struct {
	Lane        LaneID
	Known       bool
	Unread      bool
	Unsupported bool
}

// readHost is the deck's ReadStates host, nil for none or once the
// server showed it has no read state.
func (d *Model) readHost() ReadStates {
	if d.noReadState || d.opts.ReadOnly {
		return nil
	}
	rs, _ := d.opts.Host.(ReadStates)
	return rs
}

// takeReadState is ReadState: an adopted lane's server-side unread mark,
// dropped for the lane on screen (it is being read).
func (d *Model) takeReadState(m ReadState) {
	if m.Unsupported {
		d.noReadState = true
		return
	}
	l := d.lane(m.Lane)
	if l == nil || !m.Known {
		return
	}
	l.srvUnread = m.Unread && !d.reading(l)
}

// reading reports whether l is on screen as the focused lane (its turns
// are read as they end).
func (d *Model) reading(l *lane) bool { return d.mode == modeLane && d.focus == l.ID }

// unread reports whether l has output the person has not seen: turns
// that ended off screen, or (an adopted thread) the server's unread mark.
func (l *lane) unread() bool { return l.sum.Turns > l.seenTurns || l.srvUnread }

// seen marks what l shows as read by the person (the server is told by
// readStates).
func (l *lane) seen() {
	l.seenTurns, l.srvUnread = l.sum.Turns, false
}

// readStates asks the host what the last message calls for: the read
// state of the threads adopted since (askRead), and a mark read for the
// lane on screen when it came on screen or a turn of it ended there, and
// once more as it leaves the screen (leftRead).
// O(1) per message but for the adopted lanes.
func (d *Model) readStates() []tea.Cmd {
	h := d.readHost()
	if h == nil {
		d.askRead, d.leftRead = d.askRead[:0], d.leftRead[:0]
		return nil
	}
	var cmds []tea.Cmd
	for _, id := range d.askRead {
		if l := d.lane(id); l != nil && !d.reading(l) {
			cmds = append(cmds, h.ReadState(id))
		}
	}
	for _, id := range d.leftRead {
		// What it showed until it left is read: the server may have
		// stored its last turn only after the mark made as it ended.
		cmds = append(cmds, h.MarkRead(id))
	}
	d.askRead, d.leftRead = d.askRead[:0], d.leftRead[:0]
	if d.mode != modeLane {
		return cmds
	}
	l := d.lane(d.focus)
	if l == nil || l.sum.ThreadID == "" || l.sum.Turns == 0 || l.markedAt == l.sum.Turns+1 {
		return cmds
	}
	l.markedAt = l.sum.Turns + 1
	return append(cmds, h.MarkRead(l.ID))
}
