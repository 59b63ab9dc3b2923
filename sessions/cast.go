package sessions

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"

	"tandem/internal/lib/redact"
	"tandem/internal/lib/screen"
)

// CastHeader is the first line of an asciicast file, in v2's shape:
// Version is CastV2 or CastV3 (a v3 file's "term" is read into Width,
// Height and Env["TERM"], and written back there).
type CastHeader struct {
	Version       int               `json:"version"`
	Width         int               `json:"width"`
	Height        int               `json:"height"`
	Timestamp     int64             `json:"timestamp"`
	IdleTimeLimit float64           `json:"idle_time_limit,omitempty"`
	Env           map[string]string `json:"env,omitempty"`
	Title         string            `json:"title,omitempty"`
}

// castHold is how long output is gathered before the screen is written:
// at most one "o" event per castHold (25 a second).
const castHold = 40 * time.Millisecond

// castSyncHold bounds how long a frame the program is still drawing (DEC
// mode 2026, synchronized output) holds the screen back.
const castSyncHold = 250 * time.Millisecond

// CastWriter writes an asciicast recording, v3 or v2 (its header's
// Version): the header, then "o" (output), "r" (resize, "COLSxROWS") and
// "m" (marker) events, each [time, code, data] — in v2 the seconds since
// the start, in v3 the seconds since the event before.
//
// The output is not copied. It drives a terminal emulator
// (internal/lib/screen), and what that shows is written, redacted, so a
// secret typed one key at a time or wrapped at the screen's edge is
// hidden like any other. The first "o" event, and the first after a
// resize, clears the screen and draws all of it; each later one redraws
// only the rows that changed, then sets the cursor and its visibility.
// Entering and leaving the alternate screen are kept (DEC mode 1049), and
// the frame after either is drawn whole: a player shows the main screen
// again when a full-screen program quits, and a picture drawn from the
// cast ends on the program's last full-screen frame (frames.Cast), which
// is written before the program leaves that screen. Output is gathered for castHold before it is drawn, and always drawn
// before a resize or a marker and on Flush and Close; an event is timed
// at the last output it shows. Colours and text attributes are kept, and
// the window title is written redacted (OSC 0); everything else the
// program sent (other modes, bells, clipboard, hyperlinks, queries) is dropped.
// Input is never written. Times never decrease. Methods are safe for
// concurrent use.
type CastWriter struct {
	mu     sync.Mutex
	enc    *castEncoder
	start  time.Time
	scr    *screen.Screen
	cur    *screen.Frame // the frame being built, reused
	prev   *screen.Frame // the frame last written; nil: draw all
	dirty  bool          // output since prev
	alt    bool          // the cast is on the alternate screen
	outAt  float64       // when the last output came, in seconds
	since  time.Time     // when the first output since prev came
	armed  bool          // the hold timer is running
	timer  *time.Timer
	buf    []byte
	closed bool
}

// NewCastWriter writes h (Version CastV3 for asciicast v3, anything else
// for v2; Timestamp defaulting to now) and returns a writer for the
// events, recording a screen of h.Width×h.Height (80×24 when unset).
func NewCastWriter(w io.Writer, h CastHeader) (*CastWriter, error) {
	enc, err := newCastEncoder(w, h)
	if err != nil {
		return nil, err
	}
	cols, rows := h.Width, h.Height
	if cols <= 0 || rows <= 0 {
		cols, rows = 80, 24
	}
	return &CastWriter{enc: enc, start: time.Now(), scr: screen.New(cols, rows)}, nil
}

// Output records bytes the program wrote to its terminal.
func (c *CastWriter) Output(p []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	if i := leaveAltScreen(p); i >= 0 && c.scr.Alt() {
		// The program's last frame on the alternate screen is written
		// before it leaves it (unless it is half drawn).
		c.writeLocked(p[:i])
		if !c.scr.Synchronized() {
			c.flushLocked()
		}
		p = p[i:]
	}
	c.writeLocked(p)
}

