package backend

import (
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
)

// nopStream is a Stream that only counts Close calls.
type nopStream struct{ closed atomic.Int32 }

func (n *nopStream) Stdout() io.Reader       { return strings.NewReader("") }
func (n *nopStream) Stdin() io.WriteCloser   { return nil }
func (n *nopStream) Wait() error             { return nil }
func (n *nopStream) StderrTail(int) []string { return nil }
func (n *nopStream) Close() error            { n.closed.Add(1); return nil }
func (n *nopStream) Describe() string        { return "ssh h" }

// TestSSHNoiseThenStrict: before the first JSON message non-JSON lines
// are dropped; after it a malformed line ends the connection, while a
// plain local Conn (no hooks) keeps logging and skipping.
func TestSSHNoiseThenStrict(t *testing.T) {
	in := strings.Join([]string{
		"motd: welcome",
		"",
		"{not json",
		`{"id":1,"result":{}}`,
		`{"method":"thread/started","params":{}}`,
		"garbage after start",
		`{"method":"never/seen","params":{}}`,
	}, "\n") + "\n"

	inner := &nopStream{}
	s := &sshStream{Stream: inner, host: "h", log: slog.New(slog.DiscardHandler)}
	c := NewConn(strings.NewReader(in), io.Discard, nil, nil)
	c.Filter, c.Malformed = s.Filter, s.Malformed
	var seen []string
	c.Trace = func(_ Direction, line []byte) { seen = append(seen, string(line)) }
	err := c.Serve()
	var re *RemoteError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "ssh h: malformed line from the app-server: garbage after start") {
		t.Fatalf("Serve() = %v, want the malformed line named", err)
	}
	if len(seen) != 3 || seen[0] != `{"id":1,"result":{}}` {
		t.Fatalf("dispatched %q, want the two JSON lines and the bad one", seen)
	}
	if s.skipped != 2 {
		t.Fatalf("skipped %d noise lines, want 2", s.skipped)
	}
	if got := s.Wait(); got != err {
		t.Fatalf("Wait() = %v, want the protocol error", got)
	}

	// Local: same input, no hooks: everything is read to EOF.
	local := NewConn(strings.NewReader(in), io.Discard, nil, nil)
	if err := local.Serve(); err != io.EOF {
		t.Fatalf("local Serve() = %v, want io.EOF", err)
	}
}
