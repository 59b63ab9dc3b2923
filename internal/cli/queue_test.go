package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"tandem/backend"
)

// Every wrong `tandem queue` is a usage error (exit 2) found before
// anything starts: /bin/true as codex would fail any start.
func TestQueueBadUsage(t *testing.T) {
	over := strings.Repeat("é", backend.MaxUserInputChars+1) // characters, not bytes
	cases := []struct {
		name  string
		args  []string
		stdin string
		want  string
	}{
		{"no arguments", []string{"queue"}, "", "accepts between 1 and 2 arg(s)"},
		{"no message", []string{"queue", "0199a4f2-0000-7000-8000-000000000001"}, "", "give THREAD MESSAGE"},
		{"three arguments", []string{"queue", "a", "b", "c"}, "", "accepts between 1 and 2 arg(s)"},
		{"--last with a thread too", []string{"queue", "--last", "a", "b"}, "", "give MESSAGE alone with --last"},
		{"empty message", []string{"queue", "my-thread", ""}, "", "the message is empty"},
		{"blank message", []string{"queue", "my-thread", " \n\t"}, "", "the message is empty"},
		{"empty stdin", []string{"queue", "--last", "-"}, "", "the message is empty"},
		{"over codex's limit", []string{"queue", "my-thread", over}, "", fmt.Sprintf("has %d characters; codex takes at most %d", backend.MaxUserInputChars+1, backend.MaxUserInputChars)},
		{"over the limit on stdin", []string{"queue", "my-thread", "-"}, over, "codex takes at most"},
		{"a turn's flag", []string{"queue", "-m", "gpt", "my-thread", "hi"}, "", "unknown shorthand flag"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := newRootCmd()
			usageArgs(root)
			root.SetArgs(append(c.args, "--codex", "/bin/true"))
			root.SetIn(strings.NewReader(c.stdin))
			root.SetOut(io.Discard)
			root.SetErr(io.Discard)
			err := root.Execute()
			var ue *usageError
			if !errors.As(err, &ue) {
				t.Fatalf("tandem %v: got %v, want a usage error", c.args, err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q; want it to say %q", err, c.want)
			}
		})
	}
}

// TestQueueText: what is sent is the argument, or stdin for "-", whole;
// exactly codex's limit is taken.
func TestQueueText(t *testing.T) {
	atLimit := strings.Repeat("é", backend.MaxUserInputChars)
	cases := []struct{ arg, stdin, want string }{
		{"run the tests", "ignored", "run the tests"},
		{"-", "line one\nline two\n", "line one\nline two\n"},
		{atLimit, "", atLimit},
	}
	for _, c := range cases {
		got, err := queueText(c.arg, strings.NewReader(c.stdin))
		if err != nil || got != c.want {
			t.Errorf("queueText(%.20q) = %.20q, %v; want %.20q", c.arg, got, err, c.want)
		}
	}
}

func TestLooksLikeID(t *testing.T) {
	cases := map[string]bool{
		"01a2361d-99de-7ed2-8aec-77ab2af3cc08": true,
		"01A2361D-99DE-7ED2-8AEC-77AB2AF3CC08": true,
		"01a2361d-99de-7ed2-8aec-77ab2af3cc0":  false, // one short
		"01a2361d_99de-7ed2-8aec-77ab2af3cc08": false,
		"01a2361g-99de-7ed2-8aec-77ab2af3cc08": false,
		"fix the tests":                        false,
		"":                                     false,
	}
	for s, want := range cases {
		if got := looksLikeID(s); got != want {
			t.Errorf("looksLikeID(%q) = %v; want %v", s, got, want)
		}
	}
}

func status(typ string) *backend.ThreadStatus { return &backend.ThreadStatus{Type: typ} }

// TestQueueOutcome: what `tandem queue` says follows the thread's status
// on the server and whether the message still waits after the add.
func TestQueueOutcome(t *testing.T) {
	name := "fix tests"
	const id = "01a2361d-99de-7ed2-8aec-77ab2af3cc08"
	cases := []struct {
		name    string
		thread  backend.Thread
		waiting bool
		want    string
	}{
		{"a turn runs", backend.Thread{ID: id, Status: status("active")}, true, "queued for thread " + id + ": runs when its turn ends"},
		{"named", backend.Thread{ID: id, Name: &name, Status: status("active")}, true, `queued for thread "fix tests" (` + id + "): runs when its turn ends"},
		{"idle: started", backend.Thread{ID: id, Status: status("idle")}, false, "queued for thread " + id + ": the thread is idle, started now"},
		{"idle, a turn started meanwhile", backend.Thread{ID: id, Status: status("idle")}, true, "queued for thread " + id + ": runs when its turn ends"},
		{"not loaded", backend.Thread{ID: id, Status: status("notLoaded")}, true, "no app-server here has the thread open; it runs when its turn ends where it is open, or when it is next resumed (tandem resume " + id + ")"},
		{"no status", backend.Thread{ID: id}, true, "when it is next resumed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := queueOutcome(c.thread, c.waiting); !strings.Contains(got, c.want) {
				t.Errorf("queueOutcome = %q; want %q", got, c.want)
			}
		})
	}
}

