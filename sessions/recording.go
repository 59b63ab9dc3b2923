package sessions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"tandem/backend"
	"tandem/internal/lib/redact"
)

// RecordingVersion is the version of the transcript format written by
// Recorder (the header's "version").
const RecordingVersion = 1

// Header is the first line of a protocol transcript (`--record FILE`).
type Header struct {
	// Type is always "header".
	Type    string `json:"type"`
	Version int    `json:"version"`
	// Tandem is tandem's version; Codex the app-server's, taken from the
	// `initialize` response's userAgent ("" when it never answered).
	Tandem string `json:"tandem"`
	Codex  string `json:"codex,omitempty"`
	// Width and Height are the terminal size in cells when recording began.
	Width  int `json:"width"`
	Height int `json:"height"`
	// Start is the wall-clock time recording began (RFC 3339).
	Start time.Time `json:"start"`
	// Cwd is the workspace with $HOME folded to "~".
	Cwd string `json:"cwd"`
}

// Entry is one JSON-RPC message of a transcript: T is milliseconds since
// the recording began (monotonic clock), Dir "send" (client → server) or
// "recv" (server → client), Msg the redacted message. A line that was not
// valid JSON after redaction is kept as text in Raw instead.
type Entry struct {
	T   int64             `json:"t"`
	Dir backend.Direction `json:"dir"`
	Msg json.RawMessage   `json:"msg,omitempty"`
	Raw string            `json:"raw,omitempty"`
}

// Message decodes Msg as a JSON-RPC message; ok is false for a Raw entry
// or a line that does not decode.
func (e Entry) Message() (backend.Message, bool) {
	var m backend.Message
	if len(e.Msg) == 0 || json.Unmarshal(e.Msg, &m) != nil {
		return m, false
	}
	return m, true
}

// Recorder writes a protocol transcript: a Header line, then one Entry per
// JSON-RPC message. Every line goes through the redactor (backend.StreamRedactor:
// redact.Bytes, plus secrets cut between streamed deltas) before it
// reaches the file. Trace is safe for concurrent use. The header is held back
// until the `initialize` response names codex's version (or Close).
type Recorder struct {
	mu      sync.Mutex
	w       *bufio.Writer
	c       io.Closer
	start   time.Time
	header  Header
	written bool
	held    []Entry
	initID  string
	err     error
	red     *backend.StreamRedactor
	// onError, when set, hears of the first write error, once, from the
	// goroutine that traced (never under the lock).
	onError  func(error)
	reported bool
}

// OnError sets fn to be told of the first write error (a full disk, a
// closed pipe), once: the recording stops there, and the session goes on.
func (r *Recorder) OnError(fn func(error)) {
	r.mu.Lock()
	r.onError = fn
	r.mu.Unlock()
}

// maxHeld bounds how many entries wait for the header.
const maxHeld = 16

// NewRecorder starts a transcript on w; h's Type, Version and Start are
// filled in. c (may be nil) is closed by Close.
func NewRecorder(w io.Writer, c io.Closer, h Header) *Recorder {
	h.Type = "header"
	h.Version = RecordingVersion
	start := time.Now()
	if h.Start.IsZero() {
		h.Start = start.UTC().Truncate(time.Millisecond)
	}
	h.Cwd = redact.String(h.Cwd)
	return &Recorder{w: bufio.NewWriter(w), c: c, start: start, header: h, red: backend.NewStreamRedactor()}
}

// CreateRecorder creates (truncating) the file at path, mode 0600, and
// starts a transcript there.
func CreateRecorder(path string, h Header) (*Recorder, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("--record: %w", err)
	}
	return NewRecorder(f, f, h), nil
}

// Trace records one message; it has the signature of backend.Conn.Trace.
func (r *Recorder) Trace(dir backend.Direction, line []byte) {
	t := time.Since(r.start).Milliseconds()
	red := r.red.Line(line)
	e := Entry{T: t, Dir: dir}
	if json.Valid(red) {
		e.Msg = append(json.RawMessage(nil), red...)
	} else {
		e.Raw = string(red)
	}
	r.mu.Lock()
	r.traceLocked(dir, e)
	fn, err := r.onError, r.err
	report := err != nil && fn != nil && !r.reported
	if report {
		r.reported = true
	}
	r.mu.Unlock()
	if report {
		fn(err)
	}
}

