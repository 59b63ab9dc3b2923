package deck

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// BenchmarkProgramEcho is keystroke echo in the command center while 1
// or 10 lanes stream, in a real Bubble Tea program (renderer included,
// output discarded, 120×40) without an app-server: each lane gets the
// BigMarkdown answer (100 KB in 8,500 deltas), the lanes' deltas sent in
// turn with p.Send, 16 rounds a millisecond (each lane at the pace the
// real app-server streams one answer: ten lanes at once are ten times
// what it streams on two cores), and a key is typed into the focused lane
// (lane 1, streaming too) every 30 ms (faster than a person, slower than
// a paste burst). The lanes' messages go through Feed, as tandem's do.
// echo-p99-ms is a key's p.Send
// until the end of the View after the deck's Update of it; ms/stream the
// time for all the streams. The same through the real app-server, with
// tandem's CPU and RSS: e2e.BenchmarkDeckStream.
func BenchmarkProgramEcho(b *testing.B) {
	text := mockapi.BigMarkdownText(mockapi.BigMarkdownBytes)
	deltas := mockapi.SplitBytes(text, 8500)
	for _, n := range []int{1, 10} {
		b.Run(fmt.Sprintf("lanes=%d", n), func(b *testing.B) {
			var echoes []time.Duration
			b.StopTimer()
			for i := 0; i < b.N; i++ {
				echoes = append(echoes, programEcho(b, n, text, deltas)...)
			}
			sort.Slice(echoes, func(i, j int) bool { return echoes[i] < echoes[j] })
			q := func(p float64) float64 { return float64(echoes[int(p*float64(len(echoes)-1))].Microseconds()) / 1000 }
			b.ReportMetric(q(0.5), "echo-p50-ms")
			b.ReportMetric(q(0.99), "echo-p99-ms")
			b.ReportMetric(float64(len(echoes))/float64(b.N), "keys")
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/stream")
		})
	}
}

// programEcho is one run of BenchmarkProgramEcho; it returns the echoes.
func programEcho(b *testing.B, n int, text string, deltas []string) []time.Duration {
	lanes := make([]Lane, n)
	models := make([]*model.Model, n)
	for i := range lanes {
		models[i] = model.New(model.Options{NoColor: true})
		lanes[i] = Lane{ID: LaneID(i + 1), Model: models[i]}
	}
	probe := &echoProbe{Model: New(Options{Home: "/home/dev"}, lanes...), left: n, done: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	p := tea.NewProgram(probe, tea.WithContext(ctx), tea.WithInput(nil), tea.WithOutput(io.Discard),
		tea.WithWindowSize(120, 40), tea.WithoutSignals(), tea.WithColorProfile(colorprofile.Ascii))
	go p.Run()
	defer p.Wait()
	defer p.Quit()
	for i := range n {
		id := LaneID(i + 1)
		p.Send(LaneMsg{Lane: id, Msg: model.SessionReadyMsg{Client: fakeDriver{}, Model: "mock-model", ThreadID: fmt.Sprint("t", id)}})
		p.Send(LaneMsg{Lane: id, Msg: backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}}})
		p.Send(LaneMsg{Lane: id, Msg: backend.ItemStartedEvent{Item: backend.Item{Type: "agentMessage", ID: "msg-1"}}})
	}
	b.StartTimer()
	send := Feed(p.Send) // as tandem sends the lanes' events (internal/cli)
	go func() {
		for r, d := range deltas {
			if r%16 == 15 {
				time.Sleep(time.Millisecond)
			}
			for i := range n {
				send(LaneMsg{Lane: LaneID(i + 1), Msg: backend.AgentMessageDeltaEvent{ItemID: "msg-1", Delta: d}})
			}
		}
		for i := range n {
			id := LaneID(i + 1)
			send(LaneMsg{Lane: id, Msg: backend.ItemCompletedEvent{Item: backend.Item{Type: "agentMessage", ID: "msg-1", Text: text}}})
			send(LaneMsg{Lane: id, Msg: backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}}})
		}
	}()
	typing := time.NewTicker(30 * time.Millisecond)
	defer typing.Stop()
	key := tea.KeyPressMsg{Code: 'a', Text: "a"}
	for wait := true; wait; {
		select {
		case <-probe.done:
			wait = false
		case <-ctx.Done():
			b.Fatal("the streams did not end")
		case <-typing.C:
			probe.typed(time.Now())
			p.Send(key)
		}
	}
	b.StopTimer()
	if !strings.Contains(models[0].State().Composer, "aaaa") {
		b.Fatal("the keys did not reach the focused lane's composer")
	}
	probe.mu.Lock()
	defer probe.mu.Unlock()
	return probe.echoes
}

// echoProbe is the deck as the program runs it, timing each typed key
// from its send to the end of the View after its Update, and closing
// done when every lane's turn completed.
type echoProbe struct {
	*Model
	mu     sync.Mutex
	sent   []time.Time // keys sent, not yet updated
	drawn  []time.Time // keys updated, not yet drawn
	echoes []time.Duration
	left   int
	done   chan struct{}
}

func (p *echoProbe) typed(t time.Time) {
	p.mu.Lock()
	p.sent = append(p.sent, t)
	p.mu.Unlock()
}

func (p *echoProbe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := p.Model.Update(msg)
	p.mu.Lock()
	defer p.mu.Unlock()
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if len(p.sent) > 0 {
			p.drawn, p.sent = append(p.drawn, p.sent[0]), p.sent[1:]
		}
	case LaneMsg:
		for _, m := range Messages(msg) {
			if _, ok := m.(backend.TurnCompletedEvent); ok {
				if p.left--; p.left == 0 {
					close(p.done)
				}
			}
		}
	}
	return p, cmd
}

func (p *echoProbe) View() tea.View {
	v := p.Model.View()
	p.mu.Lock()
	now := time.Now()
	for _, t := range p.drawn {
		p.echoes = append(p.echoes, now.Sub(t))
	}
	p.drawn = p.drawn[:0]
	p.mu.Unlock()
	return v
}
