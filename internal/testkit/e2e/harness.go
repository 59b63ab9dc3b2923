// Package e2e is the shared harness for end-to-end tests: it runs the real
// `codex app-server` (the pinned 0.169.0 from scripts/install-codex.sh)
// against the project's scripted mock of the Responses API
// (internal/testkit/mockapi), through tandem's own backend.
//
// Tests that need codex find it with codextest.Path (through NewEnv), which
// skips when codex is missing — except in CI (env CI set), where a missing
// codex fails the test, so e2e tests never skip silently there.
package e2e

import (
	"context"
	"os"
	"reflect"
	"testing"
	"time"

	"tandem/backend"
	"tandem/internal/testkit/codextest"
	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// Patience is how long a test waits for what it expects (a screen, an
// event, a request, an exit) before it calls it a hang and fails. It only
// catches hangs: a slow or busy machine (the race detector, packages
// tested in parallel, a loaded 2-core CI runner) makes a test slower,
// never failing. No test asserts how fast something happened; speed lives
// in the benchmarks (docs/PERFORMANCE.md).
const Patience = 3 * time.Minute

// Env is one test's world: the mock provider, a CODEX_HOME pointing codex
// at it, and a workspace directory.
type Env struct {
	Codex string
	Mock  *mockapi.Server
	Home  string // CODEX_HOME
	Dir   string // workspace (cwd of the agent)
}

// NewEnv starts the mock with the scripted responses and prepares
// CODEX_HOME and a workspace; everything is removed when t ends.
func NewEnv(t testing.TB, responses ...mockapi.Response) *Env {
	t.Helper()
	codex := codextest.Path(t)
	m, home := mockapi.NewHome(t, responses...)
	dir := t.TempDir()
	return &Env{Codex: codex, Mock: m, Home: home, Dir: dir}
}

// Environ is the process environment for codex: tandem's plus CODEX_HOME.
func (e *Env) Environ() []string {
	return append(os.Environ(), "CODEX_HOME="+e.Home)
}

// Transport returns a process transport running the real app-server.
func (e *Env) Transport() *backend.ProcessTransport {
	return &backend.ProcessTransport{Path: e.Codex, Dir: e.Dir, Env: e.Environ(), Grace: 2 * time.Second}
}

// Session starts a session on a fresh app-server with approval policy and
// sandbox, opens a thread, and returns it with the channel its events and
// requests arrive on. The session is closed when t ends.
func (e *Env) Session(t testing.TB, approval, sandbox string) (*backend.Session, <-chan any) {
	t.Helper()
	ch := make(chan any, 100000)
	s, _ := startSession(t, Patience, e.Transport(), e.Dir, approval, sandbox, nil, func(msg any) { ch <- msg })
	return s, ch
}

// ReadySession starts a session on a fresh app-server with approval
// policy and sandbox, its protocol traced to trace (nil: not traced) and
// its events and requests sent to send; it opens a thread and then sends
// send the model.SessionReadyMsg for it, as tandem does once a session is
// ready. The session is closed when t ends.
func (e *Env) ReadySession(t testing.TB, approval, sandbox string, trace func(backend.Direction, []byte), send func(any)) *backend.Session {
	t.Helper()
	s, resp := startSession(t, Patience, e.Transport(), e.Dir, approval, sandbox, trace, send)
	send(readyMsg(s, resp))
	return s
}

// readyMsg is the model's message for the thread of resp, opened by s.
func readyMsg(s *backend.Session, resp backend.ThreadResponse) model.SessionReadyMsg {
	name := ""
	if resp.Thread.Name != nil {
		name = *resp.Thread.Name
	}
	return model.SessionReadyMsg{Client: s, ThreadID: resp.Thread.ID, ThreadName: name, Created: resp.Thread.CreatedAt, Model: resp.Model, Cwd: resp.Cwd, ThreadCwd: resp.Cwd,
		Approval: backend.PolicyString(resp.ApprovalPolicy), Sandbox: resp.Sandbox.Mode(), Peer: s.Describe()}
}

// startSession starts a session over tr in cwd with approval policy and
// sandbox, its protocol traced to trace (nil: none), whose events and
// requests go to sink, and opens a thread, all within timeout; any
// failure fails the test. The session is closed when t ends.
func startSession(t testing.TB, timeout time.Duration, tr backend.Transport, cwd, approval, sandbox string, trace func(backend.Direction, []byte), sink func(any)) (*backend.Session, backend.ThreadResponse) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	s, err := backend.StartSession(ctx, backend.SessionOptions{
		Transport:      tr,
		ClientVersion:  "test",
		Cwd:            cwd,
		ApprovalPolicy: approval,
		Sandbox:        sandbox,
		Sink:           sink,
		Trace:          trace,
		InitTimeout:    timeout, // not the product's 30 s: a busy machine starts codex slowly
	})
	if err != nil {
		t.Fatalf("starting session: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	resp, err := s.StartThread(ctx)
	if err != nil {
		t.Fatalf("starting a thread: %v", err)
	}
	return s, resp
}

// Await reads from ch until a value of type T arrives and returns it,
// failing the test after timeout. Values of other types are passed to
// skip (which may be nil).
func Await[T any](t testing.TB, ch <-chan any, timeout time.Duration, skip func(any)) T {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case v, ok := <-ch:
			if !ok {
				var zero T
				t.Fatalf("stream ended while waiting for %v", reflect.TypeOf(zero))
			}
			if x, ok := v.(T); ok {
				return x
			}
			if skip != nil {
				skip(v)
			}
		case <-deadline:
			var zero T
			t.Fatalf("timed out after %v waiting for %v", timeout, reflect.TypeOf(zero))
		}
	}
}
