// Package picture draws a terminal session as a picture: an animated SVG
// (text kept as text, selectable and searchable) or an animated GIF,
// from timed screen frames (tandem/internal/lib/screen), so what it draws
// is exactly what the emulator shows, secrets already masked.
//
// A Clip takes the frames of a session in order, with its turn markers,
// and applies the viewer's timing (a window of seconds or turns, idle
// gaps clamped, a speed, frames closer than a frame interval merged,
// identical frames dropped) before it hands them to an Encoder (NewSVG,
// NewGIF), which writes the picture on Close.
//
// It imports tandem/internal/lib/screen and nothing else from tandem.
package picture

import (
	"time"

	"tandem/internal/lib/screen"
)

// Encoder turns frames into a picture. Add is called with frames in time
// order (at never decreases; f is reused by the caller once Add returns);
// Close writes the picture, the last frame held until end.
type Encoder interface {
	Add(at time.Duration, f *screen.Frame) error
	Close(end time.Duration) error
	// Frames is how many frames the picture holds (a GIF drops a frame
	// whose cells inside its size did not change).
	Frames() int
}

// Options are what every encoder draws with.
type Options struct {
	// Cols and Rows are the picture's size in cells; frames of another
	// size are cut or padded at the right and bottom.
	Cols, Rows int
	// Theme gives the colours (Dark when nil).
	Theme *Theme
	// Title is shown in the window frame's bar ("" for none).
	Title string
	// Loop plays the animation forever; otherwise it stops on the last
	// frame.
	Loop bool
}

func (o Options) theme() *Theme {
	if o.Theme == nil {
		return Dark
	}
	return o.Theme
}
