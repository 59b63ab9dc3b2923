package hub

import (
	"fmt"
	"reflect"
	"testing"

	"tandem/backend"
)

// answerStream is turns of one streamed answer each: a start, n deltas of
// "w ", the completion with the whole text, and a token usage update.
func answerStream(turns, n int) []any {
	var out []any
	for t := range turns {
		turn, id := fmt.Sprint("turn-", t), fmt.Sprint("msg-", t)
		ev := func(e backend.Event) { out = append(out, e) }
		ev(backend.TurnStartedEvent{Turn: backend.Turn{ID: turn}})
		ev(backend.ItemStartedEvent{Item: backend.Item{Type: "agentMessage", ID: id}})
		text := ""
		for range n {
			d := backend.AgentMessageDeltaEvent{ItemID: id, Delta: "w "}
			d.TurnID = turn
			ev(d)
			text += "w "
		}
		done := backend.ItemCompletedEvent{Item: backend.Item{Type: "agentMessage", ID: id, Text: text}}
		done.TurnID = turn
		ev(done)
		ev(backend.TokenUsageEvent{})
		ev(backend.TurnCompletedEvent{Turn: backend.Turn{ID: turn, Status: backend.TurnCompleted}})
	}
	return out
}

// The hub compacts by itself once the log is long, only below the
// slowest viewer's cursor: a viewer that is behind still gets every value
// it has not read, in order, and one that has read all continues from
// the live tail without a gap or a repeat.
func TestCompactionKeepsCursors(t *testing.T) {
	h := New()
	fast := h.Join("fast", Watcher)
	slow := h.Join("slow", Watcher)
	stream := answerStream(20, 300) // 6,100 values
	first, rest := stream[:3000], stream[3000:]
	for _, v := range first {
		h.Publish(v)
	}
	if b, _ := slow.Next(); len(b) != 2+len(first) { // the two joins first
		t.Fatalf("the slow viewer read %d values, want %d", len(b), 2+len(first))
	}
	var fastGot []any
	b, _ := fast.Next()
	fastGot = append(fastGot, b...)
	for _, v := range rest {
		h.Publish(v)
	}
	if h.Compactions() == 0 {
		t.Fatal("no compaction of a 6,100-value log")
	}
	// slow read the first 3,000 (and the joins); from there it gets the
	// rest exactly as published.
	b, _ = slow.Next()
	if !reflect.DeepEqual(b, rest) {
		t.Fatalf("the slow viewer got %d values after its cursor, want the %d published", len(b), len(rest))
	}
	b, _ = fast.Next()
	fastGot = append(fastGot, b...)
	if n := len(fastGot) - 2; n != len(stream) { // the two joins
		t.Fatalf("the fast viewer got %d values, want %d", n, len(stream))
	}
	h.Compact()
	late := h.Join("late", Watcher)
	b, _ = late.Next()
	// 20 turns × (turn started, item started, completed, turn completed)
	// + one token usage + 3 joins.
	if want := 20*4 + 1 + 3; len(b) != want {
		t.Fatalf("late joiner got %d values, want %d", len(b), want)
	}
}

// BenchmarkLateJoin is a late joiner's replay after 200 turns of 500
// deltas each: values handed over and the time of Join + Next.
func BenchmarkLateJoin(b *testing.B) {
	for _, compact := range []bool{false, true} {
		b.Run(fmt.Sprint("compact=", compact), func(b *testing.B) {
			h := New()
			if !compact {
				h.compacted = 1 << 40 // never
			}
			for _, v := range answerStream(200, 500) {
				h.Publish(v)
			}
			base := len(h.log)
			n := 0
			for b.Loop() {
				v := h.Join("late", Watcher)
				batch, _ := v.Next()
				n = len(batch)
				v.Leave()
				h.log = h.log[:base] // the join and leave: the next one finds the same log
			}
			b.ReportMetric(float64(n), "values")
		})
	}
}
