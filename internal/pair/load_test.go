package pair

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
	"tandem/internal/testkit/sshtest"
	"tandem/model"
)

// lightClient is a guest that only counts what it gets: the reads (about
// one a frame) and bytes, and whether the status line (⇄) has arrived. A
// hundred of them cost the test little, unlike a hundred emulators.
type lightClient struct {
	conn   *gossh.Client
	reads  atomic.Int64
	bytes  atomic.Int64
	ready  chan struct{}
	closed chan struct{}
}

func dialLight(addr string, k sshtest.Key, w, h int) (*lightClient, error) {
	conn, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User: k.Name, Auth: []gossh.AuthMethod{gossh.PublicKeys(k.Signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), //nolint:gosec // test server
		Timeout:         patience,
	})
	if err != nil {
		return nil, err
	}
	sess, err := conn.NewSession()
	if err != nil {
		conn.Close()
		return nil, err
	}
	if err := sess.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		conn.Close()
		return nil, err
	}
	out, _ := sess.StdoutPipe()
	c := &lightClient{conn: conn, ready: make(chan struct{}), closed: make(chan struct{})}
	go func() {
		defer close(c.closed)
		buf := make([]byte, 32<<10)
		var seen bool
		var tail []byte
		for {
			n, err := out.Read(buf)
			if n > 0 {
				c.reads.Add(1)
				c.bytes.Add(int64(n))
				if !seen {
					tail = append(tail, buf[:n]...)
					if bytes.Contains(tail, []byte("⇄")) {
						seen = true
						tail = nil
						close(c.ready)
					}
				}
			}
			if err != nil {
				return
			}
		}
	}()
	if err := sess.Shell(); err != nil {
		conn.Close()
		return nil, err
	}
	return c, nil
}

// slowReader is an sshClient whose terminal reads only every 40 ms: the
// session must not wait for it, and it must still end on the final
// state.
func dialSlow(t testing.TB, addr string, k sshtest.Key) *sshClient {
	t.Helper()
	c, err := dialPairDelay(addr, k, 80, 24, 80, 24, 40*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.close)
	return c
}

func rssKiB() int {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			n, _ := strconv.Atoi(strings.Fields(l)[1])
			return n
		}
	}
	return 0
}

// turnScript is turn(i) as a mockapi script response.
func turnScript(i int) string {
	return fmt.Sprintf(`{"big_markdown":{"bytes":%d,"deltas":400},"items":[{"text":"Final words of turn %d."}],"chunk_delay_ms":2}`, 16<<10, i)
}

// buildMockapi builds the mockapi command into a temp dir of t.
func buildMockapi(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mockapi")
	if out, err := exec.Command("go", "build", "-o", bin, "tandem/internal/testkit/mockapi/cmd/mockapi").CombinedOutput(); err != nil {
		t.Fatalf("building mockapi: %v\n%s", err, out)
	}
	return bin
}

// externalMock starts the mockapi command bin with script, and returns
// its base URL; it is stopped when t ends.
func externalMock(t *testing.T, bin, script string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(file, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--quiet", "--script", file)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("mockapi printed no URL: %v", err)
	}
	return strings.TrimSpace(line)
}

// loadTurn is turn i of the load tests: a paced stream (400 deltas of
// ~40 bytes, 2 ms apart at the SSE level), like a fast real model, then
// its final words, which every client must end on.
func loadTurn(i int) mockapi.Response {
	r := mockapi.BigMarkdown(16<<10, 400)
	r.Items = append(r.Items, mockapi.Text(fmt.Sprintf("Final words of turn %d.", i)))
	r.ChunkDelay = 2 * time.Millisecond
	return r
}

// runTurn starts a turn on the session with prompt and waits until the
// session's own feed has its turn/completed; it returns the time from
// the start (the session's pace) and fails tb after patience.
func (fx *pairFixture) runTurn(tb testing.TB, prompt string) time.Duration {
	tb.Helper()
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	if _, err := fx.sess.StartTurn(ctx, backend.TurnInput{Text: prompt}); err != nil {
		tb.Fatal(err)
	}
	select {
	case <-fx.completed:
	case <-ctx.Done():
		tb.Fatalf("%s: turn did not complete", prompt)
	}
	return time.Since(start)
}

