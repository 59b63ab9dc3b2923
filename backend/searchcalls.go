package backend

import "context"

// The client side of searching stored threads (threadsearch.go has the
// wire values).

// ThreadSearcher is what a session offers to search its server's stored
// threads (*Session has it; backend.Client does not require it, so test
// clients need not).
type ThreadSearcher interface {
	SearchThreads(ctx context.Context, p ThreadSearchParams) (ThreadSearchResponse, error)
}

// SearchThreads runs one page of `thread/search` on the session's
// server. A codex without it answers "method not found" (Unsupported
// reports true for that error).
func (s *Session) SearchThreads(ctx context.Context, p ThreadSearchParams) (ThreadSearchResponse, error) {
	return ThreadSearch.Call(ctx, s.conn, p)
}
