package picture

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"tandem/internal/lib/screen"
)

// Bound is one end of the part of a session a picture shows: a time
// since the session began, or a turn (its start, for --from; the start
// of the turn after it, for --to). The zero Bound is no bound.
type Bound struct {
	At   time.Duration
	Turn int // 1-based; 0: At applies
	set  bool
}

// IsSet reports whether b bounds anything.
func (b Bound) IsSet() bool { return b.set }

// ParseBound reads --from/--to: seconds ("12", "1.5"), a Go duration
// ("1m30s", "800ms") or a turn ("turn:2"). A negative, NaN or infinite
// time and a turn below 1 are errors.
func ParseBound(s string) (Bound, error) {
	s = strings.TrimSpace(s)
	if n, ok := strings.CutPrefix(s, "turn:"); ok {
		t, err := strconv.Atoi(n)
		if err != nil || t < 1 {
			return Bound{}, fmt.Errorf("%q: a turn is turn:N with N ≥ 1", s)
		}
		return Bound{Turn: t, set: true}, nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 || f > 1e9 {
			return Bound{}, fmt.Errorf("%q: seconds must be a number from 0", s)
		}
		return Bound{At: time.Duration(f * float64(time.Second)), set: true}, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return Bound{}, fmt.Errorf("%q: want seconds (12.5), a duration (1m30s) or a turn (turn:2)", s)
	}
	return Bound{At: d, set: true}, nil
}

// Timing is how a Clip maps a session's time to the picture's.
type Timing struct {
	// Speed is the playback rate (2 = twice as fast); 0 means 1.
	Speed float64
	// IdleLimit caps every pause between two frames, in the session's
	// time (before Speed); 0 means no cap.
	IdleLimit time.Duration
	// From and To cut the session (see Bound).
	From, To Bound
	// MinFrame is the shortest time a frame is shown, in the picture's
	// time: a frame replaced sooner is dropped for the one after it
	// (which is shown from the dropped one's time). 0 means 50 ms.
	MinFrame time.Duration
	// Hold is how long the last frame stays before the picture ends (or
	// loops), from the time it was drawn; 0 means 3 s.
	Hold time.Duration
}

// Clip applies a Timing to a session's frames and hands the result to
// an Encoder. It has the methods of a frame source's sink: Frame and
// Marker, called in time order. Close ends the picture.
//
// Its clock is the session's with every pause capped at IdleLimit: From
// and To are read on it, and the picture's time is it, from From on,
// divided by Speed.
type Clip struct {
	enc    Encoder
	t      Timing
	starts int // turns started so far
	on     bool
	done   bool
	// raw is the session time last seen; src the capped clock then.
	raw, src time.Duration
	begun    time.Duration // src when the picture began
	end      time.Duration // the picture's time of the last frame handed on
	seen     bool
	// last is the newest frame seen.
	last screen.Frame
	have bool
	// pend is the frame waiting to be handed on (it may still be
	// replaced within MinFrame), shown from pendAt.
	pend   screen.Frame
	pendOK bool
	pendAt time.Duration
	sent   screen.Frame // the last frame handed on
	sentOK bool
	frames int
	err    error
}

// NewClip returns a Clip feeding enc.
func NewClip(enc Encoder, t Timing) *Clip {
	if t.Speed <= 0 {
		t.Speed = 1
	}
	if t.MinFrame <= 0 {
		t.MinFrame = 50 * time.Millisecond
	}
	if t.Hold <= 0 {
		t.Hold = 3 * time.Second
	}
	c := &Clip{enc: enc, t: t}
	c.on = !t.From.IsSet() || (t.From.Turn == 0 && t.From.At == 0)
	return c
}

// Frames returns how many frames went to the encoder so far.
func (c *Clip) Frames() int { return c.frames }

// clock moves the capped clock to session time at.
func (c *Clip) clock(at time.Duration) {
	if !c.seen {
		c.seen, c.raw, c.src = true, at, at
		return
	}
	gap := max(at-c.raw, 0)
	if c.t.IdleLimit > 0 {
		gap = min(gap, c.t.IdleLimit)
	}
	c.raw, c.src = at, c.src+gap
}

// out is the picture's time now.
func (c *Clip) out() time.Duration {
	return time.Duration(float64(c.src-c.begun) / c.t.Speed)
}

