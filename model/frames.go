package model

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// The frames of a running turn: a ~30 Hz tick redraws the elapsed time
// and flushes throttled streaming renders, and on each the turn machine
// checks the turn's timeout (model/turn).

// startTick keeps the frame tick alive while a turn runs (act.StartFrames).
func (m *Model) startTick() tea.Cmd {
	if m.frame.ticking {
		return nil
	}
	m.frame.ticking = true
	m.frame.tickSeq++
	seq := m.frame.tickSeq
	return tea.Tick(m.frameEvery(), func(time.Time) tea.Msg { return tickMsg{seq: seq} })
}

// frameEvery is the frame interval of a running turn (FrameRateMsg).
func (m *Model) frameEvery() time.Duration {
	if m.frame.every > 0 {
		return m.frame.every
	}
	return DefaultFrame
}

// slowFrames says the frames come less often than the spinner's own
// steps: the spinner then steps on each frame tick instead of its own.
func (m *Model) slowFrames() bool { return m.frameEvery() >= m.stat.SpinFPS() }

// onFrameRate applies a FrameRateMsg; a turn running at the old rate
// goes on at the new one from its next tick, and gets the spinner's own
// ticks back when the frames are fast again.
func (m *Model) onFrameRate(msg FrameRateMsg) tea.Cmd {
	if msg.Seq < m.frame.seq {
		return nil
	}
	wasSlow := m.slowFrames()
	m.frame.seq, m.frame.every = msg.Seq, msg.Every
	if wasSlow && !m.slowFrames() && m.turn.Running() {
		return m.stat.SpinTick
	}
	return nil
}

func (m *Model) onTick(msg tickMsg) tea.Cmd {
	m.turn.CheckTimeout() // model/turn: the turn-timeout offer
	if msg.seq != m.frame.tickSeq {
		return nil
	}
	m.frame.ticking = false
	if m.turn.Running() {
		if m.slowFrames() {
			m.stat.Step()
		}
		return m.startTick()
	}
	return nil
}
