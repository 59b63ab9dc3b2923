package sessions

import (
	"io"
	"time"

	"tandem/internal/lib/redact"
	"tandem/internal/lib/screen"
)

// FrameCast writes screens handed to it with their times as an
// asciicast (`tandem export --format cast`): each frame an "o" event
// redrawing the rows that changed since the one before (the first, and
// one of another size, drawn whole), and markers as "m" events. It has
// the methods of a picture encoder (internal/picture's MarkerEncoder).
// The frames are already masked (internal/frames); labels are redacted.
type FrameCast struct {
	enc       *castEncoder
	prev, cur *screen.Frame
	havePrev  bool
	buf       []byte
	frames    int
}

// NewFrameCast writes h's header (h.Version CastV3 or CastV2) to w.
func NewFrameCast(w io.Writer, h CastHeader) (*FrameCast, error) {
	enc, err := newCastEncoder(w, h)
	if err != nil {
		return nil, err
	}
	return &FrameCast{enc: enc, prev: &screen.Frame{}, cur: &screen.Frame{}}, nil
}

// Add writes f, shown from at (since the cast's start).
func (c *FrameCast) Add(at time.Duration, f *screen.Frame) error {
	cells := c.cur.Cells
	*c.cur = *f
	c.cur.Cells = append(cells[:0], f.Cells...)
	var prev *screen.Frame
	if c.havePrev {
		prev = c.prev
	}
	c.buf = screen.AppendDiff(c.buf[:0], prev, c.cur)
	c.prev, c.cur = c.cur, c.prev
	c.havePrev = true
	if len(c.buf) > 0 {
		c.enc.event(at.Seconds(), "o", string(c.buf))
		c.frames++
	}
	return c.enc.err
}

// Marker writes a marker ("m" event) labelled label at at.
func (c *FrameCast) Marker(at time.Duration, label string) {
	c.enc.event(at.Seconds(), "m", redact.String(label))
}

// Close ends the cast; end is when its last frame stops showing, which
// a cast does not record (a player stays on it). It returns the first
// write error.
func (c *FrameCast) Close(end time.Duration) error { return c.enc.err }

// Frames is how many "o" events were written.
func (c *FrameCast) Frames() int { return c.frames }
