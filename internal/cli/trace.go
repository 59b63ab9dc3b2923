package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"tandem/backend"
	"tandem/sessions"
)

// traceLine is one line of a --trace-protocol file.
type traceLine struct {
	Time string          `json:"time"` // RFC 3339, nanoseconds, UTC
	Dir  string          `json:"dir"`  // "send" (tandem → server) or "recv"
	Msg  json.RawMessage `json:"msg,omitempty"`
	// Line holds the redacted text when it is not valid JSON.
	Line string `json:"line,omitempty"`
}

// protocolTracer writes traced JSON-RPC messages, redacted, to a file. It
// is safe for concurrent use; its Trace method fits backend.Conn.Trace.
type protocolTracer struct {
	mu  sync.Mutex
	w   io.WriteCloser
	now func() time.Time
	// red redacts like --record does: a secret streamed across several
	// deltas never reaches the file in pieces.
	red *backend.StreamRedactor
	// onErr, when set, is told of every write that fails (setup's warns
	// once).
	onErr func(error)
}

// openTrace creates (truncating) the --trace-protocol file.
func openTrace(path string) (*protocolTracer, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("--trace-protocol: %w", err)
	}
	return &protocolTracer{w: f, now: time.Now, red: backend.NewStreamRedactor()}, nil
}

// Trace writes one message. Errors go to onErr only: tracing never stops
// the session.
func (t *protocolTracer) Trace(dir backend.Direction, line []byte) {
	if t == nil {
		return
	}
	red := t.red.Line(line)
	tl := traceLine{Time: t.now().UTC().Format(time.RFC3339Nano), Dir: string(dir)}
	if json.Valid(red) {
		tl.Msg = red
	} else {
		tl.Line = string(red)
	}
	b, err := json.Marshal(tl)
	if err != nil {
		return
	}
	b = append(b, '\n')
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, err := t.w.Write(b); err != nil && t.onErr != nil {
		t.onErr(err)
	}
}

// Close closes the file.
func (t *protocolTracer) Close() error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.w.Close()
}

// markerTrace returns a trace hook that emits a cast's chapters seen on
// the wire (sessions.Chapters: a marker per turn, approval and question,
// labelled); it is added to the session's traces only under `tandem
// record`. Trace hooks are called one line at a time.
func markerTrace() func(backend.Direction, []byte) {
	var mu sync.Mutex
	var ch sessions.Chapters
	return func(dir backend.Direction, line []byte) {
		mu.Lock()
		label, ok := ch.Wire(dir, line)
		mu.Unlock()
		if ok {
			sessions.EmitMarker(label)
		}
	}
}

// chainTrace composes trace hooks (--record, --trace-protocol, markers):
// each sees every line, in order. It returns nil when there is none.
func chainTrace(fns ...func(backend.Direction, []byte)) func(backend.Direction, []byte) {
	var live []func(backend.Direction, []byte)
	for _, fn := range fns {
		if fn != nil {
			live = append(live, fn)
		}
	}
	switch len(live) {
	case 0:
		return nil
	case 1:
		return live[0]
	}
	return func(dir backend.Direction, line []byte) {
		for _, fn := range live {
			fn(dir, line)
		}
	}
}
