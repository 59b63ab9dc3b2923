package act

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

// SearchOccurrences asks the server where Term occurs in Thread's
// messages and answers (`thread/searchOccurrences`), one page from
// Cursor; Seq is the asker's search, handed back. The result is
// Occurrences.
type SearchOccurrences struct {
	Thread, Term, Cursor string
	Limit, Seq           int
}

// Occurrences is the answer to SearchOccurrences: Found oldest first,
// Next the next page's cursor ("" after the last), Err the call's (an
// *backend.RPCError -32601 from a codex without the method).
type Occurrences struct {
	Thread, Term string
	Seq          int
	Found        []backend.Occurrence
	Next         string
	Err          error
}

func (a SearchOccurrences) run(ctx context.Context, c backend.Client) tea.Msg {
	found, next, err := c.SearchOccurrences(ctx, a.Thread, a.Term, a.Cursor, a.Limit)
	return Occurrences{Thread: a.Thread, Term: a.Term, Seq: a.Seq, Found: found, Next: next, Err: err}
}

// ReadSearchTurns reads Limit turns of Thread before Cursor for a search
// of its earlier turns (`thread/turns/list`, as ListOlderTurns); Seq is
// the asker's search, handed back. The result is SearchTurns.
type ReadSearchTurns struct {
	Thread, Cursor string
	Limit, Seq     int
}

// SearchTurns is the answer to ReadSearchTurns: Turns before Cursor
// (oldest first), Older the cursor of those before them ("" when none
// are left).
type SearchTurns struct {
	Thread, Cursor string
	Seq            int
	Turns          []backend.Turn
	Older          string
	Err            error
}

func (a ReadSearchTurns) run(ctx context.Context, c backend.Client) tea.Msg {
	turns, older, err := c.ListTurns(ctx, a.Thread, a.Cursor, a.Limit)
	return SearchTurns{Thread: a.Thread, Cursor: a.Cursor, Seq: a.Seq, Turns: turns, Older: older, Err: err}
}
