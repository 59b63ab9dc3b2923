package e2e

import (
	"context"
	"testing"

	"tandem/backend"
	"tandem/internal/testkit/codextest"
	"tandem/internal/testkit/mockapi"
)

// BenchmarkSessionStream runs the BigMarkdown turn (100 KB in 8,500
// deltas) through the real app-server and tandem's backend session, with a
// sink that only counts, and reports the time from turn/start to
// turn/completed: the backend's share of tandem's wall time
// (scripts/bench.sh compares the whole TUI).
func BenchmarkSessionStream(b *testing.B) {
	codextest.Path(b)
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		e := NewEnv(b, mockapi.BigMarkdown(mockapi.BigMarkdownBytes, 8500))
		s, ch := e.Session(b, "never", "read-only")
		ctx, cancel := context.WithTimeout(context.Background(), Patience)
		b.StartTimer()
		if _, err := s.StartTurn(ctx, backend.TurnInput{Text: "go"}); err != nil {
			b.Fatal(err)
		}
		n := 0
		Await[backend.TurnCompletedEvent](b, ch, Patience, func(v any) {
			if _, ok := v.(backend.AgentMessageDeltaEvent); ok {
				n++
			}
		})
		b.StopTimer()
		cancel()
		if n != 8500 {
			b.Fatalf("%d deltas", n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/turn")
}
