package backend

import "context"

// ThreadSearchOccurrencesParams are `thread/searchOccurrences`'
// params: SearchTerm, a literal the server matches ignoring case, in
// thread ThreadID's visible messages; Cursor continues an earlier page
// (of the same thread and term); Limit caps the page (0: the server's).
type ThreadSearchOccurrencesParams struct {
	ThreadID   string `json:"threadId"`
	SearchTerm string `json:"searchTerm"`
	Cursor     string `json:"cursor,omitempty"`
	Limit      int    `json:"limit,omitempty"`
}

// TextRange is a range of a snippet in UTF-16 code units: [Start, End).
type TextRange struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Occurrence is one place a thread search found its term: the user
// message or agent answer ItemID of turn TurnID, a Snippet of its text
// around the match (Match: the match in it, UTF-16 code units), and
// TurnCursor, a `thread/turns/list` cursor that starts at that turn (it
// included).
type Occurrence struct {
	TurnID     string    `json:"turnId"`
	ItemID     string    `json:"itemId"`
	Snippet    string    `json:"snippet"`
	Match      TextRange `json:"snippetMatchRange"`
	TurnCursor string    `json:"turnCursor"`
}

// OccurrencesPage is `thread/searchOccurrences`' result: Data in the
// thread's order (oldest first), NextCursor the next page's cursor (nil
// when this page is the last).
type OccurrencesPage struct {
	Data       []Occurrence `json:"data"`
	NextCursor *string      `json:"nextCursor"`
}

// SearchOccurrences runs `thread/searchOccurrences` (experimental,
// codex 0.169.0 on): where term occurs in thread id's user messages and
// agent answers (not its reasoning, commands or tool calls), a page of
// up to limit (0: the server's default) from cursor ("" for the first),
// oldest first, and the cursor of the next page ("" after the last). A
// codex without it answers -32601 (an *RPCError).
func (s *Session) SearchOccurrences(ctx context.Context, id, term, cursor string, limit int) ([]Occurrence, string, error) {
	page, err := ThreadSearchOccurrences.Call(ctx, s.conn, ThreadSearchOccurrencesParams{
		ThreadID: id, SearchTerm: term, Cursor: cursor, Limit: limit,
	})
	if err != nil {
		return nil, "", err
	}
	next := ""
	if page.NextCursor != nil {
		next = *page.NextCursor
	}
	return page.Data, next, nil
}