// writeLocked feeds p to the screen and arms the hold.
func (c *CastWriter) writeLocked(p []byte) {
	if len(p) == 0 {
		return
	}
	_, _ = c.scr.Write(p)
	now := time.Now()
	if !c.dirty {
		c.since = now
	}
	c.dirty = true
	c.outAt = now.Sub(c.start).Seconds()
	c.armLocked(castHold)
}

func (c *CastWriter) armLocked(d time.Duration) {
	if c.armed {
		return
	}
	c.armed = true
	if c.timer == nil {
		c.timer = time.AfterFunc(d, c.tick)
	} else {
		c.timer.Reset(d)
	}
}

// tick writes the screen when the hold ends, unless the program is in
// the middle of a synchronized update (then it waits up to castSyncHold).
func (c *CastWriter) tick() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.armed = false
	if c.closed || !c.dirty {
		return
	}
	if c.scr.Synchronized() && time.Since(c.since) < castSyncHold {
		c.armLocked(castHold / 4)
		return
	}
	c.flushLocked()
}

// Flush writes the screen if output changed it since the last event.
func (c *CastWriter) Flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flushLocked()
}

// Resize records a terminal size change ("r" event, "COLSxROWS"); the
// next "o" event clears the screen and draws it whole at the new size.
func (c *CastWriter) Resize(cols, rows int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flushLocked()
	c.eventLocked("r", strconv.Itoa(cols)+"x"+strconv.Itoa(rows))
	if c.closed {
		return
	}
	// The program redraws after a resize; that frame is drawn whole.
	c.scr.Resize(cols, rows)
	c.prev = nil
}

// Marker records a marker ("m" event) with a label.
func (c *CastWriter) Marker(label string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flushLocked()
	c.eventLocked("m", redact.String(label))
}

// flushLocked writes the rows that changed since the last frame, as one
// "o" event timed at the output that changed them.
func (c *CastWriter) flushLocked() {
	if !c.dirty || c.closed {
		return
	}
	c.dirty = false
	c.cur = c.scr.Snapshot(c.cur)
	c.buf = c.buf[:0]
	if alt := c.scr.Alt(); alt != c.alt {
		c.alt = alt
		c.buf = append(c.buf, altScreenMode(alt)...)
		c.prev = nil // the other screen is drawn whole
	}
	c.buf = screen.AppendDiff(c.buf, c.prev, c.cur)
	c.prev, c.cur = c.cur, c.prev
	if len(c.buf) > 0 {
		c.eventAtLocked(c.outAt, "o", string(c.buf))
	}
}

// altScreenMode is the sequence that enters (on) or leaves the alternate
// screen, as Bubble Tea writes it.
func altScreenMode(on bool) string {
	if on {
		return "\x1b[?1049h"
	}
	return "\x1b[?1049l"
}

// leaveAltScreen is the index in p of a sequence that leaves the
// alternate screen (modes 1049, 1047 or 47), or -1. A sequence split
// across two writes is not found: the frame before it is then the last
// one the hold wrote.
func leaveAltScreen(p []byte) int {
	i := -1
	for _, seq := range []string{"\x1b[?1049l", "\x1b[?1047l", "\x1b[?47l"} {
		if j := bytes.Index(p, []byte(seq)); j >= 0 && (i < 0 || j < i) {
			i = j
		}
	}
	return i
}

func (c *CastWriter) eventLocked(code, data string) {
	c.eventAtLocked(time.Since(c.start).Seconds(), code, data)
}

func (c *CastWriter) eventAtLocked(t float64, code, data string) {
	if c.closed {
		return
	}
	c.enc.event(t, code, data)
}

// Close writes the screen if it changed, stops the hold timer and the
// emulator; it returns the first write error. Later calls record nothing.
func (c *CastWriter) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return c.enc.err
	}
	c.flushLocked()
	if c.timer != nil {
		c.timer.Stop()
	}
	c.closed = true
	_ = c.scr.Close()
	return c.enc.err
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
