package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"tandem/backend"
	"tandem/internal/deck"
	"tandem/internal/testkit/codextest"
	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// BenchmarkDeckStream runs 1 and then 10 threads streaming at once
// through the command center as tandem runs it: one app-server, the
// first thread the session's and the others lanes on it (Session.Open),
// each lane a model.Model in a deck.Model inside a real Bubble Tea
// program (renderer included, output discarded, 120×40), the lanes'
// events sent through deck.Feed as tandem sends them. Every thread
// streams the BigMarkdown answer (100 KB in 8,500 deltas) at once, while
// a key is typed into the focused lane (lane 1, streaming too) every
// 30 ms (faster than a person, slower than a paste burst).
//
// The mock runs in its own process (cmd/mockapi), so the numbers are
// this process's alone, which is tandem's (backend, deck, models,
// renderer), never codex's or the mock's:
//   - cpu-ms/KB: user+sys CPU (getrusage RUSAGE_SELF) from the turns'
//     start until every turn completed, per KB of deltas the lanes got;
//   - echo-p50-ms, echo-p99-ms: a key's p.Send until the end of the
//     View after the deck's Update of it (the program's queue, full of
//     the streams' events, included); key-p99-ms: the key's Update and
//     that View alone (the wait in the queue left out);
//   - peak-MiB: the process's peak RSS (VmHWM, reset before the run
//     where the kernel allows it);
//   - KB: what the lanes got.
//
// docs/PERFORMANCE.md ("Many threads at once") has the numbers; run with
// -benchtime 1x -count 3.
func BenchmarkDeckStream(b *testing.B) {
	codex := codextest.Path(b)
	mockBin := filepath.Join(b.TempDir(), "mockapi")
	if out, err := exec.Command("go", "build", "-o", mockBin, "tandem/internal/testkit/mockapi/cmd/mockapi").CombinedOutput(); err != nil {
		b.Fatalf("building the mock: %v\n%s", err, out)
	}
	for _, n := range []int{1, 10} {
		b.Run(fmt.Sprintf("threads=%d", n), func(b *testing.B) {
			var cpu, kb float64
			var echoes, handled []time.Duration
			var peak int64
			for b.Loop() {
				r := deckStream(b, codex, mockBin, n)
				cpu += r.cpu.Seconds() * 1000
				kb += float64(r.bytes) / 1024
				echoes = append(echoes, r.echoes...)
				handled = append(handled, r.handled...)
				peak = max(peak, r.peakKB)
			}
			q := func(ds []time.Duration, p float64) float64 {
				if len(ds) == 0 {
					return 0
				}
				sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
				return float64(ds[int(p*float64(len(ds)-1))].Microseconds()) / 1000
			}
			b.ReportMetric(cpu/kb, "cpu-ms/KB")
			b.ReportMetric(q(echoes, 0.5), "echo-p50-ms")
			b.ReportMetric(q(echoes, 0.99), "echo-p99-ms")
			b.ReportMetric(q(handled, 0.99), "key-p99-ms")
			b.ReportMetric(float64(peak)/1024, "peak-MiB")
			b.ReportMetric(kb/float64(b.N), "KB")
		})
	}
}

// streamRun is one run of deckStream.
type streamRun struct {
	handled []time.Duration
	cpu     time.Duration
	bytes   int
	echoes  []time.Duration
	peakKB  int64
}

