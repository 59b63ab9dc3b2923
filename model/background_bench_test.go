package model

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
)

// virtualClock is a clock in virtual time whose timers the benchmark
// delivers itself when they are due.
type virtualClock struct {
	now    time.Time
	timers []virtualTimer
}

type virtualTimer struct {
	due time.Time
	f   func(time.Time) tea.Msg
}

func (c *virtualClock) Now() time.Time { return c.now }
func (c *virtualClock) After(d time.Duration, f func(time.Time) tea.Msg) tea.Cmd {
	c.timers = append(c.timers, virtualTimer{c.now.Add(d), f})
	return nil // delivered by due
}

// due takes the timers due by now, oldest first.
func (c *virtualClock) due() []tea.Msg {
	sort.SliceStable(c.timers, func(i, j int) bool { return c.timers[i].due.Before(c.timers[j].due) })
	var out []tea.Msg
	for len(c.timers) > 0 && !c.timers[0].due.After(c.now) {
		out = append(out, c.timers[0].f(c.now))
		c.timers = c.timers[1:]
	}
	return out
}

// BenchmarkBackgroundDelta folds mockapi.BigMarkdown (100 KB in 8,500
// deltas, one a millisecond of virtual time) into a model whose View is
// never called — a lane of the command center not on screen — and
// delivers the timers it asks for when they are due: its frame ticks
// (model/status, on the clock) and the spinner's own ticks (every
// spinner.FPS while it asks for them). Reported per delta, with the
// timer messages it took per second of the stream.
func BenchmarkBackgroundDelta(b *testing.B) {
	text := mockapi.BigMarkdownText(mockapi.BigMarkdownBytes)
	deltas := mockapi.SplitBytes(text, 8500)
	evs := make([]backend.AgentMessageDeltaEvent, len(deltas))
	for i, d := range deltas {
		evs[i] = backend.AgentMessageDeltaEvent{ItemID: "msg-1", Delta: d}
	}
	b.ReportAllocs()
	n, timerMsgs := 0, 0
	for b.Loop() {
		b.StopTimer()
		clk := &virtualClock{now: time.Unix(1_000_000, 0)}
		m := New(Options{NoColor: true, Clock: clk})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		m.Update(SessionReadyMsg{Client: nopDriver{}, Model: "mock-model", ThreadID: "t-bg"})
		m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
		m.Update(backend.ItemStartedEvent{Item: backend.Item{Type: "agentMessage", ID: "msg-1"}})
		spin, spinDue := m.stat.SpinTick()().(spinner.TickMsg), clk.now // the chain StartFrames began
		spinOn := true
		b.StartTimer()
		for _, ev := range evs {
			clk.now = clk.now.Add(time.Millisecond)
			m.Update(ev)
			for _, msg := range clk.due() {
				m.Update(msg)
				timerMsgs++
			}
			if spinOn && !clk.now.Before(spinDue) {
				_, cmd := m.Update(spin)
				timerMsgs++
				spinOn = cmd != nil // the spinner asked for its next tick
				spin = spinner.TickMsg{ID: m.stat.SpinID(), Time: clk.now}
				spinDue = clk.now.Add(m.stat.SpinFPS())
			}
		}
		n += len(evs)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/delta")
	b.ReportMetric(float64(timerMsgs)/(float64(n)/1000), "timer-msgs/s")
}

// BenchmarkStateSummary is State() as the command center reads it after
// every message of a lane: a thread of 10 or 1,000 finished turns (five
// file changes each) with an answer streaming, a delta folded before each
// read (so the newest line is made again; a paragraph every 50 deltas),
// and the read alone.
func BenchmarkStateSummary(b *testing.B) {
	for _, turns := range []int{10, 1000} {
		m := history(b, turns)
		var changes []backend.Turn
		for i := range turns {
			var items []backend.Item
			for j := range 5 {
				items = append(items, backend.Item{Type: "fileChange", ID: fmt.Sprintf("f%d-%d", i, j), Status: "completed",
					Changes: []backend.FileChange{{Path: fmt.Sprintf("/w/pkg%d/file%d.go", i%50, j), Diff: "@@ -1 +1 @@\n-a\n+b\n"}}})
			}
			changes = append(changes, backend.Turn{ID: fmt.Sprint("c", i), Status: backend.TurnCompleted, Items: items})
		}
		m.Update(SessionReadyMsg{Client: nopDriver{}, Model: "mock-model", ThreadID: "t-first", History: changes, Reattached: true})
		m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "live"}})
		m.Update(backend.ItemStartedEvent{Item: backend.Item{Type: "agentMessage", ID: "live"}})
		word := backend.AgentMessageDeltaEvent{ItemID: "live", Delta: "a few more words of the answer "}
		para := backend.AgentMessageDeltaEvent{ItemID: "live", Delta: "end.\n\n"}
		if s := m.State().Summary; s.Turns < turns || len(s.Changed) != min(turns, 50)*5 {
			b.Fatalf("%d turns, %d paths", s.Turns, len(s.Changed))
		}
		b.Run(fmt.Sprintf("turns=%d/delta+State", turns), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if i++; i%50 == 0 {
					m.Update(para) // paragraphs close now and then
				} else {
					m.Update(word)
				}
				_ = m.State().Summary
			}
		})
		b.Run(fmt.Sprintf("turns=%d/State", turns), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = m.State().Summary
			}
		})
	}
}