// dialAll connects every driver and watcher of fx, each at a terminal
// size of its own (60+5i columns, 20+i rows), and waits until each has
// the session.
func (fx *pairFixture) dialAll(tb testing.TB) []*sshClient {
	tb.Helper()
	var clients []*sshClient
	for i, k := range append(append([]sshtest.Key{}, fx.drivers...), fx.watchers...) {
		clients = append(clients, fx.dial(tb, k, 60+i*5, 20+i))
	}
	for _, c := range clients {
		c.waitReady(tb)
	}
	return clients
}

// TestServeLoad20Clients: a session shared with 20 clients (a driver and
// 19 watchers, each at its own size) streams two turns to the end, every
// client ends on each turn's final words (nothing lost, however slowly a
// busy machine draws them), and all 20 are still connected. How fast the
// session goes with them against alone is BenchmarkServeLoad20Clients.
func TestServeLoad20Clients(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	if serveRaceEnabled {
		t.Skip("the race detector makes 20 clients' drawing take minutes; the other TestServe tests cover the same paths")
	}
	fx := newPairFixture(t, 1, 19, "", "", []mockapi.Response{loadTurn(0), loadTurn(1)})
	clients := fx.dialAll(t)
	for i := range 2 {
		fx.runTurn(t, fmt.Sprint("stream ", i))
		for _, c := range clients {
			c.waitFor(t, fmt.Sprintf("Final words of turn %d.", i))
		}
	}
	if n := len(fx.ps.hub.Present()); n != len(clients) {
		t.Fatalf("%d of %d clients still connected", n, len(clients))
	}
	if n := len(fx.env.Mock.Requests()); n != 2 {
		t.Fatalf("the mock saw %d model rounds, want 2", n)
	}
}

// BenchmarkServeLoad20Clients is a session's pace shared with 20 clients
// (a driver and 19 watchers in this process, each an SSH client with a
// terminal emulator at its own size) against alone: the time from
// turn/start to turn/completed on the session's own feed of the
// loadTurn stream. It reports
//
//	alone-ms        the turn with no client (the better of two)
//	shared-ms       the turn with the 20 clients (the mean; also ns/op)
//	x-alone         shared-ms / alone-ms
//	publish-max-µs  the longest one Publish to the hub made the session's
//	                feed wait, with the 20 clients (publish-alone-µs: none)
//	cpu-%           this process's CPU over the shared turns, of one core
//	                (the 20 clients' emulators included, which on a real
//	                host live elsewhere)
//
// -benchtime=60s keeps the 20 clients streaming turns for a minute (at
// most 400 turns).
func BenchmarkServeLoad20Clients(b *testing.B) {
	if serveRaceEnabled {
		b.Skip("the race detector slows rendering ~10x: the pace means nothing")
	}
	script := []mockapi.Response{loadTurn(0), loadTurn(1)}
	for i := range 400 {
		script = append(script, loadTurn(2+i))
	}
	fx := newPairFixture(b, 1, 19, "", "", script)
	alone := min(fx.runTurn(b, "alone"), fx.runTurn(b, "alone again"))
	aloneMax := time.Duration(fx.publishMax.Swap(0))
	clients := fx.dialAll(b)
	cpu0 := cpuTime()
	turns := 0
	for b.Loop() {
		if turns == 400 {
			b.Fatal("the script's 400 turns ran out: use a shorter -benchtime")
		}
		fx.runTurn(b, fmt.Sprint("shared ", turns))
		turns++
	}
	wall, cpu := b.Elapsed(), cpuTime()-cpu0
	shared := wall / time.Duration(turns)
	if n := len(fx.ps.hub.Present()); n != len(clients) {
		b.Fatalf("%d of %d clients still connected", n, len(clients))
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(alone), "alone-ms")
	b.ReportMetric(ms(shared), "shared-ms")
	b.ReportMetric(float64(shared)/float64(alone), "x-alone")
	b.ReportMetric(float64(aloneMax)/float64(time.Microsecond), "publish-alone-µs")
	b.ReportMetric(float64(fx.publishMax.Load())/float64(time.Microsecond), "publish-max-µs")
	b.ReportMetric(100*cpu.Seconds()/wall.Seconds(), "cpu-%")
}

