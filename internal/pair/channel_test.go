package pair

import (
	"bytes"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// filterRequests passes a session's requests on except the ones that
// could cost the host without bound: signals, oversized payloads, env
// past its caps, and window changes before the terminal starts.
func TestFilterRequests(t *testing.T) {
	in := make(chan *gossh.Request)
	out := make(chan *gossh.Request, 1000)
	read := make(chan struct{})
	close(read)
	go filterRequests(in, out, read)
	send := []*gossh.Request{
		{Type: "window-change", Payload: make([]byte, 16)},            // before the shell: dropped
		{Type: "signal", Payload: []byte("\x00\x00\x00\x03INT")},      // refused
		{Type: "pty-req", Payload: make([]byte, 200)},                 // passed
		{Type: "x-unknown", Payload: make([]byte, maxRequestBytes+1)}, // too big
		{Type: "shell"}, // passed
		{Type: "window-change", Payload: make([]byte, 16)}, // passed
	}
	for i := range maxEnvRequests + 10 {
		send = append(send, &gossh.Request{Type: "env", Payload: bytes.Repeat([]byte{'x'}, 10+i%2)})
	}
	for _, r := range send {
		in <- r
	}
	close(in)
	var got []string
	envs := 0
	for r := range out {
		if r.Type == "env" {
			envs++
			continue
		}
		got = append(got, r.Type)
	}
	want := []string{"pty-req", "shell", "window-change"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("passed %v, want %v", got, want)
	}
	if envs != maxEnvRequests {
		t.Errorf("%d env requests passed, want %d", envs, maxEnvRequests)
	}
}

// Until the handler has read the pty, window changes after the start are
// held, the latest only; then it passes, and later ones pass at once.
func TestFilterRequestsHoldsWindowChangesUntilPtyRead(t *testing.T) {
	in := make(chan *gossh.Request)
	out := make(chan *gossh.Request, 10)
	read := make(chan struct{})
	go filterRequests(in, out, read)
	in <- &gossh.Request{Type: "pty-req"}
	in <- &gossh.Request{Type: "shell"}
	in <- &gossh.Request{Type: "window-change", Payload: []byte{1}}
	in <- &gossh.Request{Type: "window-change", Payload: []byte{2}}
	if r := <-out; r.Type != "pty-req" {
		t.Fatalf("got %s", r.Type)
	}
	if r := <-out; r.Type != "shell" {
		t.Fatalf("got %s", r.Type)
	}
	select {
	case r := <-out:
		t.Fatalf("%s passed before the pty was read", r.Type)
	case <-time.After(50 * time.Millisecond):
	}
	close(read)
	if r := <-out; r.Type != "window-change" || r.Payload[0] != 2 {
		t.Fatalf("after the read: %s %v, want the latest window change", r.Type, r.Payload)
	}
	in <- &gossh.Request{Type: "window-change", Payload: []byte{3}}
	if r := <-out; r.Payload[0] != 3 {
		t.Fatalf("later window change: %v", r.Payload)
	}
	close(in)
}
