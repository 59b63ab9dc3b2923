package cli

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/deck"
	"tandem/internal/pair"
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
		default:
			ps.Publish(msg)
		}
	}
}

// New implements deck.Host (a thread started by nobody named).
func (s *serveHost) New(prompt string, inWorktree bool) tea.Cmd {
	return s.NewBy("", prompt, inWorktree)
}

// Resume implements deck.Host: a stored thread is not opened on the
// shared deck (yet): each viewer's model of it would resume it on its
// own. It says so.
func (s *serveHost) Resume(string) tea.Cmd {
	return func() tea.Msg {
		return deck.Result{Lane: -1, Err: errors.New("tandem serve opens no stored thread yet: resume it in tandem, or start a new one here")}
	}
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
