package hub

import (
	"strings"
	"testing"

	"tandem/backend"
)

// BenchmarkCompactLiveOutput compacts a log holding 10,000 output deltas
// of 200 bytes of one command still running (a chatty build in a shared
// session): they merge into one delta.
func BenchmarkCompactLiveOutput(b *testing.B) {
	chunk := strings.Repeat("x", 199) + "\n"
	entries := make([]any, 10000)
	for i := range entries {
		entries[i] = backend.CommandOutputDeltaEvent{ItemID: "cmd", Delta: chunk}
	}
	for b.Loop() {
		out := compactLog(entries, func(backend.RequestID) bool { return false })
		if len(out) != 1 || len(out[0].(backend.CommandOutputDeltaEvent).Delta) != len(chunk)*len(entries) {
			b.Fatalf("compacted to %d values", len(out))
		}
	}
}
