package backend

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// pipeTransport connects a Session to an in-process fake app-server.
type pipeTransport struct {
	serverIn  *bufio.Reader  // what the session wrote
	serverOut *io.PipeWriter // what the fake server says
	stream    *pipeStream
}

type pipeStream struct {
	stdout *io.PipeReader
	stdin  *io.PipeWriter
	done   chan struct{}
}

func (p *pipeStream) Stdout() io.Reader       { return p.stdout }
func (p *pipeStream) Stdin() io.WriteCloser   { return p.stdin }
func (p *pipeStream) Wait() error             { <-p.done; return nil }
func (p *pipeStream) StderrTail(int) []string { return []string{"fake stderr line"} }
func (p *pipeStream) Describe() string        { return "fake" }
func (p *pipeStream) Close() error {
	p.stdin.Close()
	p.stdout.Close()
	select {
	case <-p.done:
	default:
		close(p.done)
	}
	return nil
}

func newPipeTransport() *pipeTransport {
	outR, outW := io.Pipe()
	inR, inW := io.Pipe()
	return &pipeTransport{
		serverIn:  bufio.NewReader(inR),
		serverOut: outW,
		stream:    &pipeStream{stdout: outR, stdin: inW, done: make(chan struct{})},
	}
}

func (p *pipeTransport) Start() (Stream, error) { return p.stream, nil }

// fakeServer answers initialize and thread/start, then lets the test script
// the rest.
func (p *pipeTransport) next(t *testing.T) map[string]any {
	t.Helper()
	line, err := readLine(p.serverIn)
	if err != nil {
		t.Fatalf("fake server read: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatalf("session wrote invalid JSON %q", line)
	}
	return m
}

func (p *pipeTransport) say(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.serverOut, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func startFakeSession(t *testing.T) (*Session, *pipeTransport, chan any) {
	t.Helper()
	pt := newPipeTransport()
	got := make(chan any, 100)
	type res struct {
		s   *Session
		err error
	}
	rc := make(chan res, 1)
	go func() {
		s, err := StartSession(context.Background(), SessionOptions{Transport: pt, ClientVersion: "1.2.3", Sink: func(v any) { got <- v }})
		rc <- res{s, err}
	}()
	init := pt.next(t)
	if init["method"] != "initialize" {
		t.Fatalf("first message %v, want initialize", init)
	}
	params := init["params"].(map[string]any)
	ci := params["clientInfo"].(map[string]any)
	caps := params["capabilities"].(map[string]any)
	if ci["name"] != "tandem" || ci["version"] != "1.2.3" || caps["experimentalApi"] != true {
		t.Fatalf("initialize params %v", params)
	}
	pt.say(t, `{"id":`+string(mustJSON(init["id"]))+`,"result":{"userAgent":"fake/0.169.0"}}`)
	if n := pt.next(t); n["method"] != "initialized" || n["id"] != nil {
		t.Fatalf("want initialized notification, got %v", n)
	}
	r := <-rc
	if r.err != nil {
		t.Fatal(r.err)
	}
	t.Cleanup(func() { r.s.Close() })

	go func() {
		_, _ = r.s.StartThread(context.Background())
	}()
	ts := pt.next(t)
	if ts["method"] != "thread/start" {
		t.Fatalf("want thread/start, got %v", ts)
	}
	tools := ts["params"].(map[string]any)["dynamicTools"].([]any)
	if tools[0].(map[string]any)["name"] != AskUserQuestionName {
		t.Fatalf("ask_user_question not registered: %v", tools)
	}
	pt.say(t, `{"id":`+string(mustJSON(ts["id"]))+`,"result":{"thread":{"id":"th-1"},"model":"m","cwd":"/w","approvalPolicy":"never","sandbox":{"type":"workspaceWrite"}}}`)
	for deadline := time.Now().Add(patience); r.s.ThreadID() != "th-1"; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the session never took thread th-1")
		}
	}
	return r.s, pt, got
}

func TestSessionDropsOtherThreadsAndRefusesTheirRequests(t *testing.T) {
	_, pt, got := startFakeSession(t)
	pt.say(t, `{"method":"item/agentMessage/delta","params":{"threadId":"other","turnId":"t","itemId":"i","delta":"not mine"}}`)
	pt.say(t, `{"id":41,"method":"item/commandExecution/requestApproval","params":{"threadId":"other","turnId":"t","itemId":"c"}}`)
	refusal := pt.next(t)
	if string(mustJSON(refusal["id"])) != "41" || !strings.Contains(string(mustJSON(refusal["result"])), `"cancel"`) {
		t.Fatalf("request for another thread answered %v, want cancel", refusal)
	}
	pt.say(t, `{"method":"item/agentMessage/delta","params":{"threadId":"th-1","turnId":"t","itemId":"i","delta":"mine"}}`)
	select {
	case v := <-got:
		d, ok := v.(AgentMessageDeltaEvent)
		if !ok || d.Delta != "mine" {
			t.Fatalf("first delivered value %#v, want the current thread's delta", v)
		}
	case <-time.After(patience):
		t.Fatal("delta for the current thread never arrived")
	}
}

func TestSessionDeliversTypedRequestsAndReportsExit(t *testing.T) {
	_, pt, got := startFakeSession(t)
	pt.say(t, `{"id":"x-9","method":"item/tool/call","params":{"threadId":"th-1","turnId":"t","callId":"c1","tool":"ask_user_question","arguments":{"questions":[{"id":"a","question":"?"}]}}}`)
	var req *ToolCallRequest
	select {
	case v := <-got:
		var ok bool
		if req, ok = v.(*ToolCallRequest); !ok {
			t.Fatalf("got %#v, want *ToolCallRequest", v)
		}
	case <-time.After(patience):
		t.Fatal("request never arrived")
	}
	go func() { _ = req.Succeed(`{"a":["yes"]}`) }()
	reply := pt.next(t)
	want := `{"contentItems":[{"text":"{\"a\":[\"yes\"]}","type":"inputText"}],"success":true}` // keys sorted by re-marshalling
	if reply["id"] != "x-9" || string(mustJSON(reply["result"])) != want {
		t.Fatalf("reply %v", reply)
	}
	pt.serverOut.Close() // the fake closes its output but lingers: the session must reap it
	deadline := time.After(patience)
	for {
		select {
		case v := <-got:
			if e, ok := v.(ServerExitedEvent); ok {
				if len(e.Stderr) == 0 {
					t.Fatal("exit event without stderr tail")
				}
				return
			}
		case <-deadline:
			t.Fatal("no ServerExitedEvent after the server closed its output")
		}
	}
}
