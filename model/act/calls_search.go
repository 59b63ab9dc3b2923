package act

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

// Searching across threads (/search, `tandem search`; docs/SEARCH.md
// "Across threads").

// ThreadMatch is one thread a search found: the thread (ID, Name,
// Preview, Cwd, UpdatedAt; Path when local), the 1-based turn the match
// is in and its id (0 and "": not known, as from the server's
// thread/search), what matched (Kind: "prompt", "answer", "command",
// "output", …; "" not known), and one line of text around the match with
// the match's byte range in it.
type ThreadMatch struct {
	Thread  backend.Thread
	Turn    int
	TurnID  string
	Kind    string
	Snippet string
	Match   [2]int
}

// ThreadFinder searches the threads for query: every workspace's (all)
// or the workspace's the session runs in; c is the session's client (a
// finder that reads the server uses it; one that reads the rollouts on
// this machine need not). internal/cli makes it.
type ThreadFinder func(ctx context.Context, c backend.Client, query string, all bool) ([]ThreadMatch, error)

// ErrNoThreadSearch is SearchThreads' error where no ThreadFinder was
// given (a replay, a viewer of tandem serve).
var ErrNoThreadSearch = errors.New("search across threads is not available here")

// SearchThreads runs Find for /search; the result is ThreadsFound.
type SearchThreads struct {
	Query string
	All   bool
	Find  ThreadFinder
}

// ThreadsFound is the answer to SearchThreads: the matches, newest
// first, or Err.
type ThreadsFound struct {
	Query   string
	All     bool
	Matches []ThreadMatch
	Err     error
}

func (a SearchThreads) run(ctx context.Context, c backend.Client) tea.Msg {
	if a.Find == nil {
		return ThreadsFound{Query: a.Query, All: a.All, Err: ErrNoThreadSearch}
	}
	m, err := a.Find(ctx, c, a.Query, a.All)
	return ThreadsFound{Query: a.Query, All: a.All, Matches: m, Err: err}
}
