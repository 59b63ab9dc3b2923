package pair

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/deck"
	"tandem/internal/hub"
	"tandem/model"
)

// FirstLane is the shared deck's first lane: the session's own thread,
// the one Publish feeds.
const FirstLane deck.LaneID = 0

// Host carries out a driver's command center actions on the shared
// session (internal/cli implements it over the backend's lanes). Its
// commands' messages are for the shared deck: an AddLane (its Model is
// ignored: each viewer gets a model of its own) or a DropLane is told to
// every viewer; a Result only to the driver who asked.
type Host interface {
	deck.Host
	// NewBy is New for driver who: the thread's first prompt goes out as
	// who's (the host calls Server.Prompted first).
	NewBy(who, prompt string, worktree bool) tea.Cmd
}

// laneHub is one lane of the shared deck: its thread's hub, and what the
// list shows of it (Lane without Model).
type laneHub struct {
	lane deck.Lane
	hub  *hub.Hub
}

// joined is one lane as one viewer has it: its cursor into the lane's
// hub and the viewer's own model of it.
type joined struct {
	id deck.LaneID
	v  *hub.Viewer
	m  *model.Model
}

// laneOf returns lane id's hub (nil for a lane the deck does not hold);
// ps.mu held.
func (ps *Server) laneOfLocked(id deck.LaneID) *laneHub {
	for _, l := range ps.lanes {
		if l.lane.ID == id {
			return l
		}
	}
	return nil
}

func (ps *Server) laneOf(id deck.LaneID) *laneHub {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.laneOfLocked(id)
}

// newHub is a lane's hub: answers are noted as the first lane's are.
func (ps *Server) newHub() *hub.Hub {
	h := hub.New()
	ps.watchAnswers(h)
	return h
}

// PublishLane is lane id's session's send function, as Publish is the
// first lane's; a lane the deck does not hold (dropped) gets nothing.
func (ps *Server) PublishLane(id deck.LaneID, msg tea.Msg) {
	l := ps.laneOf(id)
	if l == nil {
		return
	}
	if r, ok := msg.(model.SessionReadyMsg); ok {
		l.hub.Publish(sessionReady{msg: r})
		return
	}
	l.hub.Publish(msg)
}

// Prompted logs that driver who sent text as a prompt in lane id (as a
// driver's own prompts are, see attributed): every viewer's transcript
// says who, and serve --record notes it.
func (ps *Server) Prompted(id deck.LaneID, who, text string) {
	if l := ps.laneOf(id); l != nil {
		attributed{who: who, ps: ps, hub: l.hub}.did(hub.ActionPrompt, text)
	}
}

// AddLane adds a lane to the shared deck: a hub of its own, which every
// viewer joins with a model of their own, and a row in every viewer's
// list; for a lane it holds, it updates what the list shows (title,
// worktree, branch) in every viewer's deck.
func (ps *Server) AddLane(l deck.Lane) {
	l.Model = nil
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if have := ps.laneOfLocked(l.ID); have != nil {
		have.lane = l
		for _, c := range ps.viewers() {
			go c.p.Send(deck.AddLane{Lane: l})
		}
		return
	}
	if ps.closed {
		return
	}
	lh := &laneHub{lane: l, hub: ps.newHub()}
	ps.lanes = append(ps.lanes, lh)
	for _, c := range ps.viewers() {
		c.join(ps, lh, true)
	}
}

// Checkout tells every viewer's deck what the host found of the
// checkout lane c.Lane's thread runs in (its worktree, its branch), and
// keeps it for viewers who join later.
func (ps *Server) Checkout(c deck.Checkout) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	l := ps.laneOfLocked(c.Lane)
	if l == nil {
		return
	}
	l.lane.Worktree, l.lane.Branch = c.Worktree, c.Branch
	for _, v := range ps.viewers() {
		go v.p.Send(c)
	}
}

// DropLane takes lane id out of the shared deck: every viewer's deck
// drops it, and its hub is closed.
func (ps *Server) DropLane(id deck.LaneID) {
	ps.mu.Lock()
	i := slices.IndexFunc(ps.lanes, func(l *laneHub) bool { return l.lane.ID == id })
	if i < 0 || id == FirstLane {
		ps.mu.Unlock()
		return
	}
	lh := ps.lanes[i]
	ps.lanes = slices.Delete(ps.lanes, i, i+1)
	for _, c := range ps.viewers() {
		c.leaveLane(id)
	}
	ps.mu.Unlock()
	lh.hub.Close()
}

// viewers are every program on the deck, the guests' and the host's own
// (ps.mu held).
func (ps *Server) viewers() []*clientState {
	out := make([]*clientState, 0, len(ps.clients)+1)
	for _, c := range ps.clients {
		out = append(out, c)
	}
	if ps.hostView != nil {
		out = append(out, ps.hostView)
	}
	return out
}

// newDeck builds viewer c's deck over every lane the server holds (ps.mu
// held): each lane a model of c's own, fed from the lane's hub once the
// program runs (c.start).
func (ps *Server) newDeckLocked(c *clientState) *deck.Model {
	lanes := make([]deck.Lane, 0, len(ps.lanes))
	for _, lh := range ps.lanes {
		j := c.join(ps, lh, false)
		l := lh.lane
		l.Model = j.m
		lanes = append(lanes, l)
	}
	opts := deck.Options{Keys: ps.keyMap, ReadOnly: c.role == hub.Watcher}
	if c.role == hub.Driver && ps.deckHost != nil {
		opts.Host = driverHost{ps: ps, who: c.name}
	}
	return deck.New(opts, lanes...)
}