// deckStream is one run of BenchmarkDeckStream with n threads.
func deckStream(b *testing.B, codex, mockBin string, n int) streamRun {
	b.StopTimer()
	defer b.StartTimer()
	home, stop := startMockProcess(b, mockBin, n)
	defer stop()
	e := &Env{Codex: codex, Home: home, Dir: b.TempDir()}

	lanes := make([]deck.Lane, n)
	for i := range lanes {
		lanes[i] = deck.Lane{ID: deck.LaneID(i + 1), Model: model.New(model.Options{NoColor: true})}
	}
	probe := &streamProbe{Model: deck.New(deck.Options{}, lanes...), left: n, done: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	p := tea.NewProgram(probe, tea.WithContext(ctx), tea.WithInput(nil), tea.WithOutput(io.Discard),
		tea.WithWindowSize(120, 40), tea.WithoutSignals(), tea.WithColorProfile(colorprofile.Ascii))
	go p.Run()
	defer p.Wait()
	defer p.Quit()
	feed := deck.Feed(p.Send) // as tandem sends the lanes' events (internal/cli)
	send := func(id int) func(any) {
		return func(v any) { feed(deck.LaneMsg{Lane: deck.LaneID(id), Msg: v}) }
	}
	sessions := []*backend.Session{e.ReadySession(b, "never", "read-only", nil, send(1))}
	for i := 2; i <= n; i++ {
		lane := sessions[0].Open(send(i))
		resp, err := lane.StartThread(ctx)
		if err != nil {
			b.Fatalf("lane %d: thread/start: %v", i, err)
		}
		p.Send(deck.LaneMsg{Lane: deck.LaneID(i), Msg: readyMsg(lane, resp)})
		sessions = append(sessions, lane)
	}

	resetPeakRSS()
	before := selfCPU()
	b.StartTimer()
	for _, s := range sessions {
		go func() {
			if _, err := s.StartTurn(ctx, backend.TurnInput{Text: "write the benchmark document"}); err != nil {
				b.Errorf("turn/start: %v", err)
				cancel()
			}
		}()
	}
	typing := time.NewTicker(30 * time.Millisecond) // a fast typist's pace: no paste burst (model/composer)
	defer typing.Stop()
	key := tea.KeyPressMsg{Code: 'a', Text: "a"}
	for wait := true; wait; {
		select {
		case <-probe.done:
			wait = false
		case <-ctx.Done():
			b.Fatalf("the turns did not complete: %v", ctx.Err())
		case <-typing.C:
			probe.typed(time.Now())
			p.Send(key)
		}
	}
	b.StopTimer()
	cpu := selfCPU() - before
	probe.mu.Lock()
	defer probe.mu.Unlock()
	if want := n * 8500; probe.deltas != want {
		b.Fatalf("%d deltas, want %d", probe.deltas, want)
	}
	if len(probe.echoes) == 0 {
		b.Fatal("no key echoed")
	}
	return streamRun{cpu: cpu, bytes: probe.bytes, echoes: probe.echoes, handled: probe.handled, peakKB: peakRSS()}
}

// streamProbe is the deck as the program runs it, with what the
// benchmark reads: the deltas and bytes the lanes got, when each lane's
// turn completed, and each typed key's echo (its send until the end of
// the View after its Update).
type streamProbe struct {
	*deck.Model
	mu      sync.Mutex
	sent    []time.Time // keys sent, not yet updated
	drawn   []time.Time // keys updated, not yet drawn
	echoes  []time.Duration
	keyAt   time.Time       // the last key's Update began
	handled []time.Duration // a key's Update and the View after it
	deltas  int
	bytes   int
	left    int
	done    chan struct{}
	stopped bool
}

// typed notes a key about to be sent at t.
func (p *streamProbe) typed(t time.Time) {
	p.mu.Lock()
	p.sent = append(p.sent, t)
	p.mu.Unlock()
}

func (p *streamProbe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	t0 := time.Now()
	_, cmd := p.Model.Update(msg)
	p.mu.Lock()
	defer p.mu.Unlock()
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if len(p.sent) > 0 {
			p.drawn, p.sent = append(p.drawn, p.sent[0]), p.sent[1:]
			p.keyAt = t0
		}
	case deck.LaneMsg:
		for _, m := range deck.Messages(msg) {
			switch ev := m.(type) {
			case backend.AgentMessageDeltaEvent:
				p.deltas++
				p.bytes += len(ev.Delta)
			case backend.TurnCompletedEvent:
				if p.left--; p.left == 0 && !p.stopped {
					p.stopped = true
					close(p.done)
				}
			}
		}
	}
	return p, cmd
}

func (p *streamProbe) View() tea.View {
	v := p.Model.View()
	p.mu.Lock()
	now := time.Now()
	for _, t := range p.drawn {
		p.echoes = append(p.echoes, now.Sub(t))
	}
	if len(p.drawn) > 0 {
		p.handled = append(p.handled, now.Sub(p.keyAt))
	}
	p.drawn = p.drawn[:0]
	p.mu.Unlock()
	return v
}

// startMockProcess starts the mock Responses API in its own process
// (cmd/mockapi), scripted with n BigMarkdown answers, and returns the
// CODEX_HOME pointing at it and how to stop it.
func startMockProcess(b *testing.B, bin string, n int) (home string, stop func()) {
	dir := b.TempDir()
	home = filepath.Join(dir, "home")
	var script struct {
		Responses []map[string]any `json:"responses"`
	}
	for range n {
		script.Responses = append(script.Responses, map[string]any{"big_markdown": map[string]int{"bytes": mockapi.BigMarkdownBytes, "deltas": 8500}})
	}
	raw, _ := json.Marshal(script)
	if err := os.WriteFile(filepath.Join(dir, "script.json"), raw, 0o600); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(bin, "--script", filepath.Join(dir, "script.json"), "--codex-home", home, "--quiet")
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil { // the mock's URL: it serves
		cmd.Process.Kill()
		b.Fatalf("the mock did not start: %v", err)
	}
	return home, func() { cmd.Process.Kill(); cmd.Wait() }
}

// selfCPU is this process's user+sys CPU time (not its children's).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// resetPeakRSS resets this process's peak RSS (VmHWM) where Linux allows
// it (clear_refs "5"); elsewhere the peak is the process's so far.
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSS is this process's peak RSS in KB (VmHWM; getrusage's maxrss
// where /proc is missing).
func peakRSS() int64 {
	if raw, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(raw), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
				if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil {
					return kb
				}
			}
		}
	}
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Maxrss
}