func (r *Recorder) traceLocked(dir backend.Direction, e Entry) {
	if r.written {
		r.write(e)
		return
	}
	r.held = append(r.held, e)
	if m, ok := e.Message(); ok {
		switch {
		case dir == backend.Sent && m.Kind() == "request":
			if c, _ := backend.DecodeCall(m.Method, m.Params); c == (backend.InitializeCall{}) {
				r.initID = m.ID.String()
			}
		case dir == backend.Received && m.Kind() == "response" && r.initID != "" && m.ID.String() == r.initID:
			init, _ := backend.InitializeCall{}.DecodeResult(m.Result)
			r.header.Codex = CodexVersion(init.UserAgent)
		}
	}
	if r.header.Codex != "" || len(r.held) >= maxHeld {
		r.flushHeld()
	}
}

// Mark records a client-side note that is not a protocol message (e.g. a
// resize); it is stored as a notification with method "tandem/"+name.
func (r *Recorder) Mark(name string, params any) {
	b, err := json.Marshal(backend.Message{JSONRPC: "2.0", Method: "tandem/" + name, Params: mustJSON(params)})
	if err == nil {
		r.Trace(backend.Sent, b)
	}
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

func (r *Recorder) flushHeld() {
	b, _ := json.Marshal(r.header)
	r.writeLine(b)
	r.written = true
	for _, e := range r.held {
		r.write(e)
	}
	r.held = nil
}

func (r *Recorder) write(e Entry) {
	b, err := json.Marshal(e)
	if err != nil {
		return
	}
	r.writeLine(b)
}

func (r *Recorder) writeLine(b []byte) {
	if r.err != nil {
		return
	}
	if _, err := r.w.Write(append(b, '\n')); err != nil {
		r.err = err
		return
	}
	// Flush per line: a crash or kill must not lose the transcript.
	r.err = r.w.Flush()
}

// Close writes what is held, flushes and closes the file. It returns the
// first write error.
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.written {
		r.flushHeld()
	}
	err := r.err
	if r.c != nil {
		if cerr := r.c.Close(); err == nil {
			err = cerr
		}
		r.c = nil
	}
	return err
}

// CodexVersion extracts the version from an `initialize` userAgent such as
// "tandem/0.169.0 (Ubuntu 24.4.0; x86_64) xterm (tandem; dev)"; it returns
// the whole string when it has no "name/version" prefix.
func CodexVersion(userAgent string) string {
	first, _, _ := strings.Cut(userAgent, " ")
	if _, v, ok := strings.Cut(first, "/"); ok && v != "" {
		return v
	}
	return userAgent
}

// Recording is a loaded protocol transcript.
type Recording struct {
	Header  Header
	Entries []Entry
	// Skipped counts the lines after the header that were not JSON
	// entries (a corrupt or cut line); they are left out of Entries.
	Skipped int
}

// ErrNotRecording is returned by ReadRecording when the first line is not
// a transcript header.
var ErrNotRecording = errors.New("not a tandem recording (no header line)")

// ReadRecording parses a transcript. Lines that don't parse are skipped;
// entries keep file order.
func ReadRecording(r io.Reader) (*Recording, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	rec := &Recording{}
	first := true
	for n := 1; ; n++ {
		limit := MaxRecordingLine
		if first {
			limit = maxHeaderLine
		}
		line, err := readLine(br, limit)
		if errors.Is(err, errLineTooLong) {
			if first {
				return nil, ErrNotRecording
			}
			return nil, fmt.Errorf("line %d: longer than %d MiB", n, MaxRecordingLine>>20)
		}
		line = bytes.TrimSpace(line)
		if len(line) > 0 {
			if first {
				if json.Unmarshal(line, &rec.Header) != nil || rec.Header.Type != "header" {
					return nil, ErrNotRecording
				}
				if rec.Header.Version > RecordingVersion {
					return nil, fmt.Errorf("recorded in format %d by a newer tandem (%s); this one reads format %d", rec.Header.Version, rec.Header.Tandem, RecordingVersion)
				}
				first = false
			} else {
				var e Entry
				if json.Unmarshal(line, &e) == nil {
					rec.Entries = append(rec.Entries, e)
				} else {
					rec.Skipped++
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if first {
		return nil, ErrNotRecording
	}
	return rec, nil
}

// MaxRecordingLine is the longest line ReadRecording reads (64 MiB): a
// completed item carries its whole text or output, which the app-server
// caps well below this.
const MaxRecordingLine = 64 << 20

// maxHeaderLine is the longest first line of a recording (1 MiB): its
// header is a few hundred bytes.
const maxHeaderLine = 1 << 20

var errLineTooLong = errors.New("line too long")

// readLine reads up to and including the next newline (or to EOF),
// failing with errLineTooLong past limit bytes instead of holding more.
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > limit {
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		return line, err
	}
}

// LoadRecording reads the transcript file at path.
func LoadRecording(path string) (*Recording, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rec, err := ReadRecording(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rec, nil
}
