package sessions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"

	"tandem/internal/redact"
)

// CastHeader is the first line of an asciicast v2 file.
type CastHeader struct {
	Version       int               `json:"version"`
	Width         int               `json:"width"`
	Height        int               `json:"height"`
	Timestamp     int64             `json:"timestamp"`
	IdleTimeLimit float64           `json:"idle_time_limit,omitempty"`
	Env           map[string]string `json:"env,omitempty"`
	Title         string            `json:"title,omitempty"`
}

// castHold is how long output may wait for the rest of a line or escape
// sequence before it is written anyway.
const castHold = 40 * time.Millisecond

// castMaxPending bounds the bytes held back waiting for a safe cut.
const castMaxPending = 8 << 10

// CastWriter writes an asciicast v2 recording: the header, then "o"
// (output), "r" (resize, "COLSxROWS") and "m" (marker) events, each
// [seconds since start, code, data]. Output is redacted (redact.Bytes)
// before it is written; to keep a secret or an escape sequence from being
// split between two events, output is held back up to the last newline or
// escape sequence start, for at most castHold. Input is never written.
// Times never decrease. Methods are safe for concurrent use.
type CastWriter struct {
	mu      sync.Mutex
	w       io.Writer
	start   time.Time
	last    float64
	pending []byte
	timer   *time.Timer
	err     error
	closed  bool
}

// NewCastWriter writes h (Version forced to 2, Timestamp defaulting to
// now) and returns a writer for the events.
func NewCastWriter(w io.Writer, h CastHeader) (*CastWriter, error) {
	h.Version = 2
	if h.Timestamp == 0 {
		h.Timestamp = time.Now().Unix()
	}
	b, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return nil, err
	}
	return &CastWriter{w: w, start: time.Now()}, nil
}

// Output records bytes the program wrote to its terminal.
func (c *CastWriter) Output(p []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.pending = append(c.pending, p...)
	cut := safeCut(c.pending)
	if len(c.pending)-cut > castMaxPending {
		cut = len(c.pending)
	}
	if cut > 0 {
		c.emitLocked(c.pending[:cut])
		c.pending = append(c.pending[:0], c.pending[cut:]...)
	}
	if len(c.pending) > 0 {
		if c.timer == nil {
			c.timer = time.AfterFunc(castHold, c.Flush)
		} else {
			c.timer.Reset(castHold)
		}
	}
}

// safeCut returns how much of b can be redacted on its own: up to the
// last newline, or up to the start of the last escape sequence (ESC ends
// every redacted value and a partial sequence must stay whole).
func safeCut(b []byte) int {
	cut := bytes.LastIndexByte(b, '\n') + 1
	if esc := bytes.LastIndexByte(b, 0x1b); esc > cut {
		cut = esc
	}
	return cut
}

// Flush writes whatever output is held back.
func (c *CastWriter) Flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flushLocked()
}

func (c *CastWriter) emitLocked(p []byte) {
	c.eventLocked("o", string(redact.Bytes(p)))
}

// Resize records a terminal size change ("r" event, "COLSxROWS").
func (c *CastWriter) Resize(cols, rows int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flushLocked()
	c.eventLocked("r", strconv.Itoa(cols)+"x"+strconv.Itoa(rows))
}

// Marker records a marker ("m" event) with a label.
func (c *CastWriter) Marker(label string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flushLocked()
	c.eventLocked("m", redact.String(label))
}

func (c *CastWriter) flushLocked() {
	if len(c.pending) > 0 {
		c.emitLocked(c.pending)
		c.pending = c.pending[:0]
	}
}

func (c *CastWriter) eventLocked(code, data string) {
	if c.err != nil || c.closed {
		return
	}
	t := time.Since(c.start).Seconds()
	if t < c.last {
		t = c.last
	}
	c.last = t
	b, err := json.Marshal([]any{json.Number(strconv.FormatFloat(t, 'f', 6, 64)), code, data})
	if err != nil {
		c.err = err
		return
	}
	_, c.err = c.w.Write(append(b, '\n'))
}

// Close writes held-back output and stops the hold timer; it returns the
// first write error. Later calls record nothing.
func (c *CastWriter) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flushLocked()
	if c.timer != nil {
		c.timer.Stop()
	}
	c.closed = true
	return c.err
}

// MarkerFDEnv names the environment variable through which `tandem record`
// hands the recorded tandem a file descriptor for turn-boundary markers.
const MarkerFDEnv = "TANDEM_MARKER_FD"

var (
	markerOnce sync.Once
	markerFile *os.File
	markerMu   sync.Mutex
)

// EmitMarker writes label as one line to the marker descriptor named by
// $TANDEM_MARKER_FD (set by `tandem record`); without it, it does nothing.
func EmitMarker(label string) {
	markerOnce.Do(func() {
		fd, err := strconv.Atoi(os.Getenv(MarkerFDEnv))
		if err != nil || fd < 3 {
			return
		}
		markerFile = os.NewFile(uintptr(fd), "tandem-markers")
	})
	if markerFile == nil {
		return
	}
	markerMu.Lock()
	defer markerMu.Unlock()
	fmt.Fprintln(markerFile, label)
}
