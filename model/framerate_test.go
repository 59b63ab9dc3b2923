package model

import (
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
)

// FrameRateMsg slows a viewer's frames; once they come less often than
// the spinner's own steps, the spinner steps on the frames and its own
// ticks stop; a message older than the last applied is dropped, and fast
// frames give the running spinner its ticks back.
func TestFrameRateMsg(t *testing.T) {
	f := newFake()
	m := ready(t, f, Options{})
	startTurn(m)
	if m.frameEvery() != DefaultFrame || m.slowFrames() {
		t.Fatalf("default frame %v (slow %v)", m.frameEvery(), m.slowFrames())
	}
	m.Update(FrameRateMsg{Every: 300 * time.Millisecond, Seq: 2})
	if m.frameEvery() != 300*time.Millisecond || !m.slowFrames() {
		t.Fatalf("frame %v after FrameRateMsg", m.frameEvery())
	}
	if _, cmd := m.Update(spinner.TickMsg{ID: m.stat.SpinID()}); cmd != nil {
		t.Fatal("the spinner's own tick went on with slow frames")
	}
	before := m.stat.Spinner()
	m.frame.ticking = true
	m.Update(tickMsg{seq: m.frame.tickSeq})
	if m.stat.Spinner() == before {
		t.Fatal("a slow frame tick did not step the spinner")
	}
	m.Update(FrameRateMsg{Every: 0, Seq: 1})
	if m.frameEvery() != 300*time.Millisecond {
		t.Fatal("an older FrameRateMsg was applied")
	}
	if _, cmd := m.Update(FrameRateMsg{Every: 0, Seq: 3}); cmd == nil || m.slowFrames() {
		t.Fatal("fast frames again did not restart the spinner's ticks")
	}
}
