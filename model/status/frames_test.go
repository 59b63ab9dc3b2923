package status

import (
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"

	"tandem/model/act"
	"tandem/ui"
)

func newStatus() *Status {
	return New(act.Env{Out: &act.Out{}, Clock: act.RealClock{}}, Options{Info: ui.StatusInfo{}})
}

// A frame rate slows a viewer's frames; once they come less often than
// the spinner's own steps, the spinner steps on the frames and its own
// ticks stop; a rate older than the last applied is dropped, and fast
// frames give the running spinner its ticks back.
func TestFrameRate(t *testing.T) {
	s := newStatus()
	if s.FrameEvery() != DefaultFrame || s.slowFrames() {
		t.Fatalf("default frame %v (slow %v)", s.FrameEvery(), s.slowFrames())
	}
	if s.StartFrames() == nil || !s.Ticking() || s.StartFrames() != nil {
		t.Fatal("frames started twice, or not at all")
	}
	s.SetFrameRate(300*time.Millisecond, 2, true)
	if s.FrameEvery() != 300*time.Millisecond || !s.slowFrames() {
		t.Fatalf("frame %v after a slower rate", s.FrameEvery())
	}
	if cmd := s.OnSpin(spinner.TickMsg{ID: s.SpinID()}, true); cmd != nil {
		t.Fatal("the spinner's own tick went on with slow frames")
	}
	before := s.Spinner()
	if cmd := s.Update(s.NextTick(), true, true); cmd == nil {
		t.Fatal("a running turn's frame tick did not ask for the next")
	}
	if s.Spinner() == before {
		t.Fatal("a slow frame tick did not step the spinner")
	}
	if cmd := s.Update(Tick{seq: s.NextTick().seq - 1}, true, true); cmd != nil {
		t.Fatal("a stale tick started another")
	}
	s.SetFrameRate(0, 1, true)
	if s.FrameEvery() != 300*time.Millisecond {
		t.Fatal("an older rate was applied")
	}
	if cmd := s.SetFrameRate(0, 3, true); cmd == nil || s.slowFrames() {
		t.Fatal("fast frames again did not restart the spinner's ticks")
	}
	if cmd := s.Update(s.NextTick(), false, true); cmd != nil || s.Ticking() {
		t.Fatal("frames went on after the turn ended")
	}
}

// The quit window: open for QuitWindow after ArmQuit; its end clears the
// quit notice, but never a newer window's.
func TestQuitWindow(t *testing.T) {
	s := newStatus()
	at := time.Unix(1000, 0)
	if s.Quitting(at) {
		t.Fatal("quitting before any Ctrl+C")
	}
	if s.ArmQuit(at) == nil {
		t.Fatal("no end planned for the window")
	}
	s.Apply(act.SetNotice{Kind: act.NoticeQuit, Text: "press Ctrl+C again to quit"})
	if !s.Quitting(at.Add(QuitWindow-time.Millisecond)) || s.Quitting(at.Add(QuitWindow)) {
		t.Fatal("the window is not QuitWindow long")
	}
	s.Update(quitEnds{at: at}, false, true)
	if k, _ := s.Notice(); k == act.NoticeQuit || s.Quitting(at) {
		t.Fatal("the window's end left it open, or its notice up")
	}
	later := at.Add(time.Minute)
	s.ArmQuit(later)
	s.Apply(act.SetNotice{Kind: act.NoticeQuit, Text: "press Ctrl+C again to quit"})
	s.Update(quitEnds{at: at}, false, true) // the old window's end, late
	if k, _ := s.Notice(); k != act.NoticeQuit || !s.Quitting(later) {
		t.Fatal("a stale end closed the new window")
	}
	s.DisarmQuit()
	if s.Quitting(later) {
		t.Fatal("DisarmQuit left the window open")
	}
}

// Another thread that starts waiting (or running) inside the quit window
// closes it, its notice too: the next Ctrl+C warns again, naming it,
// instead of quitting past a request the warning did not name.
func TestQuitWindowClosesWhenMoreWait(t *testing.T) {
	tests := []struct {
		name                  string
		waiting, running      int
		thenWaiting, thenRuns int
		open                  bool
	}{
		{"one more waits", 0, 1, 1, 1, false},
		{"a runner now waits", 0, 1, 1, 0, false},
		{"one more runs", 0, 1, 0, 2, false},
		{"the same", 1, 1, 1, 1, true},
		{"fewer", 1, 1, 0, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStatus()
			at := time.Unix(1000, 0)
			s.OnDeck(tt.waiting, tt.running, "f4")
			s.ArmQuit(at)
			s.Apply(act.SetNotice{Kind: act.NoticeQuit, Text: s.QuitNote("ctrl+c", "press Ctrl+C again to quit")})
			s.OnDeck(tt.thenWaiting, tt.thenRuns, "f4")
			k, _ := s.Notice()
			if s.Quitting(at) != tt.open || (k == act.NoticeQuit) != tt.open {
				t.Fatalf("window open %v, notice %v; want open %v", s.Quitting(at), k, tt.open)
			}
		})
	}
}
