package sessions

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// BenchmarkSearchRollouts searches 64 MiB of rollouts (128 files, each
// with command outputs of 1–30 KB, one of 4 MB) for a word in none of
// them: every byte is read. MB/s is the scan's speed on this machine's
// cores; scripts/bench.sh measures the whole command over 1 GB.
func BenchmarkSearchRollouts(b *testing.B) {
	root := b.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	vocab := strings.Fields("func return error nil context string test build package --- FAIL: TestLogin ok go run main config server thread turn")
	text := func(n int) string {
		var s strings.Builder
		for s.Len() < n {
			s.WriteString(vocab[r.IntN(len(vocab))])
			s.WriteByte(" \n"[r.IntN(2)])
		}
		return s.String()
	}
	var total int64
	for f := range 128 {
		x := (&rl{}).meta(uuid(f), "/w")
		for turn := 0; len(strings.Join(x.lines, "\n")) < 512<<10; turn++ {
			n := 1000 + r.IntN(30000)
			if f == 64 && turn == 3 {
				n = 4 << 20
			}
			x.turn(fmt.Sprint("t", turn)).prompt(text(200)).command("go test ./...", text(n)).answer(text(1000))
		}
		p := x.write(b, root, uuid(f), time.Now())
		_ = p
		total += int64(len(strings.Join(x.lines, "\n")) + 1)
	}
	b.SetBytes(total)
	b.ResetTimer()
	for b.Loop() {
		hits, err := SearchRollouts(context.Background(), root, SearchOptions{Query: "absentword"})
		if err != nil || len(hits) != 0 {
			b.Fatal(err, hits)
		}
	}
}