// TestServeLoadScale measures one streaming session (its provider, the
// mock, in a process of its own) shared with each client count in
// TANDEM_LOAD_CLIENTS (e.g. "1,10,50,100": 2 drivers, the rest watchers,
// each at its own terminal size, on loopback): the time
// until every client has its first frame, the session's turn time (its
// throughput), this process's CPU and RSS (the app-server is a child and
// not counted) and the frames a client got per second. Two of the
// watchers read their terminal slowly; they must end on the turn's final
// words.
// Skipped unless the variable is set: scripts/load-pair.sh runs it.
func TestServeLoadScale(t *testing.T) {
	spec := os.Getenv("TANDEM_LOAD_CLIENTS")
	if spec == "" {
		t.Skip("set TANDEM_LOAD_CLIENTS (scripts/load-pair.sh)")
	}
	mockBin := buildMockapi(t)
	fmt.Printf("| clients | join (all) | turn time | CPU | RSS | frames/s a client |\n|---|---|---|---|---|---|\n")
	for _, f := range strings.Split(spec, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 200 {
			t.Fatalf("TANDEM_LOAD_CLIENTS: %q is not a count of 1–200", f)
		}
		t.Run(fmt.Sprint(n, " clients"), func(t *testing.T) {
			drivers := min(2, n)
			slowN := min(2, n-drivers) // of the watchers
			// The provider runs in a process of its own, as it would be
			// remote: in this one its pacing would wait among the guests'
			// goroutines.
			url := externalMock(t, mockBin, `{"responses":[`+turnScript(0)+`,`+turnScript(1)+`]}`)
			fx := newPairFixtureOn(t, drivers, n-drivers, "", "", []mockapi.Response{loadTurn(0), loadTurn(1)}, nil, url)
			keys := append(append([]sshtest.Key{}, fx.drivers...), fx.watchers[:n-drivers-slowN]...)
			alone := fx.runTurn(t, "alone")

			t0 := time.Now()
			clients := make([]*lightClient, len(keys))
			var wg sync.WaitGroup
			errs := make(chan error, len(keys))
			// At most 8 handshakes at once: all come from 127.0.0.1, and
			// the guard keeps 16 unauthenticated connections a source.
			gate := make(chan struct{}, 8)
			for i, k := range keys {
				wg.Add(1)
				go func() {
					defer wg.Done()
					gate <- struct{}{}
					defer func() { <-gate }()
					c, err := dialLight(fx.addr, k, 60+i%100, 20+i%30)
					if err != nil {
						errs <- err
						return
					}
					clients[i] = c
					select {
					case <-c.ready:
					case <-time.After(patience):
						errs <- fmt.Errorf("client %d: no first frame", i)
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			join := time.Since(t0)
			defer func() {
				for _, c := range clients {
					c.conn.Close()
				}
			}()
			var slow []*sshClient
			for _, k := range fx.watchers[n-drivers-slowN:] {
				slow = append(slow, dialSlow(t, fx.addr, k))
			}
			for _, c := range slow {
				c.waitReady(t)
			}
			runtime.GC()
			reads0 := make([]int64, len(clients))
			for i, c := range clients {
				reads0[i] = c.reads.Load()
			}
			cpu0 := cpuTime()
			shared := fx.runTurn(t, "shared")
			cpu := cpuTime() - cpu0
			var frames int64
			for i, c := range clients {
				frames += c.reads.Load() - reads0[i]
			}
			for _, c := range slow {
				c.waitFor(t, "Final words of turn 1.")
			}
			fps := float64(frames) / float64(len(clients)) / shared.Seconds()
			fmt.Printf("| %d | %v | %v (%v alone) | %.0f%% of a core | %d MiB | %.1f |\n", n, join.Round(time.Millisecond),
				shared.Round(time.Millisecond), alone.Round(time.Millisecond), 100*cpu.Seconds()/shared.Seconds(), rssKiB()>>10, fps)
			if got := len(fx.ps.hub.Present()); got != len(clients)+len(slow) {
				t.Fatalf("%d of %d clients still connected", got, len(clients)+len(slow))
			}
		})
	}
}

// Watchers draw 30 frames a second up to 10 clients, then in proportion
// fewer, so that together they draw about 300 a second, down to 1.
func TestWatcherFrame(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want time.Duration
	}{
		{1, model.DefaultFrame}, {10, model.DefaultFrame}, {20, 2 * model.DefaultFrame},
		{100, 10 * model.DefaultFrame}, {1000, time.Second},
	} {
		if got := watcherFrame(tc.n); got != tc.want {
			t.Errorf("watcherFrame(%d) = %v, want %v", tc.n, got, tc.want)
		}
	}
}
