package cli

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/deck"
)

// ReadState implements deck.ReadStates: the server's read state of lane
// id's thread (`thread/read`'s readState).
func (h *deckHost) ReadState(id deck.LaneID) tea.Cmd {
	return h.readState(id, func(ctx context.Context, s *backend.Session) (bool, error) {
		rs, err := s.ReadState(ctx)
		if err == nil && rs == nil {
			err = backend.ErrNoReadState
		}
		return err == nil && rs.FirstUnread != nil, err
	})
}

// MarkRead implements deck.ReadStates: lane id's thread is marked read
// for every client of the server (`thread/readState/update`).
func (h *deckHost) MarkRead(id deck.LaneID) tea.Cmd {
	return h.readState(id, func(ctx context.Context, s *backend.Session) (bool, error) {
		return false, s.MarkRead(ctx)
	})
}

// readState runs do on lane id's session off the update loop and gives
// its answer as deck.ReadState: Unsupported when the server has no read
// state (-32601, or a codex that refuses the method); nothing Known
// when the call failed otherwise (no session, a thread with nothing
// stored yet, a revision changed meanwhile), which the deck ignores.
func (h *deckHost) readState(id deck.LaneID, do func(context.Context, *backend.Session) (bool, error)) tea.Cmd {
	return func() tea.Msg {
		sess := h.session(id)
		if sess == nil {
			return deck.ReadState{Lane: id}
		}
		ctx, cancel := context.WithTimeout(h.ctx, time.Minute)
		defer cancel()
		unread, err := do(ctx, sess)
		if err != nil {
			h.env.log.Info("thread read state", "lane", id, "err", err)
			return deck.ReadState{Lane: id, Unsupported: backend.Unsupported(err)}
		}
		return deck.ReadState{Lane: id, Known: true, Unread: unread}
	}
}

var _ deck.ReadStates = (*deckHost)(nil)
