package cli

import (
	"context"
	"log/slog"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"tandem/backend"
	"tandem/internal/deck"
	"tandem/model"
)

// firstLane is the lane of an interactive run's own thread (tandem,
// tandem resume); the threads started from the command center follow.
const firstLane deck.LaneID = 0

// AgentsOptions are `tandem agents`' flags: the session's, as the chat's.
type AgentsOptions struct {
	Session SessionOptions
}

// newAgentsCmd builds `tandem agents`: the command center on its own,
// with no thread of its own; the threads the app-server has loaded (the
// daemon's, say) are opened as lanes.
func newAgentsCmd(f *Factory) *cobra.Command {
	var opts AgentsOptions
	cmd := command("agents", cobra.NoArgs, func(cmd *cobra.Command, _ []string) error {
		cfg, err := opts.Session.resolve()
		if err != nil {
			return err
		}
		std := stdioOf(cmd)
		return runInteractive(cmd.Context(), f, cfg, interactive{agents: true, in: std.in, out: std.out})
	})
	opts.Session.register(cmd.Flags())
	opts.Session.registerScreen(cmd.Flags())
	return cmd
}

// newDeck builds the command center around first (the run's own thread;
// nil for tandem agents, which opens on the list).
func (e *runEnv) newDeck(host *deckHost, first *model.Model, in interactive) *deck.Model {
	opts := deck.Options{
		Host:     host,
		Overlaps: host.repos.overlaps, // deckrepos.go
		Keys:     e.cfg.keys,
		List:     in.agents,
	}
	if first == nil {
		return deck.New(opts)
	}
	return deck.New(opts, deck.Lane{ID: firstLane, Model: first, Title: in.prompt})
}

// attach gives the host the run's session owner and the program; for
// tandem agents the owner's session opens no thread (bare) and only its
// failure is news (as the list's notice).
func (h *deckHost) attach(owner *sessionOwner, send func(tea.Msg), agents bool) {
	h.owner, h.send = owner, send
	owner.restarted = h.restarted
	if agents {
		owner.bare = true
		owner.send = func(msg tea.Msg) {
			if f, ok := msg.(model.SessionFailedMsg); ok {
				send(deck.Result{Lane: -1, Err: f.Err})
			}
		}
	}
}

// run starts the owner's session; for tandem agents it then opens a lane
// for each thread the app-server has loaded.
func (h *deckHost) run(owner *sessionOwner) {
	if err := owner.start(); err != nil || !owner.bare {
		return
	}
	sess, err := owner.live(h.ctx)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(h.ctx, time.Minute)
	defer cancel()
	ids, err := sess.LoadedThreads(ctx)
	if err != nil {
		h.env.log.Info("thread/loaded/list failed", "err", err)
		return
	}
	for _, id := range ids {
		// A sequence's message: the program runs its commands in order
		// (the lane is added before its session starts).
		h.send(h.Resume(id)())
	}
}

// Resume implements deck.Host: thread id opens as a new lane, whose
// model resumes it itself (thread/resume, its history, as tandem resume
// does). The thread's cwd is read (thread/read) to locate its checkout:
// a worktree tandem made in an earlier run is found again, to merge or
// remove.
func (h *deckHost) Resume(id string) tea.Cmd {
	lo := &laneOwner{title: id, thread: id}
	add := h.newLane(lo, interactive{}, id) // deckhost.go
	start := func() tea.Msg {
		send, root, err := lo.live() // deckhost.go
		if err != nil {
			return nil
		}
		lane := root.Open(func(msg any) { send(msg) })
		lo.mu.Lock()
		lo.sess = lane
		lo.mu.Unlock()
		h.markLane(lo.id, id, lo.title) // servedeck.go
		send(h.env.durable(model.SessionReadyMsg{Client: lane, Peer: lane.Describe(), Resume: &model.ResumeRequest{ID: id}}))
		go h.locateThread(lo.id, root, id)
		return nil
	}
	return tea.Sequence(add, start)
}

// locateThread reads thread's cwd and locates the checkout lane id's
// thread runs in (deckworktree.go).
func (h *deckHost) locateThread(id deck.LaneID, s *backend.Session, thread string) {
	ctx, cancel := context.WithTimeout(h.ctx, time.Minute)
	defer cancel()
	t, err := s.ReadThread(ctx, thread)
	if err != nil || t.Cwd == "" {
		return
	}
	h.locate(ctx, id, s, t.Cwd)
}

// shutdown takes the program's final deck: every lane's model but the
// first is closed and its requests refused (left waiting on the daemon),
// the lanes' sessions closed; it returns the first lane's model for
// shutdown (nil when there is none).
func (h *deckHost) shutdown(final tea.Model, log *slog.Logger) *model.Model {
	var first *model.Model
	if d, ok := final.(*deck.Model); ok {
		for id, pane := range d.Panes() {
			m, ok := pane.(*model.Model)
			if !ok {
				continue
			}
			if id == firstLane {
				first = m
				continue
			}
			m.Close()
			st := m.State()
			if st.Durable {
				continue
			}
			for _, r := range st.Pending {
				if !r.Answered() {
					log.Info("refusing pending request on exit", "method", r.Method(), "lane", id)
					_ = r.Refuse()
				}
			}
		}
	}
	h.close()
	return first
}
