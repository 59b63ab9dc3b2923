package e2e

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// BenchmarkEscInterrupt is how long a turn takes to end after Esc: from
// the key, in the middle of a slow stream from the real app-server, to
// the "Turn interrupted" banner on the TUI's screen (polled every 30 ms,
// so a figure is up to that much late). It reports esc-ms (the mean; also
// ns/op). TestEscInterruptsSlowStream checks that it ends at all.
func BenchmarkEscInterrupt(b *testing.B) {
	long := strings.Repeat("slow words keep coming ", 400)
	var took time.Duration
	for b.Loop() {
		b.StopTimer()
		e := NewEnv(b, mockapi.Response{Items: []mockapi.Item{mockapi.Text(long)}, ChunkDelay: 20 * time.Millisecond})
		u := NewTUI(b, model.Options{}, 100, 30)
		u.Connect(b, e, "never", "workspace-write")
		u.Submit("talk slowly")
		u.WaitScreen(b, Patience, "streaming to start", Contains("slow words", "esc to interrupt"))
		b.StartTimer()
		t0 := time.Now()
		u.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
		u.WaitScreen(b, Patience, "the interrupted banner", Contains("Turn interrupted"))
		took += time.Since(t0)
		b.StopTimer()
		_ = u.Session.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(took.Milliseconds())/float64(b.N), "esc-ms")
}