// join gives viewer c lane lh: a model and a cursor into its hub. With
// live (a lane added while c runs), a goroutine adds it to c's deck and
// then feeds it; else c.start feeds it once the program exists.
func (c *clientState) join(ps *Server, lh *laneHub, live bool) joined {
	restart := ps.restartFor(lh.lane.ID, c.name, c.role) // models.go
	j := joined{id: lh.lane.ID, v: lh.hub.Join(c.name, c.role), m: ps.modelOf(c.role, c.guest, restart)}
	c.lanes = append(c.lanes, j)
	if live {
		l := lh.lane
		l.Model = j.m
		var rate tea.Msg
		if c.role == hub.Watcher && ps.frame != 0 && ps.frame != model.DefaultFrame {
			rate = deck.LaneMsg{Lane: j.id, Msg: model.FrameRateMsg{Every: ps.frame, Seq: ps.frameSeq}} // the rate of its other lanes
		}
		go func() {
			c.p.Send(deck.AddLane{Lane: l}) // before any of its messages
			if rate != nil {
				c.p.Send(rate)
			}
			ps.pump(j.v, lh.hub, c.name, laneSend(j.id, c.p.Send))
		}()
	}
	return j
}

// start feeds every lane c joined before its program ran.
func (c *clientState) start(ps *Server) {
	ps.mu.Lock()
	lanes := slices.Clone(c.lanes)
	ps.mu.Unlock()
	for _, j := range lanes {
		lh := ps.laneOf(j.id)
		if lh == nil {
			continue
		}
		go ps.pump(j.v, lh.hub, c.name, laneSend(j.id, c.p.Send))
	}
}

// leaveLane takes lane id from c (ps.mu held): its cursor leaves the
// hub, its model closes, and c's deck drops it.
func (c *clientState) leaveLane(id deck.LaneID) {
	i := slices.IndexFunc(c.lanes, func(j joined) bool { return j.id == id })
	if i < 0 {
		return
	}
	j := c.lanes[i]
	c.lanes = slices.Delete(c.lanes, i, i+1)
	j.v.Leave()
	// The program may still run the model until it takes the DropLane:
	// it is closed when c leaves.
	c.dropped = append(c.dropped, j.m)
	go c.p.Send(deck.DropLane{Lane: id})
}

// leaveAll takes c off every lane (it left): ps.mu held.
func (c *clientState) leaveAll() {
	for _, j := range c.lanes {
		j.v.Leave()
		j.m.Close()
	}
	for _, m := range c.dropped {
		m.Close()
	}
	c.lanes, c.dropped = nil, nil
}

// sendAll sends msg to every lane of c's deck (a frame rate).
func (c *clientState) sendAll(msg tea.Msg) {
	for _, j := range c.lanes {
		go c.p.Send(deck.LaneMsg{Lane: j.id, Msg: msg})
	}
}

// laneSend tags what it sends as lane id's.
func laneSend(id deck.LaneID, send func(tea.Msg)) func(tea.Msg) {
	return func(msg tea.Msg) { send(deck.LaneMsg{Lane: id, Msg: msg}) }
}

// driverHost is a driver's deck.Host on the shared deck: the server's
// Host, whose lanes added or dropped go to every viewer's deck.
type driverHost struct {
	ps  *Server
	who string
}

// through runs cmd and tells every viewer the lane it added or dropped;
// anything else is for this driver's deck.
func (h driverHost) through(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		switch msg := cmd().(type) {
		case deck.AddLane:
			h.ps.AddLane(msg.Lane)
		case deck.DropLane:
			h.ps.DropLane(msg.Lane)
		default:
			return msg
		}
		return nil
	}
}

// New implements deck.Host.
func (h driverHost) New(prompt string, worktree bool) tea.Cmd {
	return h.through(h.ps.deckHost.NewBy(h.who, prompt, worktree))
}

// Rename implements deck.Host.
func (h driverHost) Rename(id deck.LaneID, name string) tea.Cmd {
	return h.through(h.ps.deckHost.Rename(id, name))
}

// Archive implements deck.Host.
func (h driverHost) Archive(id deck.LaneID) tea.Cmd { return h.through(h.ps.deckHost.Archive(id)) }

// Interrupt implements deck.Host: every viewer's transcript of the lane
// says who interrupted.
func (h driverHost) Interrupt(id deck.LaneID) tea.Cmd {
	if l := h.ps.laneOf(id); l != nil {
		attributed{who: h.who, ps: h.ps, hub: l.hub}.did(hub.ActionInterrupt, "")
	}
	return h.through(h.ps.deckHost.Interrupt(id))
}

// Stop implements deck.Host.
func (h driverHost) Stop(id deck.LaneID) tea.Cmd { return h.through(h.ps.deckHost.Stop(id)) }

// Threads implements deck.Host: the stored threads, for this driver's
// list.
func (h driverHost) Threads(all bool) tea.Cmd { return h.through(h.ps.deckHost.Threads(all)) }

// Resume implements deck.Host: the host opens the stored thread as a
// lane of the shared deck.
func (h driverHost) Resume(threadID string) tea.Cmd {
	return h.through(h.ps.deckHost.Resume(threadID))
}

// Merge implements deck.Host.
func (h driverHost) Merge(id deck.LaneID) tea.Cmd { return h.through(h.ps.deckHost.Merge(id)) }

// RemoveWorktree implements deck.Host; the lane goes from every deck.
func (h driverHost) RemoveWorktree(id deck.LaneID, force bool) tea.Cmd {
	return h.through(h.ps.deckHost.RemoveWorktree(id, force))
}

// CommitMerge implements deck.Host.
func (h driverHost) CommitMerge(id deck.LaneID, message string, files []string) tea.Cmd {
	return h.through(h.ps.deckHost.CommitMerge(id, message, files))
}
