package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"tandem/backend"
	"tandem/sessions"
)

// diagFlags are the diagnostics and watchdog options.
type diagFlags struct {
	traceProtocol string
	turnTimeout   time.Duration
}

func (d *diagFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&d.traceProtocol, "trace-protocol", "", "write every JSON-RPC message in both directions to FILE, redacted, one JSON line each")
	d.turnTimeout = 30 * time.Minute
	fs.Var(turnTimeoutValue{&d.turnTimeout}, "turn-timeout", "after a turn runs this long, offer to interrupt it (0 or off = never)") // timeoutflag.go
}

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
	red *sessions.StreamRedactor
}

// openTrace creates (truncating) the --trace-protocol file.
func openTrace(path string) (*protocolTracer, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("--trace-protocol: %w", err)
	}
	return &protocolTracer{w: f, now: time.Now, red: sessions.NewStreamRedactor()}, nil
}

// Trace writes one message. Errors are dropped: tracing never stops the
// session.
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
	_, _ = t.w.Write(b)
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

// openTraces opens the --record transcript (header with cwd) and the
// --trace-protocol file, adds their tracers to f.traces, and returns a
// function that closes them.
func (f *flags) openTraces(cwd string) (func() error, error) {
	var closers []func() error
	closeAll := func() error {
		var errs []error
		for _, c := range closers {
			errs = append(errs, c())
		}
		return errors.Join(errs...)
	}
	if f.record != "" {
		rec, err := startRecording(f.record, cwd) // record.go
		if err != nil {
			return nil, &usageError{err.Error()} // a bad --record value: exit 2
		}
		path := f.record
		closers = append(closers, func() error {
			if err := rec.Close(); err != nil {
				return fmt.Errorf("--record %s: the recording is incomplete: %w", path, err)
			}
			return nil
		})
		f.traces = append(f.traces, rec.Trace)
		f.recorder = rec
	}
	if f.diag.traceProtocol != "" {
		tr, err := openTrace(f.diag.traceProtocol)
		if err != nil {
			_ = closeAll()
			return nil, &usageError{err.Error()} // a bad --trace-protocol value
		}
		closers = append(closers, tr.Close)
		f.traces = append(f.traces, tr.Trace)
	}
	return closeAll, nil
}
