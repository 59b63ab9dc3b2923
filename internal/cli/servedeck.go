package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/deck"
	"tandem/internal/pair"
	"tandem/model"
	"tandem/sessions"
)

// serveHost carries out the drivers' command center actions on the
// shared deck of tandem serve (pair.Host): the session's own thread is
// the first lane (pair.FirstLane), each thread a driver starts another
// lane on the same app-server (backend.Session.Open), fed into a hub of
// its own (pair.Server.PublishLane) that every viewer joins. It is the
// interactive run's deckHost with the pairing server as its program:
// what a lane says goes to its hub, a lane added or dropped to every
// viewer's deck.
type serveHost struct {
	*deckHost
	ps *pair.Server
}

// newServeHost returns the shared deck's host; attach gives it the
// pairing server and the session's owner once both exist.
func newServeHost(ctx context.Context, env *runEnv) *serveHost {
	return &serveHost{deckHost: newDeckHost(ctx, env)}
}

// attach wires the host to the pairing server ps and the session's
// owner: what a lane's session says goes to ps, and a restart of the
// app-server rejoins every lane's thread on the new one.
func (s *serveHost) attach(ps *pair.Server, owner *sessionOwner) {
	s.ps = ps
	s.owner = owner
	owner.restarted = s.restarted
	s.send = func(msg tea.Msg) {
		switch msg := msg.(type) {
		case deck.LaneMsg:
			ps.PublishLane(msg.Lane, msg.Msg)
		case deck.AddLane:
			ps.AddLane(msg.Lane)
		case deck.DropLane:
			ps.DropLane(msg.Lane)
		case deck.Checkout:
			ps.Checkout(msg)
		default:
			ps.Publish(msg)
		}
	}
}

// New implements deck.Host (a thread started by nobody named).
func (s *serveHost) New(prompt string, inWorktree bool) tea.Cmd {
	return s.NewBy("", prompt, inWorktree)
}

// Resume implements deck.Host: the host opens stored thread id (a
// driver's Enter on the list's stored row) as a lane of the shared deck,
// as a driver's new thread is: added to every viewer's deck, resumed
// once on the app-server (ResumeThread) and its history told through the
// lane's hub, so that every viewer's model of it shows the same
// transcript. A thread open already is refused.
func (s *serveHost) Resume(id string) tea.Cmd {
	lo, open := s.newLaneOf(id)
	if lo == nil {
		return func() tea.Msg {
			return deck.Result{Lane: open, Err: errors.New("open: that thread is open already")}
		}
	}
	return func() tea.Msg {
		if err := s.resume(lo); err != nil {
			return deck.Result{Lane: lo.id, Err: fmt.Errorf("open: %w", err)}
		}
		return nil
	}
}

// newLaneOf adds the owner of a new lane for stored thread id, unless a
// lane has it open already (then it returns nil and that lane): two
// drivers opening one thread at once get one lane.
func (s *serveHost) newLaneOf(id string) (*laneOwner, deck.LaneID) {
	if sess := s.session(firstLane); sess != nil && sess.ThreadID() == id {
		return nil, firstLane
	}
	h := s.deckHost
	h.mu.Lock()
	defer h.mu.Unlock()
	for lid, lo := range h.lanes {
		lo.mu.Lock()
		same := lo.thread == id
		lo.mu.Unlock()
		if same {
			return nil, lid
		}
	}
	h.next++
	lo := &laneOwner{h: h, id: h.next, title: id, thread: id}
	h.lanes[lo.id] = lo
	return lo, lo.id
}

// resume opens lo's stored thread on the live app-server: its row (named
// as the server names it) goes to every viewer's deck, then the thread
// is resumed on a lane of its own and its ready message, with the
// history, published to the lane's hub. A thread the server does not
// have drops the lane; a resume that fails leaves it saying so, and F5
// there tries again.
func (s *serveHost) resume(lo *laneOwner) error {
	h := s.deckHost
	root, err := h.owner.live(h.ctx)
	if err != nil {
		h.forget(lo.id)
		return err
	}
	ctx, cancel := context.WithTimeout(h.ctx, time.Minute)
	defer cancel()
	t, err := root.ReadThread(ctx, lo.thread)
	if err != nil {
		h.forget(lo.id)
		return err
	}
	title := t.Preview
	if t.Name != nil && *t.Name != "" {
		title = *t.Name
	}
	lo.mu.Lock()
	lo.title = title
	send := lo.gate(lo.gen)
	lo.mu.Unlock()
	s.ps.AddLane(deck.Lane{ID: lo.id, Title: title, Thread: lo.thread})
	lane := root.Open(func(msg any) { send(msg) })
	lo.mu.Lock()
	lo.sess = lane
	lo.mu.Unlock()
	resp, err := lane.ResumeThread(ctx, lo.thread)
	if err != nil {
		send(model.SessionFailedMsg{Err: err, What: "the thread"})
		return err
	}
	msg := h.env.durable(readyMsg(lane, resp)) // setup.go
	msg.History, msg.Older = resp.Thread.Turns, resp.Older
	send(msg)
	h.markLane(lo.id, lo.thread, title)
	go h.locate(h.ctx, lo.id, root, t.Cwd) // its worktree or branch: deck.Checkout to every viewer
	return nil
}

// restartLane implements pair.Options.RestartLane: driver who's F5 in
// lane id opens it again on the live app-server (restarted first when it
// is gone: the other lanes rejoin the new one) and rejoins its thread.
func (s *serveHost) restartLane(id deck.LaneID, who, lastTurn string) (model.RestartInfo, error) {
	s.mu.Lock()
	lo := s.lanes[id]
	s.mu.Unlock()
	if lo == nil {
		return model.RestartInfo{}, errors.New("the thread is closed")
	}
	return lo.restartBy(who, lastTurn) // deckhost.go
}

// NewBy implements pair.Host: the lane is added to every viewer's deck
// at once (it shows "starting"), its thread started (in a new git
// worktree when inWorktree), and prompt sent as its first turn, told as
// driver who's.
func (s *serveHost) NewBy(who, prompt string, inWorktree bool) tea.Cmd {
	h := s.deckHost
	h.mu.Lock()
	h.next++
	lo := &laneOwner{h: h, id: h.next, title: prompt, inWorktree: inWorktree}
	h.lanes[lo.id] = lo
	h.mu.Unlock()
	return func() tea.Msg {
		s.ps.AddLane(deck.Lane{ID: lo.id, Title: prompt})
		if err := lo.start(); err != nil {
			return deck.Result{Lane: lo.id, Err: err}
		}
		sess := h.session(lo.id)
		if sess == nil {
			return deck.Result{Lane: lo.id, What: "the thread was stopped before its first turn"}
		}
		if who != "" {
			s.ps.Prompted(lo.id, who, prompt)
		}
		ctx, cancel := context.WithTimeout(h.ctx, time.Minute)
		defer cancel()
		if _, err := sess.StartTurn(ctx, backend.TurnInput{Text: prompt}); err != nil {
			return deck.Result{Lane: lo.id, Err: err}
		}
		return deck.Result{Lane: lo.id, What: "started a thread"}
	}
}

// markLane notes in the recording (--record) that thread is lane id of
// the command center, not the session's own thread: replay then shows
// the first thread, and export writes each lane's in a section of its
// own (sessions.Lane).
func (h *deckHost) markLane(id deck.LaneID, thread, title string) {
	if rec := h.env.recorder; rec != nil && id != firstLane {
		rec.Mark("lane", sessions.Lane{Lane: int(id), Thread: thread, Title: title})
	}
}
