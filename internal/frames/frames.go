// Package frames plays a session into a terminal emulator, headless and
// in virtual time, and hands out the screen after every change: a
// recording (--record's JSONL) is played through tandem's own model, so
// the screen is what tandem draws, at any size; an asciicast is fed to
// the emulator as recorded. The frames have their secrets masked
// (tandem/internal/lib/screen). tandem export --format svg|gif draws them
// with tandem/internal/picture.
package frames

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/lib/screen"
	"tandem/model"
	"tandem/model/act"
	"tandem/sessions"
	"tandem/ui"
)

// Sink receives a session's frames and turn markers in time order (at
// never decreases). f is reused once Frame returns.
type Sink interface {
	Frame(at time.Duration, f *screen.Frame)
	// Marker is a chapter: a turn's start ("turn 2: fix the test"), an
	// approval or a question (sessions.Chapters), or a cast's own marker.
	Marker(at time.Duration, label string)
}

// Options are how a recording is drawn.
type Options struct {
	// Cols and Rows are the screen's size in cells (each at least 1).
	Cols, Rows int
	// Dark selects tandem's dark styles.
	Dark bool
	// IdleLimit caps every pause between two recorded events (0: no
	// cap), as `tandem replay --idle-limit` does: the elapsed time tandem
	// shows follows the capped clock. A cast's pauses are capped by the
	// picture instead (picture.Timing), between frames.
	IdleLimit time.Duration
	// Progress, when set, is called after each event with how many of
	// the total were played.
	Progress func(done, total int)
}

// frameTick is the frame tick of a live turn: streamed text shows at
// most this long after it came.
const frameTick = 33 * time.Millisecond

// Ready is the model's ready message for a replay's ThreadReady.
func Ready(x sessions.ThreadReady) model.SessionReadyMsg {
	return model.SessionReadyMsg{
		ThreadID: x.ThreadID, Model: x.Model, Cwd: ui.ShortHome(x.Cwd), ThreadCwd: x.Cwd,
		Approval: x.Approval, Sandbox: x.Sandbox, Peer: "replay", History: x.History,
	}
}

// Switch is the model's message for a replay's ThreadSwitch (a /new,
// /resume, /fork or rewind the recorded client made).
func Switch(x sessions.ThreadSwitch) model.ThreadOpenedMsg {
	return model.ThreadOpenedMsg{Response: x.Response, How: x.How, BeforeTurn: x.BeforeTurn}
}

// Status is the status line a replay starts with.
func Status(rec *sessions.Recording) ui.StatusInfo {
	return ui.StatusInfo{Cwd: rec.Header.Cwd, Peer: "replay", NoInterrupt: true, Notice: "replay: waiting for the recorded session to start"}
}

// Title is a recording's title for a picture: the thread's name, else
// "tandem · " and its workspace.
func Title(rec *sessions.Recording) string {
	for _, t := range sessions.Timeline(rec, 0) {
		if r, ok := t.Value.(sessions.ThreadReady); ok && r.Name != "" {
			return r.Name
		}
	}
	if rec.Header.Cwd != "" {
		return "tandem · " + rec.Header.Cwd
	}
	return "tandem"
}

