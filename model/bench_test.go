package model

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
)

type nopDriver struct{ backend.Unavailable }

func (nopDriver) StartTurn(context.Context, backend.TurnInput) (backend.Turn, error) {
	return backend.Turn{ID: "turn-1", Status: backend.TurnInProgress}, nil
}
func (nopDriver) Interrupt(context.Context) error { return nil }

// benchModel is a ready 120×40 model in a running turn.
func benchModel(tb testing.TB) *Model {
	m := New(Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(SessionReadyMsg{Client: nopDriver{}, Model: "mock-model"})
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	m.View()
	return m
}

// frame is what Bubble Tea does per message: Update, then View.
func frame(m *Model, msg tea.Msg) {
	m.Update(msg)
	_ = m.View().Content
}

// BenchmarkDeltaToFrame streams mockapi.BigMarkdown (100 KB in 8,500
// deltas) into the model, one Update+View per delta and a frame tick every
// 64 deltas (the tick is 33 ms; the real stream brings ~500 deltas in that
// time). Reported per delta.
func BenchmarkDeltaToFrame(b *testing.B) {
	text := mockapi.BigMarkdownText(mockapi.BigMarkdownBytes)
	deltas := mockapi.SplitBytes(text, 8500)
	evs := make([]backend.AgentMessageDeltaEvent, len(deltas))
	for i, d := range deltas {
		evs[i] = backend.AgentMessageDeltaEvent{ItemID: "msg-1", Delta: d}
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		b.StopTimer()
		m := benchModel(b)
		m.Update(backend.ItemStartedEvent{Item: backend.Item{Type: "agentMessage", ID: "msg-1"}})
		b.StartTimer()
		for i, ev := range evs {
			frame(m, ev)
			if i%64 == 63 {
				frame(m, m.stat.NextTick())
			}
		}
		frame(m, backend.ItemCompletedEvent{Item: backend.Item{Type: "agentMessage", ID: "msg-1", Text: text}})
		n += len(evs)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/delta")
}

// history builds a model holding turns finished turns (a prompt and a
// three-paragraph answer each), all rendered once.
func history(tb testing.TB, turns int) *Model {
	m := benchModel(tb)
	var hist []backend.Turn
	for i := 0; i < turns; i++ {
		hist = append(hist, backend.Turn{ID: fmt.Sprint(i), Status: backend.TurnCompleted, Items: []backend.Item{
			{Type: "userMessage", ID: fmt.Sprintf("u%d", i), Content: []backend.UserContent{{Type: "text", Text: fmt.Sprintf("question %d", i)}}},
			{Type: "agentMessage", ID: fmt.Sprintf("a%d", i), Text: fmt.Sprintf("Answer **%d**.\n\n- one\n- two\n\nA closing paragraph with `code` in it.", i)},
		}})
	}
	m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
	m.Update(SessionReadyMsg{Client: nopDriver{}, Model: "mock-model", History: hist})
	m.View()
	return m
}

// BenchmarkFrame5000Turns is one frame (a tick while a new answer streams)
// of a transcript of 5,000 finished turns.
func BenchmarkFrame5000Turns(b *testing.B) {
	m := history(b, 5000)
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "t"}})
	m.Update(backend.ItemStartedEvent{Item: backend.Item{Type: "agentMessage", ID: "live"}})
	word := backend.AgentMessageDeltaEvent{ItemID: "live", Delta: "word "}
	para := backend.AgentMessageDeltaEvent{ItemID: "live", Delta: "end.\n\n"}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i++; i%50 == 0 {
			frame(m, para) // paragraphs close now and then
		} else {
			frame(m, word)
		}
		frame(m, m.stat.NextTick())
	}
}

// BenchmarkCommandOutput10MB streams 10 MB of command output in 8 KiB
// deltas, one Update+View per delta and a tick every 64.
func BenchmarkCommandOutput10MB(b *testing.B) {
	chunk := strings.Repeat("x\n", 4096)
	ev := backend.CommandOutputDeltaEvent{ItemID: "cmd-1", Delta: chunk}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		m := benchModel(b)
		m.Update(backend.ItemStartedEvent{Item: backend.Item{Type: "commandExecution", ID: "cmd-1", Command: "yes x | head -c 10000000", Status: "inProgress"}})
		b.StartTimer()
		for i := 0; i < 10_000_000/len(chunk); i++ {
			frame(m, ev)
			if i%64 == 63 {
				frame(m, m.stat.NextTick())
			}
		}
		b.StopTimer()
		m.Close()
		b.StartTimer()
	}
}

// BenchmarkKeystrokeEcho measures, while a 100 KB answer streams, the time
// from a key press reaching the model to the frame that shows it (Update +
// View), and reports its p99 over all key presses.
func BenchmarkKeystrokeEcho(b *testing.B) {
	text := mockapi.BigMarkdownText(mockapi.BigMarkdownBytes)
	deltas := mockapi.SplitBytes(text, 8500)
	var lat []time.Duration
	for b.Loop() {
		b.StopTimer()
		m := benchModel(b)
		m.Update(backend.ItemStartedEvent{Item: backend.Item{Type: "agentMessage", ID: "msg-1"}})
		b.StartTimer()
		for i, d := range deltas {
			frame(m, backend.AgentMessageDeltaEvent{ItemID: "msg-1", Delta: d})
			if i%64 == 63 {
				frame(m, m.stat.NextTick())
			}
			if i%20 == 0 {
				t0 := time.Now()
				frame(m, tea.KeyPressMsg{Code: 'a', Text: "a"})
				lat = append(lat, time.Since(t0))
			}
		}
		if !strings.Contains(m.State().Composer, "aaaa") {
			b.Fatal("keys did not reach the composer")
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	p := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(p(0.5), "p50-ms")
	b.ReportMetric(p(0.99), "p99-ms")
}
