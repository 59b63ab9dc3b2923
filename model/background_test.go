package model

import (
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/bubbles/v2/cursor"
	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/status"
)

// timerClock records the timers asked of it (their durations); Now is
// fixed.
type timerClock struct {
	mu    sync.Mutex
	after []time.Duration
}

func (c *timerClock) Now() time.Time { return time.Unix(1_000_000, 0) }
func (c *timerClock) After(d time.Duration, f func(time.Time) tea.Msg) tea.Cmd {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.after = append(c.after, d)
	return func() tea.Msg { return f(time.Unix(1_000_000, 0)) }
}

// last is the duration of the newest timer asked for (0: none).
func (c *timerClock) last() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.after) == 0 {
		return 0
	}
	return c.after[len(c.after)-1]
}

// A model off screen (a lane of the command center told ShownMsg
// false) lets the timers that only serve drawing go quiet: its running
// turn's frame ticks come every UndrawnFrame (the turn's timeout is still
// checked), the spinner's and the cursor's blinks stop. Shown again, they
// come back at once; a model never told, as a lone chat's, never slows.
func TestUndrawnModelsTimersGoQuiet(t *testing.T) {
	cases := []struct {
		name      string
		drawn     bool
		wantFrame time.Duration
	}{
		{"on screen", true, status.DefaultFrame},
		{"off screen", false, status.UndrawnFrame},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clk := &timerClock{}
			m := New(Options{NoColor: true, Clock: clk})
			step := func(msg tea.Msg) tea.Cmd {
				_, cmd := m.Update(msg)
				m.View() // drawn or not, only ShownMsg tells
				return cmd
			}
			step(tea.WindowSizeMsg{Width: 80, Height: 24})
			if !c.drawn {
				step(ShownMsg{Shown: false})
			}
			step(SessionReadyMsg{Client: newFake(), ThreadID: "t-first"})
			step(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
			if got := clk.last(); got != status.DefaultFrame {
				t.Fatalf("the turn's first frame tick in %v, want %v", got, status.DefaultFrame)
			}
			for range 3 {
				step(m.stat.NextTick())
				if got := clk.last(); got != c.wantFrame {
					t.Fatalf("the next frame tick in %v, want %v", got, c.wantFrame)
				}
			}
			spin := m.stat.SpinTick()()
			if cmd := step(spin); (cmd != nil) != c.drawn {
				t.Errorf("the spinner's next tick asked for: %v, want %v", cmd != nil, c.drawn)
			}
			step(cursor.BlinkMsg{})
			if m.drawn.blinkOff == c.drawn {
				t.Errorf("blinks stopped: %v, want %v", m.drawn.blinkOff, !c.drawn)
			}
			if c.drawn {
				return
			}
			// Shown again: the frames, the spinner and the blink come
			// back.
			step(ShownMsg{Shown: true})
			if got := clk.last(); got != status.DefaultFrame || m.stat.Undrawn() || m.drawn.blinkOff {
				t.Errorf("shown again: frame tick in %v, undrawn %v, blinks off %v", got, m.stat.Undrawn(), m.drawn.blinkOff)
			}
			step(m.stat.NextTick()) // the old slow tick is stale; this one was drawn before
			if got := clk.last(); got != status.DefaultFrame {
				t.Errorf("the frame tick after waking in %v", got)
			}
		})
	}
}

// A model drawn again after messages it handled undrawn shows all of
// them at once: the bottom kept from its last View is not reused for a
// delta when another message came between (the command center's count
// here), nor the frame.
func TestDrawnAgainShowsWhatCameMeanwhile(t *testing.T) {
	m := New(Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	m.Update(SessionReadyMsg{Client: newFake(), ThreadID: "t-first"})
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	m.Update(backend.AgentMessageDeltaEvent{ItemID: "a1", Delta: "First words"})
	m.View()
	m.Update(DeckInfo{Waiting: 2, Key: "f4"})
	m.Update(m.stat.NextTick())
	m.Update(backend.AgentMessageDeltaEvent{ItemID: "a1", Delta: ", then more."})
	v := viewText(m)
	if !strings.Contains(v, "⚑ 2 other threads wait for you · f4") || !strings.Contains(v, "First words, then more.") {
		t.Fatalf("what came meanwhile is not shown:\n%s", v)
	}
	m.Update(DeckInfo{Waiting: 0, Key: "f4"})
	if v := viewText(m); strings.Contains(v, "⚑") {
		t.Fatalf("the count stays at 0:\n%s", v)
	}
}
