package backend

import "encoding/json"

// Searching stored threads (`thread/search`, experimental in codex
// 0.169.0). What it searches, checked against codex 0.169.0 and 0.171.0
// (TestThreadSearchCovers in internal/testkit/e2e): see docs/SEARCH.md
// ("Across threads"). It has no workspace filter: the caller keeps the
// threads whose Cwd it wants.

// ThreadSearchParams are the params of `thread/search`: SearchTerm (a
// case-insensitive substring; required, not empty), the page (Cursor,
// Limit) and, as in thread/list, SortKey ("created_at", "updated_at";
// default created_at) and Archived. SourceKinds nil means the interactive
// sources.
type ThreadSearchParams struct {
	SearchTerm  string   `json:"searchTerm"`
	Cursor      *string  `json:"cursor,omitempty"`
	Limit       int      `json:"limit,omitempty"`
	SortKey     string   `json:"sortKey,omitempty"`
	Archived    bool     `json:"archived,omitempty"`
	SourceKinds []string `json:"sourceKinds,omitempty"`
}

// ThreadSearchResult is one thread of `thread/search`'s answer: the
// thread (without turns) and the server's snippet around the match (the
// match itself is not marked: the caller finds the term in it).
type ThreadSearchResult struct {
	Thread  Thread `json:"thread"`
	Snippet string `json:"snippet"`
}

// ThreadSearchResponse is the result of `thread/search`: one page of
// matching threads, newest first by default, and the next page's cursor
// (nil on the last).
type ThreadSearchResponse = Page[ThreadSearchResult]

// SessionIndexEntry decodes one line of codex's CODEX_HOME/session_index.jsonl,
// where a thread's name is kept: its id and name (ok false: not such a
// line).
func SessionIndexEntry(line []byte) (id, name string, ok bool) {
	var e struct {
		ID         string `json:"id"`
		ThreadName string `json:"thread_name"`
	}
	if json.Unmarshal(line, &e) != nil || e.ID == "" {
		return "", "", false
	}
	return e.ID, e.ThreadName, true
}
