package backend

import (
	"context"
	"slices"
)

// A thread's turns, a page at a time: `thread/resume`'s initialTurnsPage
// and `thread/turns/list` (#17: a long thread is never read whole).

// TurnsPageParams choose one page of a thread's turns: the protocol's
// `ThreadResumeInitialTurnsPageParams`, and the paging fields of
// `thread/turns/list`. Limit is in turns (0: the server's default);
// SortDirection "desc" (newest first, the default) or "asc"; ItemsView
// "full" (every item), "summary" (the default) or "notLoaded".
type TurnsPageParams struct {
	Limit         int    `json:"limit,omitempty"`
	SortDirection string `json:"sortDirection,omitempty"`
	ItemsView     string `json:"itemsView,omitempty"`
}

// ThreadTurnsListParams are the params of `thread/turns/list`: Cursor is
// a TurnsPage.NextCursor of an earlier page ("" for the first page).
type ThreadTurnsListParams struct {
	ThreadID string `json:"threadId"`
	Cursor   string `json:"cursor,omitempty"`
	TurnsPageParams
}

// TurnsPage is one page of a thread's turns: the protocol's `TurnsPage`
// and the result of `thread/turns/list`. Data is in the page's sort
// direction (newest first for "desc"); NextCursor continues past its last
// turn (further into the past, for "desc") and is nil when no turn is
// left.
type TurnsPage struct {
	Data       []Turn  `json:"data"`
	NextCursor *string `json:"nextCursor"`
}

// oldestFirst returns a "desc" page's turns oldest first (the order of
// Thread.Turns), and the cursor of the turns before them ("" when none).
func (p TurnsPage) oldestFirst() (turns []Turn, older string) {
	turns = make([]Turn, len(p.Data))
	for i, t := range p.Data {
		turns[len(p.Data)-1-i] = t
	}
	if p.NextCursor != nil && len(p.Data) > 0 {
		older = *p.NextCursor
	}
	return turns, older
}

// ResumeTurns is how many of a thread's newest turns `thread/resume`
// brings along (ThreadResumeParams.InitialTurnsPage); older ones are
// read on demand with Client.ListTurns.
const ResumeTurns = 30

// takePage moves a resume's InitialTurnsPage into Thread.Turns (oldest
// first) and Older, so that every caller reads the history from
// Thread.Turns whether it came whole or as its newest page.
func (r *ThreadResponse) takePage() {
	if r.InitialTurnsPage == nil {
		return
	}
	r.paged = true
	if len(r.Thread.Turns) == 0 {
		r.Thread.Turns, r.Older = r.InitialTurnsPage.oldestFirst()
	}
	r.InitialTurnsPage = nil
}

// ListTurns implements Client: `thread/turns/list`, newest first, every
// item of each turn.
func (s *Session) ListTurns(ctx context.Context, id, cursor string, limit int) ([]Turn, string, error) {
	page, err := ThreadTurnsList.Call(ctx, s.conn, ThreadTurnsListParams{
		ThreadID: id, Cursor: cursor,
		TurnsPageParams: TurnsPageParams{Limit: limit, SortDirection: "desc", ItemsView: "full"},
	})
	if err != nil {
		return nil, "", err
	}
	turns, older := page.oldestFirst()
	return turns, older, nil
}

// readBackPage is how many turns ReadBack and LatestTurns read a call.
const readBackPage = 200

// ReadBack reads the turns of thread id before turns (from cursor older,
// with c.ListTurns) until there are at least n or the thread's first is
// read, and returns them all, oldest first, with the cursor of the ones
// still before ("" when none are). A read that fails leaves what was read.
func ReadBack(ctx context.Context, c Client, id string, turns []Turn, older string, n int) ([]Turn, string) {
	return ReadBackTo(ctx, c, id, turns, older, "", n)
}

// ReadBackTo is ReadBack that also stops once turn known is among what
// was read ("" reads to n): a re-attach reads back to the newest turn the
// transcript holds, so a short drop costs no read at all.
func ReadBackTo(ctx context.Context, c Client, id string, turns []Turn, older, known string, n int) ([]Turn, string) {
	has := func(ts []Turn) bool {
		return known != "" && slices.ContainsFunc(ts, func(t Turn) bool { return t.ID == known })
	}
	for older != "" && len(turns) < n && !has(turns) {
		page, next, err := c.ListTurns(ctx, id, older, min(readBackPage, n-len(turns)))
		if err != nil || len(page) == 0 {
			break
		}
		turns, older = append(page, turns...), next
	}
	return turns, older
}

// LatestTurns reads thread id's newest n turns (it need not be open),
// oldest first, and the cursor of the ones before them.
func LatestTurns(ctx context.Context, c Client, id string, n int) ([]Turn, string, error) {
	turns, older, err := c.ListTurns(ctx, id, "", min(readBackPage, n))
	if err != nil {
		return nil, "", err
	}
	turns, older = ReadBack(ctx, c, id, turns, older, n)
	return turns, older, nil
}

// JoinTurns puts page (a thread's newest turns, as a resume gave them)
// after earlier, read before it (LatestTurns): earlier's turns from
// page's first one on are page's to give. It reports false when earlier
// does not reach page's first turn (more turns ran in between), and then
// returns page alone.
func JoinTurns(earlier, page []Turn) ([]Turn, bool) {
	if len(page) == 0 {
		return earlier, true
	}
	for i := len(earlier) - 1; i >= 0; i-- {
		if earlier[i].ID == page[0].ID {
			return append(earlier[:i:i], page...), true
		}
	}
	return page, false
}
