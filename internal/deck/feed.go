package deck

import (
	"sync"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

// Batch is the messages one lane's session sent while the program was
// busy, in the order sent: Feed delivers them as one LaneMsg{Lane,
// Batch{…}}. The deck gives each to the lane's Update in turn (nothing is
// dropped, merged or reordered) and reads the lane's state once, and the
// program draws once for all of them.
type Batch []tea.Msg

// Feed returns the send the lanes' sessions use instead of send (the
// program's, tea.Program.Send). A LaneMsg never blocks: it waits in its
// lane's queue, and each lane's queue goes to the program from a
// goroutine of its own, what came while the program was busy as one
// Batch. So a session streaming fast costs the program one message per
// turn of its event loop, not one per delta, and a key waits behind at
// most one message per lane. Any other message is sent as it comes.
//
// Within a lane the order is kept: the queue is one FIFO with at most one
// sender, and a Batch holds its messages in the order they came. Only a
// server's event (backend.Event: a delta, an item, a status) is queued
// and put returns at once; a lane's other messages (a session ready after
// a restart, a failure, a host's answer) return once the program has
// taken them and all that came before, as the program's Send does, so
// what a host sends before it returns is folded before the result of the
// command that asked for it.
func Feed(send func(tea.Msg)) func(tea.Msg) {
	f := &laneFeed{send: send, queues: map[LaneID]*laneQueue{}}
	return f.put
}

// laneFeed is Feed's state: one queue per lane.
type laneFeed struct {
	send   func(tea.Msg)
	mu     sync.Mutex
	queues map[LaneID]*laneQueue
}

// laneQueue is what waits for one lane; sending: a goroutine is sending
// it (and takes what comes meanwhile).
type laneQueue struct {
	msgs    []tea.Msg
	waiters []chan struct{} // closed once msgs, up to its own, are sent
	sending bool
}

func (f *laneFeed) put(msg tea.Msg) {
	lm, ok := msg.(LaneMsg)
	if !ok {
		f.send(msg)
		return
	}
	f.mu.Lock()
	q := f.queues[lm.Lane]
	if q == nil {
		q = &laneQueue{}
		f.queues[lm.Lane] = q
	}
	var done chan struct{}
	if b, ok := lm.Msg.(Batch); ok {
		q.msgs = append(q.msgs, b...)
	} else {
		q.msgs = append(q.msgs, lm.Msg)
		if _, event := lm.Msg.(backend.Event); !event {
			done = make(chan struct{})
			q.waiters = append(q.waiters, done)
		}
	}
	start := !q.sending
	q.sending = true
	f.mu.Unlock()
	if start {
		go f.pump(lm.Lane, q)
	}
	if done != nil {
		<-done
	}
}

// pump sends lane's queue to the program until it is empty.
func (f *laneFeed) pump(lane LaneID, q *laneQueue) {
	for {
		f.mu.Lock()
		msgs, waiters := q.msgs, q.waiters
		q.msgs, q.waiters = nil, nil
		if len(msgs) == 0 {
			q.sending = false
			f.mu.Unlock()
			return
		}
		f.mu.Unlock()
		if len(msgs) == 1 {
			f.send(LaneMsg{Lane: lane, Msg: msgs[0]})
		} else {
			f.send(LaneMsg{Lane: lane, Msg: Batch(msgs)})
		}
		for _, w := range waiters {
			close(w)
		}
	}
}

// toLaneBatch runs lane id's Update on each message of b in turn (a
// Recheck among them marks the conflicts stale) and returns their
// commands, tagged to the lane; the lane's state is read once, after
// the last.
func (d *Model) toLaneBatch(id LaneID, b Batch) tea.Cmd {
	l := d.lane(id)
	if l == nil {
		return nil
	}
	cmds := make([]tea.Cmd, 0, len(b))
	for _, msg := range b {
		if _, ok := msg.(Recheck); ok {
			d.confStale = true
			continue
		}
		m, cmd := l.pane.Update(msg)
		if p, ok := m.(Pane); ok && p != nil {
			l.pane = p
		}
		if cmd != nil {
			cmds = append(cmds, wrap(id, cmd))
		}
	}
	d.refresh(l)
	return tea.Batch(cmds...)
}

// Messages returns the messages m carries for its lane, in order: a
// Batch's, or m.Msg alone.
func Messages(m LaneMsg) []tea.Msg {
	if b, ok := m.Msg.(Batch); ok {
		return b
	}
	return []tea.Msg{m.Msg}
}
