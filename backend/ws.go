package backend

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"tandem/internal/lib/redact"
)

// WSTransport attaches to an app-server that is already running with
// `codex app-server --listen ws://IP:PORT` (optionally `--ws-auth
// capability-token --ws-token-file F`). Each JSON-RPC message is one
// websocket text message. Start can be called again after the connection
// dropped; the server keeps its threads, so `thread/resume` works.
type WSTransport struct {
	// URL is "ws://host:port" (or wss://).
	URL string
	// TokenFile, when set, holds the capability token (surrounding
	// whitespace ignored), sent as "Authorization: Bearer TOKEN".
	TokenFile string
	// DialTimeout bounds the handshake; 0 means 10 s.
	DialTimeout time.Duration
}

// Start dials the server. A refused token gives a *RemoteError that says
// so; the token itself never appears in errors.
func (t *WSTransport) Start() (Stream, error) {
	u, err := url.Parse(t.URL)
	if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
		return nil, fmt.Errorf("--remote %q: expected ws://HOST:PORT", t.URL)
	}
	peer := "ws " + u.Host
	hdr := http.Header{}
	if t.TokenFile != "" {
		b, err := os.ReadFile(t.TokenFile)
		if err != nil {
			return nil, fmt.Errorf("reading --remote-token-file: %w", err)
		}
		token := strings.TrimSpace(string(b))
		if token == "" {
			return nil, fmt.Errorf("--remote-token-file %s is empty", t.TokenFile)
		}
		hdr.Set("Authorization", "Bearer "+token)
	}
	timeout := t.DialTimeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, t.URL, &websocket.DialOptions{HTTPHeader: hdr})
	if err != nil {
		if resp != nil {
			switch resp.StatusCode {
			case http.StatusUnauthorized, http.StatusForbidden:
				reason := "the server refused the token"
				if t.TokenFile == "" {
					reason = "the server requires a token"
				}
				return nil, &RemoteError{Peer: peer, Reason: fmt.Sprintf("%s (HTTP %d); check --remote-token-file", reason, resp.StatusCode)}
			}
			return nil, &RemoteError{Peer: peer, Reason: fmt.Sprintf("websocket handshake failed (HTTP %d)", resp.StatusCode)}
		}
		return nil, &RemoteError{Peer: peer, Reason: "could not connect", Detail: redact.String(err.Error())}
	}
	return newWSStream(c, peer, nil), nil
}

// newWSStream adapts the dialled websocket c to a Stream named peer.
// under, when set, is what carries the websocket (an ssh running `codex
// app-server proxy`): its stderr is the stream's, and Close and Wait end
// and wait for it too.
func newWSStream(c *websocket.Conn, peer string, under Stream) *wsStream {
	c.SetReadLimit(64 << 20) // as long as the longest line Conn accepts
	pr, pw := io.Pipe()
	s := &wsStream{conn: c, peer: peer, out: pr, pw: pw, under: under, done: make(chan struct{})}
	s.in = &wsWriter{s: s}
	go s.read()
	return s
}

// wsStream adapts a websocket to Stream: Stdout yields each received
// message as one line, Stdin sends each written line as one message.
type wsStream struct {
	conn  *websocket.Conn
	peer  string
	out   *io.PipeReader
	pw    *io.PipeWriter
	in    *wsWriter
	under Stream // the process carrying the websocket, or nil
	// durable says the server outlives this connection (the app-server
	// daemon): see Durable.
	durable bool
	done    chan struct{}

	mu      sync.Mutex
	err     error // why the read loop ended; nil for a clean close
	closing bool
	once    sync.Once
}

func (s *wsStream) Stdout() io.Reader     { return s.out }
func (s *wsStream) Stdin() io.WriteCloser { return s.in }
func (s *wsStream) Describe() string      { return s.peer }

// Durable reports whether the app-server outlives this connection (it is
// the daemon): a drop of the link is then not the end of its turns.
func (s *wsStream) Durable() bool { return s.durable }

// StderrTail returns the carrying process's last stderr lines (none for a
// direct connection).
func (s *wsStream) StderrTail(n int) []string {
	if s.under != nil {
		return s.under.StderrTail(n)
	}
	return nil
}

// read copies messages to the stdout pipe until the socket ends.
func (s *wsStream) read() {
	defer close(s.done)
	for {
		typ, msg, err := s.conn.Read(context.Background())
		if err != nil {
			s.mu.Lock()
			closing := s.closing
			s.mu.Unlock()
			status := websocket.CloseStatus(err)
			if !closing && status != websocket.StatusNormalClosure && status != websocket.StatusGoingAway {
				s.mu.Lock()
				s.err = &RemoteError{Peer: s.peer, Reason: "connection lost", Detail: redact.String(err.Error())}
				s.mu.Unlock()
			}
			s.pw.Close()
			return
		}
		if typ != websocket.MessageText {
			continue
		}
		msg = bytes.TrimRight(msg, "\n")
		if _, err := s.pw.Write(append(msg, '\n')); err != nil {
			return // the reader side was closed: nobody listens any more
		}
	}
}

// Wait blocks until the socket has closed (and the carrying process, if
// any, has exited: its failure, such as ssh's, is the better reason).
func (s *wsStream) Wait() error {
	<-s.done
	if s.under != nil {
		_ = s.under.Close() // the socket is gone: nothing more can come
		if err := s.under.Wait(); err != nil {
			var remote *RemoteError
			if errors.As(err, &remote) {
				return err
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close sends a normal close frame and waits up to 5 s for the server's
// answer before dropping the connection.
func (s *wsStream) Close() error {
	s.once.Do(func() {
		s.mu.Lock()
		s.closing = true
		s.mu.Unlock()
		go func() { _ = s.conn.Close(websocket.StatusNormalClosure, "") }()
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
			_ = s.conn.CloseNow()
			<-s.done
		}
		_ = s.out.Close()
		if s.under != nil {
			_ = s.under.Close()
		}
	})
	return nil
}

// wsWriter sends each complete line written to it as one text message;
// a partial line waits for its newline.
type wsWriter struct {
	s   *wsStream
	mu  sync.Mutex
	buf []byte
}

func (w *wsWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := w.buf[:i]
		if len(bytes.TrimSpace(line)) > 0 {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			err := w.s.conn.Write(ctx, websocket.MessageText, line)
			cancel()
			if err != nil {
				w.buf = w.buf[:0]
				return 0, errors.Join(ErrClosed, err)
			}
		}
		w.buf = w.buf[i+1:]
	}
}

// Close closes the whole connection (there is no half-close).
func (w *wsWriter) Close() error { return w.s.Close() }
