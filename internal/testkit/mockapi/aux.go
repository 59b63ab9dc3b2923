package mockapi

import (
	"encoding/json"
	"strings"
)

// Request kinds found in the request_kind field of codex's turn metadata
// (the X-Codex-Turn-Metadata header, mirrored in the body's
// client_metadata["x-codex-turn-metadata"]).
const (
	// RequestKindTurn is a regular model round of a turn; it consumes the script.
	RequestKindTurn = "turn"
	// RequestKindCompaction is a context compaction (thread/compact/start or
	// automatic): answered with a summary without consuming the script.
	RequestKindCompaction = "compaction"
)

// compactionPrompt starts the user message codex 0.169.0 appends for
// inline compaction; used when the metadata is missing.
const compactionPrompt = "You are performing a CONTEXT CHECKPOINT COMPACTION"

// DefaultCompactionSummary is what the mock answers to compaction requests
// unless SetAuxResponse says otherwise.
const DefaultCompactionSummary = "(mock: summary of the conversation so far)"

// requestKind returns the request_kind of codex's turn metadata, from the
// header or the body, or "" when there is none.
func requestKind(header string, body []byte) string {
	if header == "" {
		var b struct {
			ClientMetadata map[string]string `json:"client_metadata"`
		}
		if json.Unmarshal(body, &b) == nil {
			header = b.ClientMetadata["x-codex-turn-metadata"]
		}
	}
	if header == "" {
		return ""
	}
	var meta struct {
		RequestKind string `json:"request_kind"`
	}
	if json.Unmarshal([]byte(header), &meta) != nil {
		return ""
	}
	return meta.RequestKind
}

// classify fills req.Kind and req.Aux.
func classify(req *Request) {
	req.Kind = requestKind(req.Header.Get("X-Codex-Turn-Metadata"), req.Raw)
	if req.Kind == "" && isCompactionShape(req.Raw) {
		req.Kind = RequestKindCompaction
	}
	if strings.HasSuffix(req.Path, "/compact") {
		req.Kind = RequestKindCompaction
	}
	req.Aux = req.Kind != "" && req.Kind != RequestKindTurn
}

// isCompactionShape reports whether body looks like codex's inline
// compaction request: no tools and a last user message with the
// compaction prompt.
func isCompactionShape(body []byte) bool {
	var b struct {
		Tools []json.RawMessage `json:"tools"`
		Input []inputItem       `json:"input"`
	}
	if json.Unmarshal(body, &b) != nil || len(b.Tools) > 0 || len(b.Input) == 0 {
		return false
	}
	last := b.Input[len(b.Input)-1]
	if last.Type != "message" || last.Role != "user" {
		return false
	}
	for _, c := range last.Content {
		if strings.HasPrefix(c.Text, compactionPrompt) {
			return true
		}
	}
	return false
}

// SetAuxResponse sets the answer to auxiliary (non-turn) requests of the
// given kind, e.g. RequestKindCompaction. Auxiliary requests never consume the
// script.
func (s *Server) SetAuxResponse(kind string, r Response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.aux == nil {
		s.aux = map[string]Response{}
	}
	s.aux[kind] = r
}

// auxResponse returns the answer to an auxiliary request. Call with s.mu held.
func (s *Server) auxResponse(req Request) Response {
	if r, ok := s.aux[req.Kind]; ok {
		return r
	}
	if req.Kind == RequestKindCompaction {
		return Response{Items: []Item{Text(DefaultCompactionSummary)}}
	}
	return Response{Items: []Item{Text("(mock: " + req.Kind + " request)")}}
}