// Recording plays rec through tandem's model at o.Cols×o.Rows and sends
// sink the screen after every event but a streamed delta, on the frame
// tick that draws streamed text (33 ms after it came) and on every
// whole second of a pause, timed as recorded with pauses capped at
// o.IdleLimit. The model's clock is the virtual one and none of its
// commands run, so the same recording always gives the same frames.
func Recording(rec *sessions.Recording, o Options, sink Sink) error {
	if o.Cols < 1 || o.Rows < 1 {
		return fmt.Errorf("frames: size %d×%d", o.Cols, o.Rows)
	}
	epoch := rec.Header.Start
	if epoch.IsZero() {
		epoch = time.Unix(0, 0).UTC()
	}
	var now time.Time = epoch
	clock := func() time.Time { return now }
	status := Status(rec)
	status.Notice = "" // a picture has no "waiting to start"
	m := model.New(model.Options{Dark: o.Dark, Status: status, Shared: true, Now: clock, Clock: act.FuncClock(clock)})
	defer m.Close()
	scr := screen.New(o.Cols, o.Rows)
	defer scr.Close()
	// The commands the model returns are not run: in a replay they are
	// timers (the frame tick, the spinner, a form's grace period), and
	// FrameMsg stands in for them in virtual time; running them would
	// make the frames depend on how fast this machine is.
	apply := func(msg tea.Msg) { m.Update(msg) }
	var f *screen.Frame
	var buf strings.Builder
	var shown string // the view last drawn on the emulator
	snap := func(at time.Duration) {
		if v := m.View().Content; f == nil || v != shown {
			shown = v
			buf.Reset()
			buf.WriteString("\x1b[?25l\x1b[H\x1b[2J\x1b[0m")
			buf.WriteString(strings.ReplaceAll(v, "\n", "\r\n"))
			_, _ = scr.Write([]byte(buf.String()))
			f = scr.Snapshot(f)
		}
		sink.Frame(at, f)
	}
	tick := func(at time.Duration) {
		now = epoch.Add(at)
		apply(model.FrameMsg{})
		snap(at)
	}
	apply(tea.WindowSizeMsg{Width: o.Cols, Height: o.Rows})
	snap(0)
	tl := sessions.Timeline(rec, o.IdleLimit)
	chapters := sessions.TimelineChapters(tl)
	streamed := false // a delta waits for the frame tick at tickAt
	var tickAt, last time.Duration
	for i, t := range tl {
		// The frame tick that would have drawn the text streamed before.
		if streamed && t.At >= tickAt {
			tick(tickAt)
			streamed, last = false, tickAt
		}
		// A tick on every whole second of a pause, for the elapsed time
		// of a turn (identical frames merge).
		for s := last.Truncate(time.Second) + time.Second; s < t.At; s += time.Second {
			tick(s)
		}
		last = t.At
		now = epoch.Add(t.At)
		var msg tea.Msg = t.Value
		switch v := t.Value.(type) {
		case sessions.ThreadReady:
			msg = Ready(v)
		case sessions.ThreadSwitch:
			msg = Switch(v)
		}
		if label, ok := chapters[i]; ok {
			sink.Marker(t.At, label)
		}
		apply(msg)
		switch t.Value.(type) {
		case backend.AgentMessageDeltaEvent, backend.CommandOutputDeltaEvent:
			// Drawn at the next frame tick, not now (the model keeps
			// its frame for a delta).
			if !streamed {
				streamed, tickAt = true, t.At+frameTick
			}
		default:
			snap(t.At)
		}
		if o.Progress != nil {
			o.Progress(i+1, len(tl))
		}
	}
	if streamed {
		tick(tickAt)
	}
	return nil
}

// Cast feeds an asciicast's output to an emulator of the cast's own size
// (80×24 when the header has none; resized as its "r" events say: the
// output was drawn for that size) and sends sink the screen after every
// output event, and its markers as they come. A frame the program was
// still drawing (synchronized output) waits for the next event, and
// once a full-screen program left the alternate screen (it quit, or was
// suspended until it enters it again) no frame follows: the picture ends
// on its last full-screen frame, not on the main screen it left behind.
// A program that drew on the main screen first (tandem --no-alt-screen,
// whose pager takes the alternate screen for a while) is drawn
// throughout. Only o.Progress is used.
func Cast(c *sessions.Cast, o Options, sink Sink) error {
	cols, rows := c.Header.Width, c.Header.Height
	if cols < 1 || rows < 1 {
		cols, rows = 80, 24
	}
	scr := screen.New(cols, rows)
	defer scr.Close()
	var f *screen.Frame
	inline := false // the program drew on the main screen before the alternate one
	for i, ev := range c.Events {
		switch ev.Code {
		case "o":
			_, _ = scr.Write([]byte(ev.Data))
			// A full-screen program that quit leaves the main screen (often
			// blank): the session ended on its last full-screen frame.
			if !scr.Synchronized() && (inline || !scr.LeftAltScreen()) {
				f = scr.Snapshot(f)
				inline = inline || (!scr.Alt() && !scr.LeftAltScreen() && drawn(f))
				sink.Frame(ev.At, f)
			}
		case "r":
			if cols, rows, ok := sessions.ParseSize(ev.Data); ok {
				scr.Resize(cols, rows)
			}
		case "m":
			sink.Marker(ev.At, ev.Data)
		}
		if o.Progress != nil {
			o.Progress(i+1, len(c.Events))
		}
	}
	if scr.Synchronized() && (inline || !scr.LeftAltScreen()) && len(c.Events) > 0 {
		f = scr.Snapshot(f)
		sink.Frame(c.Events[len(c.Events)-1].At, f)
	}
	return nil
}

// drawn reports whether f shows any text.
func drawn(f *screen.Frame) bool {
	for y := 0; y < f.Rows; y++ {
		if f.Text(y) != "" {
			return true
		}
	}
	return false
}