// lister is a server's threads: pages of thread/list (each call the next
// page), thread/read by id.
type lister struct {
	pages [][]backend.Thread
	read  map[string]backend.Thread
	last  backend.ThreadListParams // the last thread/list's params
}

func (l *lister) ReadThread(_ context.Context, id string) (backend.Thread, error) {
	t, ok := l.read[id]
	if !ok {
		return backend.Thread{}, errors.New("thread/read: no rollout found for thread id " + id)
	}
	t.ID = "" // thread/read leaves it to the caller
	return t, nil
}

func (l *lister) ListThreads(_ context.Context, p backend.ThreadListParams) (backend.ThreadListResponse, error) {
	l.last = p
	i := 0
	if p.Cursor != nil {
		fmt.Sscan(*p.Cursor, &i)
	}
	var resp backend.ThreadListResponse
	if i < len(l.pages) {
		resp.Data = l.pages[i]
	}
	if i+1 < len(l.pages) {
		next := fmt.Sprint(i + 1)
		resp.NextCursor = &next
	}
	return resp, nil
}

func named(id, name string) backend.Thread { return backend.Thread{ID: id, Name: &name} }

// TestFindQueueThread: an id is read, a name matched exactly over every
// page (one thread only), --last is the workspace's newest thread.
func TestFindQueueThread(t *testing.T) {
	const a, b = "01a2361d-0000-7000-8000-00000000000a", "01a2361d-0000-7000-8000-00000000000b"
	threads := &lister{
		pages: [][]backend.Thread{{named(a, "fix tests")}, {named(b, "docs"), named("c", "fix tests too")}},
		read:  map[string]backend.Thread{a: {Status: status("active")}, b: {Status: status("idle")}},
	}
	twice := &lister{pages: [][]backend.Thread{{named(a, "dup")}, {named(b, "dup")}}}
	empty := &lister{}
	cases := []struct {
		name    string
		l       *lister
		opts    QueueOptions
		want    string // the thread's id
		status  string
		wantErr string
	}{
		{"by id", threads, QueueOptions{Thread: a}, a, "active", ""},
		{"an unknown id", threads, QueueOptions{Thread: "01a2361d-0000-7000-8000-0000000000ff"}, "", "", "no thread 01a2361d-0000-7000-8000-0000000000ff on this server"},
		{"by name on the first page", threads, QueueOptions{Thread: "fix tests"}, a, "active", ""},
		{"by name on the second page", threads, QueueOptions{Thread: "docs"}, b, "idle", ""},
		{"a name matched whole only", threads, QueueOptions{Thread: "fix"}, "", "", `no thread named "fix"`},
		{"a name two threads have", twice, QueueOptions{Thread: "dup"}, "", "", `2 threads are named "dup" (` + a + ", " + b + "): give the id"},
		{"--last", threads, QueueOptions{Last: true}, a, "active", ""},
		{"--last with none", empty, QueueOptions{Last: true}, "", "", "queue --last: no thread in /work/x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := findQueueThread(context.Background(), c.l, c.opts, "/work/x")
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v; want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.ID != c.want || got.Status == nil || got.Status.Type != c.status {
				t.Errorf("thread %s (status %v); want %s (%s)", got.ID, got.Status, c.want, c.status)
			}
			if c.opts.Last && (c.l.last.Cwd != "/work/x" || c.l.last.SortKey != backend.SortUpdated) {
				t.Errorf("--last listed %+v; want the workspace's newest", c.l.last)
			}
		})
	}
}

// TestQueueRefused: a codex without the queue is named with its version
// and what to do; any other refusal is the server's own.
func TestQueueRefused(t *testing.T) {
	missing := fmt.Errorf("thread/queue/add: %w", &backend.RPCError{Code: backend.CodeMethodNotFound, Message: "method not found"})
	err := queueRefused(missing, "codex_cli_rs/0.160.0 (Linux)")
	for _, want := range []string{"codex 0.160.0 has no server queue", "update codex", "--codex PATH"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	other := fmt.Errorf("thread/queue/add: %w", &backend.RPCError{Code: -32603, Message: "failed to read thread"})
	if got := queueRefused(other, "codex_cli_rs/0.169.0").Error(); got != other.Error() {
		t.Errorf("queueRefused(%q) = %q; want it as is", other, got)
	}
}
