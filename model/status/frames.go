package status

import (
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
)

// The frames of a running turn and the quit window: when the screen of a
// running turn is drawn again (the frame ticks), how the spinner steps
// (its own ticks, or on the frames when they come slower), and the
// window in which a second Ctrl+C quits.

// DefaultFrame is how often a running turn's frame is drawn: the text
// streamed since the last one, the spinner's next step (30 a second).
const DefaultFrame = 33 * time.Millisecond

// QuitWindow is how soon a second Ctrl+C must follow the first to quit.
const QuitWindow = 3 * time.Second

// Msg is a message of the status's own timers (a frame tick, the end of
// the quit window): the root hands it to Update.
type Msg interface{ statusMsg() }

// Tick is a running turn's frame tick (StartFrames).
type Tick struct{ seq int }

func (Tick) statusMsg() {}

// quitEnds ends the quit window armed at at.
type quitEnds struct{ at time.Time }

func (quitEnds) statusMsg() {}

// UndrawnFrame is how often a running turn's frame ticks come while the
// model is not drawn (a lane of the command center not on screen): the
// turn's timeout is still checked, and a model drawn again is back to
// FrameEvery at the first message after its View, or this tick at the
// latest.
const UndrawnFrame = time.Second

// frames is the frame interval SetFrameRate set (0: DefaultFrame), and
// the frame tick of a running turn. undrawn: the last tick found no View
// since the one before, so the ticks come every UndrawnFrame and the
// spinner's own ticks stopped (spinOff) until the model is drawn again
// (Wake).
type frames struct {
	every   time.Duration
	seq     int
	ticking bool
	tickSeq int
	undrawn bool
	spinOff bool
}

// StartFrames starts the frame ticks of a running turn (nil when they
// run already).
func (s *Status) StartFrames() tea.Cmd {
	if s.frame.ticking {
		return nil
	}
	s.frame.ticking = true
	s.frame.tickSeq++
	t := Tick{seq: s.frame.tickSeq}
	every := s.FrameEvery()
	if s.frame.undrawn {
		every = max(every, UndrawnFrame)
	}
	return s.env.Clock.After(every, func(time.Time) tea.Msg { return t })
}

// Undrawn reports whether the frame ticks went slow for a model not
// drawn (UndrawnFrame).
func (s *Status) Undrawn() bool { return s.frame.undrawn }

// Wake puts the frames of a running turn (running) back to FrameEvery,
// and the spinner's own ticks back, once the model was drawn again after
// they went slow (Undrawn): the command starts them. Nil when they were
// not slow.
func (s *Status) Wake(running bool) tea.Cmd {
	if !s.frame.undrawn {
		return nil
	}
	s.frame.undrawn = false
	if !running {
		s.frame.spinOff = false
		return nil
	}
	s.frame.ticking = false // the slow tick coming is stale now (StartFrames counts on)
	cmd := s.StartFrames()
	if s.frame.spinOff {
		s.frame.spinOff = false
		if !s.slowFrames() {
			cmd = tea.Batch(cmd, s.SpinTick())
		}
	}
	return cmd
}

// Ticking reports whether the frame ticks run (a running turn's): a
// change is then drawn on the next one.
func (s *Status) Ticking() bool { return s.frame.ticking }

// NextTick is the tick the running frame timer will deliver: a
// benchmark, or a driver that paces the frames itself, delivers it at
// once.
func (s *Status) NextTick() Tick { return Tick{seq: s.frame.tickSeq} }

// FrameEvery is how often a running turn's frame is drawn.
func (s *Status) FrameEvery() time.Duration {
	if s.frame.every > 0 {
		return s.frame.every
	}
	return DefaultFrame
}

// slowFrames reports whether the frames come no faster than the
// spinner's own steps: it then steps on the frames.
func (s *Status) slowFrames() bool { return s.FrameEvery() >= s.SpinFPS() }

// SetFrameRate makes every the frame interval (0: DefaultFrame), unless
// seq is older than the last rate set (the pairing server's watchers,
// #17). Frames fast again give a running turn's spinner (running) its
// own ticks back: the command starts them.
func (s *Status) SetFrameRate(every time.Duration, seq int, running bool) tea.Cmd {
	if seq < s.frame.seq {
		return nil
	}
	wasSlow := s.slowFrames()
	s.frame.seq, s.frame.every = seq, every
	if wasSlow && !s.slowFrames() && running {
		return s.SpinTick()
	}
	return nil
}

// OnSpin takes the spinner's own tick; running says a turn runs (the
// spinner goes on only then, and not by its own ticks while the frames
// are slow: it steps on them).
func (s *Status) OnSpin(msg spinner.TickMsg, running bool) tea.Cmd {
	if s.slowFrames() {
		return nil
	}
	if s.frame.undrawn {
		s.frame.spinOff = true // nobody sees it turn: Wake starts it again
		return nil
	}
	var cmd tea.Cmd
	s.spin, cmd = s.spin.Update(msg)
	if running {
		return cmd
	}
	return nil
}

// ArmQuit opens the quit window at now: a Ctrl+C before it closes quits
// (Quitting). The command closes it after QuitWindow, clearing the quit
// notice unless another window opened since.
func (s *Status) ArmQuit(now time.Time) tea.Cmd {
	s.quitAt = now
	return s.env.Clock.After(QuitWindow, func(time.Time) tea.Msg { return quitEnds{at: now} })
}

// DisarmQuit closes the quit window (a Ctrl+C that discarded the draft,
// a key typed).
func (s *Status) DisarmQuit() { s.quitAt = time.Time{} }

// Quitting reports whether a Ctrl+C at now falls in the quit window.
func (s *Status) Quitting(now time.Time) bool {
	return !s.quitAt.IsZero() && now.Sub(s.quitAt) < QuitWindow
}

// Update takes a message of the status's own timers: a frame tick (the
// next one while running, the spinner stepping on slow frames), or the
// end of a quit window. drawn says the model was drawn (View) since the
// last frame tick: when not, the next ticks come every UndrawnFrame
// (Wake brings them back).
func (s *Status) Update(msg Msg, running, drawn bool) tea.Cmd {
	switch msg := msg.(type) {
	case Tick:
		if msg.seq != s.frame.tickSeq {
			return nil
		}
		s.frame.ticking = false
		if running {
			s.frame.undrawn = !drawn
			if s.slowFrames() && drawn {
				s.Step()
			}
			return s.StartFrames()
		}
	case quitEnds:
		if s.quitAt.Equal(msg.at) {
			s.quitAt = time.Time{}
			s.Apply(act.ClearNotice{Kinds: []act.NoticeKind{act.NoticeQuit}})
		}
	}
	return nil
}
