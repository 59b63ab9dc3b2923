package mockapi_test

// A tiny line-based JSON-RPC client for `codex app-server --listen stdio://`,
// only for these tests.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"tandem/internal/testkit/codextest"
	"tandem/internal/testkit/mockapi"
)

// rpcMsg is any JSON-RPC message: a response (ID+Result/Error), a
// notification (Method+Params) or a server request (ID+Method+Params).
type rpcMsg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data,omitempty"`
	} `json:"error,omitempty"`
}

func (m rpcMsg) isResponse() bool { return len(m.ID) > 0 && m.Method == "" }
func (m rpcMsg) isRequest() bool  { return len(m.ID) > 0 && m.Method != "" }

type appServer struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	msgs   chan rpcMsg
	stderr *lockedBuffer
	nextID int
	// backlog holds notifications and server requests read while waiting
	// for a response.
	backlog []rpcMsg
	// log of every message received (for failure output).
	mu  sync.Mutex
	log []string
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.b.Len() > 1<<20 {
		return len(p), nil
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startCodex starts the app server with CODEX_HOME pointing at a fresh temp
// dir configured for srv, and performs the initialize handshake.
func startCodex(t *testing.T, srv *mockapi.Server) *appServer {
	t.Helper()
	return startCodexConfigured(t, srv, false)
}

// startCodexConfigured starts codex on the mock through a config.toml in
// its CODEX_HOME, or with overrides set through -c flags only (an
// empty CODEX_HOME).
func startCodexConfigured(t *testing.T, srv *mockapi.Server, overrides bool) *appServer {
	t.Helper()
	bin := codextest.Path(t)
	home := t.TempDir()
	args := []string{"app-server", "--strict-config", "--listen", "stdio://"}
	if overrides {
		args = append(args, mockapi.Overrides(srv.URL)...)
	} else if err := mockapi.WriteCodexHome(home, srv.URL); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "CODEX_HOME="+home, "RUST_LOG=warn", "NO_COLOR=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	a := &appServer{t: t, cmd: cmd, msgs: make(chan rpcMsg, 4096), stderr: &lockedBuffer{}}
	cmd.Stderr = a.stderr
	var err error
	if a.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(a.msgs)
		r := bufio.NewReaderSize(stdout, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				a.record("<- " + string(bytes.TrimSpace(line)))
				var m rpcMsg
				if jerr := json.Unmarshal(line, &m); jerr == nil {
					a.msgs <- m
				}
			}
			if err != nil {
				return
			}
		}
	}()
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		a.stdin.Close()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
		}
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		if t.Failed() {
			t.Logf("codex stderr:\n%s", tail(a.stderr.String(), 4000))
			a.mu.Lock()
			t.Logf("protocol log (last %d):\n%s", min(len(a.log), 60), tail(joinLines(a.log), 8000))
			a.mu.Unlock()
			for i, h := range srv.Hits() {
				t.Logf("mock hit %d: %s %s", i, h.Method, h.Path)
			}
		}
	})

	a.call("initialize", map[string]any{
		"clientInfo":   map[string]any{"name": "tandem-test", "title": nil, "version": "0"},
		"capabilities": map[string]any{"experimentalApi": true},
	}, patience)
	a.notify("initialized", nil)
	return a
}

func (a *appServer) record(s string) {
	a.mu.Lock()
	a.log = append(a.log, s)
	a.mu.Unlock()
}

func (a *appServer) send(v any) {
	a.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		a.t.Fatal(err)
	}
	a.record("-> " + string(b))
	if _, err := a.stdin.Write(append(b, '\n')); err != nil {
		a.t.Fatalf("writing to app-server: %v", err)
	}
}

func (a *appServer) notify(method string, params any) {
	a.t.Helper()
	m := map[string]any{"method": method}
	if params != nil {
		m["params"] = params
	}
	a.send(m)
}

// respond answers a server request.
func (a *appServer) respond(id json.RawMessage, result any) {
	a.t.Helper()
	a.send(map[string]any{"id": id, "result": result})
}

// call sends a request and waits for its response, keeping anything else
// that arrives meanwhile in the backlog. It fails the test on an error
// response.
func (a *appServer) call(method string, params any, timeout time.Duration) json.RawMessage {
	a.t.Helper()
	a.nextID++
	id := a.nextID
	a.send(map[string]any{"id": id, "method": method, "params": params})
	want := fmt.Sprint(id)
	deadline := time.After(timeout)
	for {
		select {
		case m, ok := <-a.msgs:
			if !ok {
				a.t.Fatalf("%s: app-server exited", method)
			}
			if m.isResponse() && string(m.ID) == want {
				if m.Error != nil {
					a.t.Fatalf("%s: error %d: %s %s", method, m.Error.Code, m.Error.Message, m.Error.Data)
				}
				return m.Result
			}
			a.backlog = append(a.backlog, m)
		case <-deadline:
			a.t.Fatalf("%s: no response within %v", method, timeout)
		}
	}
}

var errTimeout = errors.New("timeout")

// next returns the next notification or server request.
func (a *appServer) next(deadline <-chan time.Time) (rpcMsg, error) {
	if len(a.backlog) > 0 {
		m := a.backlog[0]
		a.backlog = a.backlog[1:]
		return m, nil
	}
	select {
	case m, ok := <-a.msgs:
		if !ok {
			return rpcMsg{}, io.EOF
		}
		return m, nil
	case <-deadline:
		return rpcMsg{}, errTimeout
	}
}

// runTurn reads messages until turn/completed, handing server requests to
// onRequest (which must answer them) and collecting every notification.
func (a *appServer) runTurn(timeout time.Duration, onRequest func(rpcMsg)) []rpcMsg {
	a.t.Helper()
	deadline := time.After(timeout)
	var notes []rpcMsg
	for {
		m, err := a.next(deadline)
		if err != nil {
			a.t.Fatalf("waiting for turn/completed: %v", err)
		}
		switch {
		case m.isRequest():
			if onRequest == nil {
				a.t.Fatalf("unexpected server request %s %s", m.Method, m.Params)
			}
			onRequest(m)
		case m.Method != "":
			notes = append(notes, m)
			if m.Method == "turn/completed" {
				return notes
			}
		}
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

func joinLines(ls []string) string {
	if len(ls) > 60 {
		ls = ls[len(ls)-60:]
	}
	var b bytes.Buffer
	for _, l := range ls {
		if len(l) > 600 {
			l = l[:600] + "..."
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// field unmarshals a JSON value into a generic map.
func obj(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("decoding %s: %v", raw, err)
	}
	return m
}

// path walks a generic JSON value by keys.
func path(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}
