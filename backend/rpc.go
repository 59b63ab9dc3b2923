package backend

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// JSON-RPC 2.0 error codes used by tandem and the app-server.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	// CodeServerOverloaded is the app-server's "Server overloaded; retry
	// later" error; callers retry with backoff.
	CodeServerOverloaded = -32001
)

// RPCError is a JSON-RPC 2.0 error object, as sent in a response's "error".
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error implements error as "MESSAGE (code N)".
func (e *RPCError) Error() string {
	return fmt.Sprintf("%s (code %d)", e.Message, e.Code)
}

// RequestID is a JSON-RPC id exactly as it appeared on the wire: a JSON
// string or number. It is echoed back byte for byte.
type RequestID json.RawMessage

// String returns the id's JSON text, e.g. `7` or `"abc"`.
func (id RequestID) String() string { return string(id) }

// MarshalJSON writes the id as received.
func (id RequestID) MarshalJSON() ([]byte, error) {
	if len(id) == 0 {
		return []byte("null"), nil
	}
	return []byte(id), nil
}

// UnmarshalJSON keeps the id's raw JSON text.
func (id *RequestID) UnmarshalJSON(b []byte) error {
	*id = append((*id)[:0], bytes.TrimSpace(b)...)
	return nil
}

// Message is one JSON-RPC 2.0 message on the wire: a request (ID and
// Method), a notification (Method only) or a response (ID with Result or
// Error). The "jsonrpc" member is optional on read and always written.
type Message struct {
	JSONRPC string          `json:"jsonrpc,omitempty"`
	ID      RequestID       `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *RPCError       `json:"error,omitempty"`
}

// Kind reports what the message is: "request", "notification",
// "response" or "" when it is none of these.
func (m *Message) Kind() string {
	switch {
	case m.Method != "" && len(m.ID) > 0:
		return "request"
	case m.Method != "":
		return "notification"
	case len(m.ID) > 0 && (m.Result != nil || m.Error != nil):
		return "response"
	}
	return ""
}

// Direction says which way a traced message travelled.
type Direction string

// Directions of a traced message.
const (
	Sent     Direction = "send" // client → server
	Received Direction = "recv" // server → client
)

// Handler receives what the server sends on its own initiative. Both
// methods run on the connection's read goroutine in wire order and must not
// block for long.
type Handler interface {
	// HandleNotification gets a server notification.
	HandleNotification(method string, params json.RawMessage)
	// HandleRequest gets a server→client request. It must eventually call
	// exactly one of reply's methods; returning false means the method is
	// unknown and the connection answers -32601 itself.
	HandleRequest(req *IncomingRequest) bool
}

// IncomingRequest is a server→client JSON-RPC request awaiting its answer.
// Respond and RespondError are safe to call from any goroutine; only the
// first call sends anything.
type IncomingRequest struct {
	ID     RequestID
	Method string
	Params json.RawMessage

	conn *Conn
	once sync.Once
	done atomic.Bool
}

// Respond sends result as the JSON-RPC response to this request.
func (r *IncomingRequest) Respond(result any) error {
	err := errors.New("already answered")
	r.once.Do(func() {
		r.done.Store(true)
		err = r.conn.respond(r.ID, result, nil)
	})
	return err
}

// RespondError sends a JSON-RPC error response to this request.
func (r *IncomingRequest) RespondError(code int, message string) error {
	err := errors.New("already answered")
	r.once.Do(func() {
		r.done.Store(true)
		err = r.conn.respond(r.ID, nil, &RPCError{Code: code, Message: message})
	})
	return err
}

// Answered reports whether a response has been sent.
func (r *IncomingRequest) Answered() bool { return r.done.Load() }

// ErrClosed is returned by calls made on, or pending when, the connection
// closes.
var ErrClosed = errors.New("app-server connection closed")

// Conn is a JSON-RPC 2.0 client over newline-delimited JSON (one message
// per line, any length). Outgoing writes are serialized; requests are
// correlated by a numeric id. Create one with NewConn and start its read
// loop with Serve.
type Conn struct {
	w       io.Writer
	r       *bufio.Reader
	handler Handler
	log     *slog.Logger
	// Trace, when set before Serve, sees every message in both directions
	// as raw JSON (one line, no newline). It must not retain the slice.
	Trace func(dir Direction, line []byte)
	// Retry bounds retries of calls refused with -32001 (zero value:
	// DefaultRetry); OnRetry, if set, hears about each retry (retry.go).
	Retry   RetryPolicy
	OnRetry func(RetryNotice)
	// Filter, when set before Serve, sees each received line before it is
	// parsed and may drop it by returning false (used to skip login-shell
	// noise over SSH).
	Filter func(line []byte) bool
	// Malformed, when set before Serve, decides what a received line that
	// is not a JSON-RPC message does: nil skips it, an error ends Serve
	// with that error (used over SSH, where such a line means a broken
	// stream). Unset means log and skip.
	Malformed func(line []byte) error

	wmu     sync.Mutex
	nextID  atomic.Int64
	mu      sync.Mutex
	pending map[int64]chan *Message
	closed  bool
	doneCh  chan struct{}
	err     error
	// owed is when each request still owed an answer was sent: the calls
	// waiting, and those given up on (their context ended) until the
	// server answers them or a request sent after them; heard is when
	// the last line came from the server (Unanswered).
	owed  map[int64]time.Time
	heard time.Time
}

// NewConn returns a connection reading server messages from r and writing
// client messages to w. log may be nil.
func NewConn(r io.Reader, w io.Writer, h Handler, log *slog.Logger) *Conn {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Conn{
		w:       w,
		r:       bufio.NewReaderSize(r, 64<<10),
		handler: h,
		log:     log,
		pending: map[int64]chan *Message{},
		owed:    map[int64]time.Time{},
		doneCh:  make(chan struct{}),
	}
}

// Done is closed when the read loop ends.
func (c *Conn) Done() <-chan struct{} { return c.doneCh }

// Err returns why the read loop ended (io.EOF for a clean close).
func (c *Conn) Err() error {
	select {
	case <-c.doneCh:
		return c.err
	default:
		return nil
	}
}

// Serve reads messages until the reader fails, dispatching responses to
// waiting calls and everything else to the handler. It returns the read
// error (io.EOF when the server closed its output). Lines of any length are
// read whole.
func (c *Conn) Serve() error {
	var err error
	for {
		var line []byte
		line, err = readLine(c.r)
		if len(line) > 0 {
			if derr := c.dispatch(line); derr != nil {
				err = derr
				break
			}
		}
		if err != nil {
			break
		}
	}
	c.mu.Lock()
	c.closed = true
	c.err = err
	clear(c.owed)
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
	c.mu.Unlock()
	close(c.doneCh)
	return err
}

// readLine returns the next line without its trailing "\n" or "\r\n".
// Unlike bufio.Scanner it has no length limit.
func readLine(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		buf := append([]byte(nil), line...)
		for err == bufio.ErrBufferFull {
			line, err = r.ReadSlice('\n')
			buf = append(buf, line...)
		}
		line = buf
	}
	line = bytes.TrimRight(line, "\r\n")
	return line, err
}

// dispatch handles one received line. It returns an error only when the
// Malformed hook rejects the line.
func (c *Conn) dispatch(line []byte) error {
	if c.Filter != nil && !c.Filter(line) {
		return nil
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	c.mu.Lock()
	c.heard = time.Now()
	c.mu.Unlock()
	if c.Trace != nil {
		c.Trace(Received, line)
	}
	var m Message
	if err := json.Unmarshal(line, &m); err != nil {
		if c.Malformed != nil {
			return c.Malformed(line)
		}
		c.log.Warn("skipping malformed line from app-server", "err", err, "line", truncate(line, 200))
		return nil
	}
	switch m.Kind() {
	case "response":
		id, err := strconv.ParseInt(string(m.ID), 10, 64)
		if err != nil {
			c.log.Warn("response with unknown id", "id", m.ID.String())
			return nil
		}
		c.mu.Lock()
		ch, ok := c.pending[id]
		delete(c.pending, id)
		c.answered(id)
		c.mu.Unlock()
		if !ok {
			c.log.Warn("response to no pending request", "id", id)
			return nil
		}
		ch <- &m
	case "notification":
		if c.handler != nil {
			c.handler.HandleNotification(m.Method, m.Params)
		}
	case "request":
		req := &IncomingRequest{ID: m.ID, Method: m.Method, Params: m.Params, conn: c}
		if c.handler == nil || !c.handler.HandleRequest(req) {
			c.log.Info("answering unknown server request", "method", m.Method)
			_ = req.RespondError(CodeMethodNotFound, "method not found: "+m.Method)
		}
	default:
		if c.Malformed != nil {
			return c.Malformed(line)
		}
		c.log.Warn("skipping message that is not JSON-RPC", "line", truncate(line, 200))
	}
	return nil
}

func truncate(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "…"
}

// write sends one message as a single line. Writes are serialized.
func (c *Conn) write(m *Message) error {
	m.JSONRPC = "2.0"
	// No HTML escaping: ids (and texts) containing <, > or & are echoed
	// byte for byte.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return err
	}
	b := bytes.TrimRight(buf.Bytes(), "\n")
	var err error
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.Trace != nil {
		c.Trace(Sent, b)
	}
	b = append(b, '\n')
	_, err = c.w.Write(b)
	if peerGone(err) {
		// The peer exited (a broken pipe) or its transport already
		// reaped it (a closed file): either way the connection is closed.
		return fmt.Errorf("%w: %w", ErrClosed, err)
	}
	return err
}

// peerGone reports whether a write error means the peer's end is gone.
func peerGone(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) || errors.Is(err, io.ErrClosedPipe)
}

func (c *Conn) respond(id RequestID, result any, rpcErr *RPCError) error {
	m := &Message{ID: id, Error: rpcErr}
	if rpcErr == nil {
		b, err := json.Marshal(result)
		if err != nil {
			return err
		}
		m.Result = b
	}
	return c.write(m)
}

// Notify sends a notification (a message without an id).
func (c *Conn) Notify(method string, params any) error {
	m := &Message{Method: method}
	if params != nil {
		b, err := json.Marshal(params)
		if err != nil {
			return err
		}
		m.Params = b
	}
	return c.write(m)
}

// callOnce sends a request once and waits for its response; Call
// (retry.go) wraps it with retries on -32001.
func (c *Conn) callOnce(ctx context.Context, method string, params, result any) error {
	id := c.nextID.Add(1)
	ch := make(chan *Message, 1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return fmt.Errorf("%s: %w", method, ErrClosed)
	}
	c.pending[id] = ch
	c.owed[id] = time.Now()
	c.mu.Unlock()

	m := &Message{ID: RequestID(strconv.AppendInt(nil, id, 10)), Method: method}
	if params != nil {
		b, err := json.Marshal(params)
		if err != nil {
			c.forget(id)
			return fmt.Errorf("%s: encoding params: %w", method, err)
		}
		m.Params = b
	}
	if err := c.write(m); err != nil {
		c.forget(id)
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case <-ctx.Done():
		c.giveUp(id) // still owed: a server that never answers is not answering
		return fmt.Errorf("%s: %w", method, ctx.Err())
	case resp, ok := <-ch:
		if !ok {
			return fmt.Errorf("%s: %w", method, ErrClosed)
		}
		if resp.Error != nil {
			return fmt.Errorf("%s: %w", method, resp.Error)
		}
		if result != nil && len(resp.Result) > 0 {
			if err := json.Unmarshal(resp.Result, result); err != nil {
				return fmt.Errorf("%s: decoding result: %w", method, err)
			}
		}
		return nil
	}
}

// forget drops request id, never sent whole: nothing is owed for it.
func (c *Conn) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	delete(c.owed, id)
	c.mu.Unlock()
}
