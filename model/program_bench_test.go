package model

import (
	"context"
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
)

// BenchmarkProgramStream runs the model in a real Bubble Tea program
// (renderer included, output discarded) and sends it the BigMarkdown
// stream the way the session does (p.Send per event), reporting the time
// from the first delta to the processed turn/completed.
func BenchmarkProgramStream(b *testing.B) {
	text := mockapi.BigMarkdownText(mockapi.BigMarkdownBytes)
	deltas := mockapi.SplitBytes(text, 8500)
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		m := New(Options{NoColor: true})
		done := make(chan struct{})
		w := &watch{Model: m, done: done}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		p := tea.NewProgram(w, tea.WithContext(ctx), tea.WithInput(nil), tea.WithOutput(io.Discard),
			tea.WithWindowSize(120, 40), tea.WithoutSignals(), tea.WithColorProfile(colorprofile.Ascii))
		go p.Run()
		p.Send(SessionReadyMsg{Client: nopDriver{}, Model: "mock-model"})
		p.Send(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
		p.Send(backend.ItemStartedEvent{Item: backend.Item{Type: "agentMessage", ID: "msg-1"}})
		b.StartTimer()
		for _, d := range deltas {
			p.Send(backend.AgentMessageDeltaEvent{ItemID: "msg-1", Delta: d})
		}
		p.Send(backend.ItemCompletedEvent{Item: backend.Item{Type: "agentMessage", ID: "msg-1", Text: text}})
		p.Send(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
		<-done
		b.StopTimer()
		p.Quit()
		p.Wait()
		cancel()
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/stream")
}

// watch closes done when the model has processed turn/completed.
type watch struct {
	*Model
	done chan struct{}
}

func (w *watch) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := w.Model.Update(msg)
	if _, ok := msg.(backend.TurnCompletedEvent); ok {
		close(w.done)
	}
	return w, cmd
}
