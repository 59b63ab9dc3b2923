package mockapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// ExhaustedText is the message the mock answers with once the script has no
// Response left, so that a surplus model round never hangs.
const ExhaustedText = "(mock: script exhausted)"

// Server is a scripted mock of the OpenAI Responses API. It answers every
// model-turn POST to .../responses with the next scripted Response, streamed
// as SSE. Create it with New or Listen; it is safe for concurrent use.
type Server struct {
	// URL is the base URL to configure as the provider's base_url, e.g.
	// "http://127.0.0.1:43567/v1".
	URL string

	srv *httptest.Server

	mu      sync.Mutex
	queue   []Response
	reqs    []Request
	hits    []Hit
	changed chan struct{} // closed and replaced whenever reqs grows
	seq     int           // response ids handed out
	served  int           // scripted responses served
	closed  bool
	aux     map[string]Response
	onReq   func(Request)
}

// Request is one POST to .../responses received by the mock.
type Request struct {
	// Raw is the whole request body.
	Raw json.RawMessage
	// Path is the URL path, e.g. "/v1/responses".
	Path string
	// Header holds the request headers.
	Header http.Header
	// Kind is the request_kind codex put in its turn metadata: RequestKindTurn
	// for model rounds, RequestKindCompaction for compactions; "" when absent.
	Kind string
	// Aux is true when the request was not a model turn (see the package doc)
	// and was answered without consuming the script.
	Aux bool
	// Index is the position of the answering Response in the script, -1 for
	// auxiliary requests and for requests answered after the script ran out.
	Index int
}

// Hit is one HTTP request of any kind received by the mock (for debugging
// what codex asks for).
type Hit struct {
	// Method is the HTTP method.
	Method string
	// Path is the URL path (without query).
	Path string
}

// New starts a mock on 127.0.0.1 with a random port that answers model-turn
// POSTs with the given responses, in order.
func New(responses ...Response) *Server {
	s, err := Listen("127.0.0.1:0", responses...)
	if err != nil {
		panic(fmt.Sprintf("mockapi: %v", err))
	}
	return s
}

// Listen is like New but listens on addr (host:port; port 0 picks a free one).
func Listen(addr string, responses ...Response) (*Server, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &Server{queue: append([]Response(nil), responses...), changed: make(chan struct{})}
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(s.serveHTTP))
	s.srv.Listener.Close()
	s.srv.Listener = l
	s.srv.Start()
	s.URL = s.srv.URL + "/v1"
	return s, nil
}

// Enqueue appends responses to the script.
func (s *Server) Enqueue(r ...Response) {
	s.mu.Lock()
	s.queue = append(s.queue, r...)
	s.mu.Unlock()
}

// Pending returns how many scripted responses have not been served yet.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// OnRequest sets a function called (from the serving goroutine) with every
// POST after it has been recorded and before it is answered, e.g. to log.
func (s *Server) OnRequest(f func(Request)) {
	s.mu.Lock()
	s.onReq = f
	s.mu.Unlock()
}

// record appends req to the log, wakes WaitRequests and returns the
// OnRequest hook. Call with s.mu held.
func (s *Server) record(req Request) func(Request) {
	s.reqs = append(s.reqs, req)
	close(s.changed)
	s.changed = make(chan struct{})
	return s.onReq
}

// Close shuts the server down, cutting open streams. It may be called more
// than once.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.mu.Unlock()
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// Requests returns every model-turn POST received so far, in order.
// Auxiliary requests (Aux true) are left out; see AllRequests.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Request
	for _, r := range s.reqs {
		if !r.Aux {
			out = append(out, r)
		}
	}
	return out
}

// AllRequests returns every POST to .../responses received so far, model
// turns and auxiliary ones, in order.
func (s *Server) AllRequests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Hits returns every HTTP request received so far (method and path).
func (s *Server) Hits() []Hit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Hit(nil), s.hits...)
}