// IsTurnMarker reports whether a marker's label is a turn's start: a
// chapter "turn N" or "turn N: prompt" (sessions.Chapters), or the
// "turn started" of casts recorded before chapters.
func IsTurnMarker(label string) bool {
	if label == "turn started" {
		return true
	}
	n, ok := strings.CutPrefix(label, "turn ")
	if !ok {
		return false
	}
	n, _, _ = strings.Cut(n, ":")
	t, err := strconv.Atoi(n)
	return err == nil && t >= 1
}

// Marker notes a marker: a turn's start (IsTurnMarker) counts a turn;
// other markers are handed to the encoder when it takes them
// (MarkerEncoder) and the picture is running.
func (c *Clip) Marker(at time.Duration, label string) {
	if c.done {
		return
	}
	c.clock(at)
	if !IsTurnMarker(label) {
		c.mark(label)
		return
	}
	c.starts++
	if t := c.t.To; t.Turn > 0 && c.starts > t.Turn {
		c.done = true
		return
	}
	if f := c.t.From; !c.on && f.Turn > 0 && c.starts == f.Turn {
		c.begin()
	}
	c.mark(label)
}

// MarkerEncoder is an Encoder that keeps markers (a cast's chapters):
// Marker gets each at the picture's time, in order with the frames.
type MarkerEncoder interface {
	Encoder
	Marker(at time.Duration, label string)
}

// mark hands a marker to the encoder at the picture's time, after the
// frame before it.
func (c *Clip) mark(label string) {
	me, ok := c.enc.(MarkerEncoder)
	if !ok || !c.on || c.done {
		return
	}
	c.flush()
	if c.err == nil {
		me.Marker(c.out(), label)
	}
}

// Frame takes the screen at session time at.
func (c *Clip) Frame(at time.Duration, f *screen.Frame) {
	if c.done {
		return
	}
	c.clock(at)
	if t := c.t.To; t.Turn == 0 && t.IsSet() && c.src > t.At {
		c.done = true
		return
	}
	if !c.on && c.t.From.Turn == 0 && c.src >= c.t.From.At {
		c.begin()
	}
	if c.on {
		c.offer(f)
	}
	copyFrame(&c.last, f)
	c.have = true
}

// begin starts the picture now, with the screen as it was.
func (c *Clip) begin() {
	c.on, c.begun = true, c.src
	if c.have {
		c.offer(&c.last)
	}
}

// offer queues f at the picture's current time, dropping a pending frame
// it replaces within MinFrame, and a frame equal to the one shown.
func (c *Clip) offer(f *screen.Frame) {
	now := c.out()
	if c.pendOK && now-c.pendAt < c.t.MinFrame {
		copyFrame(&c.pend, f) // replaces it, shown from its time
		return
	}
	c.flush()
	copyFrame(&c.pend, f)
	c.pendOK, c.pendAt = true, now
}

// flush hands the pending frame on unless it equals the last one sent.
func (c *Clip) flush() {
	if !c.pendOK {
		return
	}
	c.pendOK = false
	if c.sentOK && sameFrame(&c.sent, &c.pend) {
		return
	}
	if c.err == nil {
		c.err = c.enc.Add(c.pendAt, &c.pend)
	}
	c.end = c.pendAt
	copyFrame(&c.sent, &c.pend)
	c.sentOK = true
	c.frames++
}

// ErrEmpty is Close's error when no frame was in the clip's window.
var ErrEmpty = errors.New("nothing to draw: no frame falls between --from and --to")

// Close hands on the last frame and has the encoder write the picture,
// ending Hold after the last frame.
func (c *Clip) Close() error {
	c.flush()
	if c.err != nil {
		return c.err
	}
	if c.frames == 0 {
		return ErrEmpty
	}
	return c.enc.Close(c.end + c.t.Hold)
}

func copyFrame(dst, src *screen.Frame) {
	cells := dst.Cells
	*dst = *src
	dst.Cells = append(cells[:0], src.Cells...)
}

func sameFrame(a, b *screen.Frame) bool {
	if a.Cols != b.Cols || a.Rows != b.Rows || len(a.Cells) != len(b.Cells) {
		return false
	}
	for i := range a.Cells {
		x, y := a.Cells[i], b.Cells[i]
		if x.Content != y.Content || x.Width != y.Width || !x.Style.Equal(&y.Style) {
			return false
		}
	}
	return true
}
