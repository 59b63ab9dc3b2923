package e2e

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// BenchmarkResumeHugeThread resumes a thread of TANDEM_BENCH_TURNS turns
// (20,000 by default; about 7 KB of rollout a turn, 140 MB in all) the
// way `tandem resume ID` does, on a fresh real app-server, in a 120×40
// TUI. It reports, from the launch of the app-server:
//   - newest-ms: until the newest answer is on screen;
//   - opened-ms: until the thread is open ("Resumed thread");
//   - peak-rss-MiB: the peak RSS of this process (VmHWM), which runs
//     tandem's model; codex runs in its own.
//
// Run it with -benchtime=1x (docs/PERFORMANCE.md).
func BenchmarkResumeHugeThread(b *testing.B) {
	n := 20000
	if v, err := strconv.Atoi(os.Getenv("TANDEM_BENCH_TURNS")); err == nil && v > 0 {
		n = v
	}
	e := NewEnv(b,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("the first answer")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("the " + AnswerMark + " of the last turn")}},
	)
	id := growThread(b, e, n)
	newest := AnswerMark + "-" + strconv.Itoa(n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		u := NewTUI(b, model.Options{Workspace: e.Dir}, 120, 40)
		t0 := time.Now()
		connectResume(b, u, e, &model.ResumeRequest{ID: id})
		u.WaitScreen(b, 5*time.Minute, "the newest answer", Contains(newest))
		b.ReportMetric(float64(time.Since(t0).Milliseconds()), "newest-ms")
		u.WaitScreen(b, 5*time.Minute, "the thread open", Contains("Resumed thread"))
		b.ReportMetric(float64(time.Since(t0).Milliseconds()), "opened-ms")
		_ = u.Session.Close()
	}
	b.StopTimer()
	b.ReportMetric(peakRSSMiB(b), "peak-rss-MiB")
}

// growThread runs two turns on e (their answers scripted by the caller,
// the second prompt carrying PromptMark), grows the thread to n more
// turns with GrowRollout and resumes it once on another app-server, so
// that codex has indexed it; it returns the thread's id.
func growThread(t testing.TB, e *Env, n int) string {
	t.Helper()
	s, ch := e.Session(t, "never", "workspace-write")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	for _, p := range []string{"the first question", "the " + PromptMark + " of the last turn"} {
		if _, err := s.StartTurn(ctx, backend.TurnInput{Text: p}); err != nil {
			t.Fatal(err)
		}
		Await[backend.TurnCompletedEvent](t, ch, Patience, nil)
	}
	id := s.ThreadID()
	th, err := s.ReadThread(ctx, id)
	if err != nil || th.Path == nil {
		t.Fatalf("thread/read: %v", err)
	}
	_ = s.Close()
	if err := GrowRollout(*th.Path, n); err != nil {
		t.Fatal(err)
	}
	w, _ := startSession(t, 10*time.Minute, e.Transport(), e.Dir, "never", "workspace-write", nil, func(any) {})
	if _, err := w.RejoinThread(ctx, id); err != nil {
		t.Fatalf("indexing the grown thread: %v", err)
	}
	_ = w.Close()
	return id
}

// peakRSSMiB is this process's peak resident set (VmHWM), in MiB.
func peakRSSMiB(t testing.TB) float64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	for _, l := range strings.Split(string(raw), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}