// WaitRequests waits until at least n model-turn requests have arrived and
// returns them all (as Requests). It returns an error with what arrived so
// far when the timeout passes first.
func (s *Server) WaitRequests(n int, timeout time.Duration) ([]Request, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		reqs := s.Requests()
		if len(reqs) >= n {
			return reqs, nil
		}
		select {
		case <-ch:
		case <-deadline.C:
			return reqs, fmt.Errorf("mockapi: got %d of %d requests within %v", len(reqs), n, timeout)
		}
	}
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits = append(s.hits, Hit{Method: r.Method, Path: r.URL.Path})
	s.mu.Unlock()

	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/responses"):
		s.serveResponses(w, r)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/responses/compact"):
		s.serveCompact(w, r)
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		// Model catalog: an empty list makes codex fall back to its built-in
		// defaults for the configured model.
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[],"models":[]}`)
	default:
		writeError(w, http.StatusNotFound, "mockapi: no route for "+r.Method+" "+r.URL.Path)
	}
}

func (s *Server) serveResponses(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "mockapi: reading body: "+err.Error())
		return
	}
	if !json.Valid(body) {
		writeError(w, http.StatusBadRequest, "mockapi: request body is not JSON")
		return
	}
	req := Request{Raw: json.RawMessage(body), Path: r.URL.Path, Header: r.Header.Clone(), Index: -1}
	classify(&req)

	var resp Response
	s.mu.Lock()
	s.seq++
	id := fmt.Sprintf("resp_mock_%d", s.seq)
	switch {
	case req.Aux:
		resp = s.auxResponse(req)
	case len(s.queue) > 0:
		// The first queued response whose When accepts the request (a
		// sub-agent's requests race the parent's; When tells them apart).
		i := 0
		for i < len(s.queue) && s.queue[i].When != nil && !s.queue[i].When(req) {
			i++
		}
		if i == len(s.queue) {
			resp = Response{Items: []Item{Text(ExhaustedText)}}
			break
		}
		resp = s.queue[i]
		s.queue = append(s.queue[:i:i], s.queue[i+1:]...)
		req.Index = s.served
		s.served++
	default:
		resp = Response{Items: []Item{Text(ExhaustedText)}}
	}
	hook := s.record(req)
	s.mu.Unlock()
	if hook != nil {
		hook(req)
	}

	if resp.FailStatus != 0 {
		msg := resp.FailMessage
		if msg == "" {
			msg = fmt.Sprintf("mockapi: scripted failure (HTTP %d)", resp.FailStatus)
		}
		writeError(w, resp.FailStatus, msg)
		return
	}
	model := gjsonString(body, "model")
	_ = streamSSE(w, r, id, model, resp)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	code := "mock_error"
	typ := "server_error"
	if status == http.StatusTooManyRequests {
		code, typ = "rate_limit_exceeded", "rate_limit_error"
	} else if status < 500 {
		typ = "invalid_request_error"
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": msg, "type": typ, "code": code, "param": nil,
	}})
	w.Write(b)
}

// gjsonString returns the top-level string field key of a JSON object, or "".
func gjsonString(body []byte, key string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return ""
	}
	var v string
	if json.Unmarshal(m[key], &v) != nil {
		return ""
	}
	return v
}

var errClientGone = errors.New("mockapi: client went away")

// serveCompact answers the remote compaction endpoint (POST
// .../responses/compact, used by codex for OpenAI-hosted providers) with the
// compaction summary as the replacement history.
func (s *Server) serveCompact(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil || !json.Valid(body) {
		writeError(w, http.StatusBadRequest, "mockapi: bad request body")
		return
	}
	req := Request{Raw: json.RawMessage(body), Path: r.URL.Path, Header: r.Header.Clone(), Index: -1}
	classify(&req)
	s.mu.Lock()
	resp := s.auxResponse(req)
	hook := s.record(req)
	s.mu.Unlock()
	if hook != nil {
		hook(req)
	}
	if resp.FailStatus != 0 {
		writeError(w, resp.FailStatus, "mockapi: scripted compaction failure")
		return
	}
	var output []any
	for _, it := range resp.Items {
		if it.Kind == KindMessage {
			output = append(output, map[string]any{
				"type": "message", "role": "assistant",
				"content": []any{map[string]any{"type": "output_text", "text": it.Text()}},
			})
		}
	}
	if output == nil {
		output = []any{}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"output": output})
}
