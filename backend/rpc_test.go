package backend

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// peer is an in-process fake app-server wired to a Conn with pipes.
type peer struct {
	conn   *Conn
	toConn *io.PipeWriter // server → client
	lines  *bufio.Reader  // client → server
	h      *recHandler
}

type recHandler struct {
	mu       sync.Mutex
	notes    []string
	requests chan *IncomingRequest
	known    map[string]bool
}

func (h *recHandler) HandleNotification(method string, params json.RawMessage) {
	h.mu.Lock()
	h.notes = append(h.notes, method+" "+string(params))
	h.mu.Unlock()
}

func (h *recHandler) HandleRequest(r *IncomingRequest) bool {
	if !h.known[r.Method] {
		return false
	}
	h.requests <- r
	return true
}

func newPeer(t *testing.T) *peer {
	t.Helper()
	sr, sw := io.Pipe() // server writes, conn reads
	cr, cw := io.Pipe() // conn writes, server reads
	h := &recHandler{requests: make(chan *IncomingRequest, 10), known: map[string]bool{"item/tool/call": true}}
	c := NewConn(sr, cw, h, nil)
	go c.Serve()
	t.Cleanup(func() { sw.Close(); cr.Close() })
	return &peer{conn: c, toConn: sw, lines: bufio.NewReaderSize(cr, 1<<20), h: h}
}

func (p *peer) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.toConn, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func (p *peer) read(t *testing.T) map[string]any {
	t.Helper()
	line, err := readLine(p.lines)
	if err != nil {
		t.Fatalf("reading client line: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatalf("client wrote invalid JSON %q: %v", line, err)
	}
	return m
}

func TestCallCorrelatesOutOfOrderResponses(t *testing.T) {
	p := newPeer(t)
	type res struct {
		v   string
		err error
	}
	results := make([]chan res, 2)
	for i := range results {
		results[i] = make(chan res, 1)
		go func(i int) {
			var out struct{ V string }
			err := p.conn.Call(context.Background(), "m", map[string]int{"i": i}, &out)
			results[i] <- res{out.V, err}
		}(i)
	}
	a, b := p.read(t), p.read(t)
	// Answer in reverse order; "jsonrpc" omitted on purpose.
	idOf := func(m map[string]any) (string, int) {
		params := m["params"].(map[string]any)
		return string(mustJSON(m["id"])), int(params["i"].(float64))
	}
	ida, ia := idOf(a)
	idb, ib := idOf(b)
	p.send(t, `{"id":`+idb+`,"result":{"V":"r`+string(rune('0'+ib))+`"}}`)
	p.send(t, `{"id":`+ida+`,"result":{"V":"r`+string(rune('0'+ia))+`"}}`)
	for i, ch := range results {
		r := <-ch
		if r.err != nil || r.v != "r"+string(rune('0'+i)) {
			t.Fatalf("call %d got %+v", i, r)
		}
	}
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

func TestCallReturnsRPCError(t *testing.T) {
	p := newPeer(t)
	p.conn.Retry = RetryPolicy{Tries: 1} // one try: -32001 comes back as is (retry_test.go covers retries)
	errc := make(chan error, 1)
	go func() { errc <- p.conn.Call(context.Background(), "x", nil, nil) }()
	m := p.read(t)
	p.send(t, `{"jsonrpc":"2.0","id":`+string(mustJSON(m["id"]))+`,"error":{"code":-32001,"message":"Server overloaded; retry later"}}`)
	err := <-errc
	var re *RPCError
	if !errors.As(err, &re) || re.Code != CodeServerOverloaded {
		t.Fatalf("got %v, want RPCError -32001", err)
	}
}

func TestCallHonoursContextCancel(t *testing.T) {
	p := newPeer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- p.conn.Call(ctx, "slow", nil, nil) }()
	p.read(t) // never answered
	select {
	case err := <-errc:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("got %v, want deadline exceeded", err)
		}
	case <-time.After(patience):
		t.Fatal("Call did not return after its context ended")
	}
}

func TestUnknownServerRequestGetsMethodNotFound(t *testing.T) {
	for _, id := range []string{`7`, `"req-7"`, `-1`, `1.5e3`} {
		t.Run(id, func(t *testing.T) {
			p := newPeer(t)
			p.send(t, `{"id":`+id+`,"method":"no/such/method","params":{}}`)
			line, err := readLine(p.lines)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(line), `"id":`+id+`,`) {
				t.Fatalf("id not echoed byte for byte: %s", line)
			}
			var m map[string]any
			_ = json.Unmarshal(line, &m)
			e, _ := m["error"].(map[string]any)
			if e == nil || e["code"].(float64) != CodeMethodNotFound {
				t.Fatalf("got %v, want error -32601", m)
			}
		})
	}
}

func TestMalformedLinesAreSkipped(t *testing.T) {
	p := newPeer(t)
	p.send(t, `this is not json`)
	p.send(t, `{"truncated":`)
	p.send(t, ``)
	p.send(t, `{"foo":1}`)
	p.send(t, `{"method":"warning","params":{"message":"still alive"}}`)
	deadline := time.Now().Add(patience)
	for time.Now().Before(deadline) {
		p.h.mu.Lock()
		n := len(p.h.notes)
		p.h.mu.Unlock()
		if n == 1 {
			if !strings.Contains(p.h.notes[0], "still alive") {
				t.Fatalf("got %v", p.h.notes)
			}
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("notification after malformed lines never arrived")
}

func TestReadsA64MiBLine(t *testing.T) {
	p := newPeer(t)
	big := strings.Repeat("x", 64<<20)
	go func() {
		_, _ = io.WriteString(p.toConn, `{"method":"warning","params":{"message":"`+big+`"}}`+"\n")
	}()
	deadline := time.Now().Add(patience)
	for time.Now().Before(deadline) {
		p.h.mu.Lock()
		n := len(p.h.notes)
		var got int
		if n > 0 {
			got = len(p.h.notes[0])
		}
		p.h.mu.Unlock()
		if n == 1 {
			if got < 64<<20 {
				t.Fatalf("line truncated to %d bytes", got)
			}
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("64 MiB line never arrived")
}

func TestConcurrentWritesStayWholeLines(t *testing.T) {
	p := newPeer(t)
	const n = 200
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_ = p.conn.Notify("note", map[string]string{"pad": strings.Repeat("y", 5000+i)})
		}(i)
	}
	seen := 0
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for seen < n {
		m := p.read(t) // fails the test on any interleaved, invalid line
		if m["method"] != "note" {
			t.Fatalf("unexpected %v", m)
		}
		seen++
	}
	<-done
}

func TestServerRequestReplyEchoesID(t *testing.T) {
	p := newPeer(t)
	p.send(t, `{"id":"abc-1","method":"item/tool/call","params":{"tool":"t"}}`)
	r := <-p.h.requests
	errc := make(chan error, 2)
	go func() {
		errc <- r.Respond(map[string]bool{"success": true})
		errc <- r.Respond(nil)
	}()
	m := p.read(t)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err == nil {
		t.Fatal("second answer was allowed")
	}
	if m["id"] != "abc-1" || m["jsonrpc"] != "2.0" {
		t.Fatalf("got %v", m)
	}
}

func TestPendingCallsFailWhenConnectionCloses(t *testing.T) {
	p := newPeer(t)
	errc := make(chan error, 1)
	go func() { errc <- p.conn.Call(context.Background(), "x", nil, nil) }()
	p.read(t)
	p.toConn.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, ErrClosed) {
			t.Fatalf("got %v, want ErrClosed", err)
		}
	case <-time.After(patience):
		t.Fatal("pending call hung after close")
	}
}
