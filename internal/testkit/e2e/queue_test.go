package e2e

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// userTexts are the user messages of the mock's requests, each as
// typed in one of want (the environment context and instructions left
// out), for the request that holds the most of them.
func userTexts(m *mockapi.Server, want ...string) []string {
	var best []string
	for _, r := range m.Requests() {
		var got []string
		for _, u := range r.UserTexts() {
			for _, w := range want {
				if strings.Contains(u, w) {
					got = append(got, u)
					break
				}
			}
		}
		if len(got) > len(best) {
			best = got
		}
	}
	return best
}

// waitUserTexts waits until one request to the mock holds n of the
// messages want, and returns them.
func waitUserTexts(t *testing.T, m *mockapi.Server, n int, want ...string) []string {
	t.Helper()
	deadline := time.Now().Add(Patience)
	for {
		got := userTexts(m, want...)
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("the model got %q, want %d of %q", got, n, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Issue 27: Enter before the session is ready queues the message, shown
// as "sends when the session is ready"; the real app-server gets it once,
// as its own message, when the session is ready.
func TestEnterBeforeReadySentOnceAfterReady(t *testing.T) {
	e := NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("Got the early one.")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Got the second one.")}})
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 120, 40)
	u.Submit("early message")
	u.Submit("second message")
	u.WaitScreen(t, Patience, "the queue", Contains("(sends when the session is ready): early message",
		"(sends when the session is ready): second message"))
	u.Connect(t, e, "never", "read-only")
	u.WaitScreen(t, Patience, "both answers", Contains("Got the early one.", "Got the second one."))
	got := waitUserTexts(t, e.Mock, 2, "early message", "second message")
	if want := []string{"early message", "second message"}; !equalTrimmed(got, want) {
		t.Fatalf("the model got %q, want %q", got, want)
	}
	if n := len(e.Mock.Requests()); n != 2 {
		t.Fatalf("%d model requests, want 2 (one a message)", n)
	}
}

// Issue 27: two Enters while the turn is starting (turn/start sent, its
// answer held back) are queued ("sends when the turn has started") and
// reach the real app-server as two messages, in order, each once, never
// glued.
func TestTwoEntersWhileTurnStartsSentInOrder(t *testing.T) {
	e := NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.TextChunks(strings.Split(strings.Repeat("working on it. ", 40), " ")...)}, ChunkDelay: 5 * time.Millisecond},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("All three read.")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("All three read.")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("All three read.")}})
	// Hold the app-server's first word about the turn (turn/start's
	// answer or turn/started) until both lines are typed: the turn is
	// starting all that time.
	var once, released sync.Once
	release := make(chan struct{})
	let := func() { released.Do(func() { close(release) }) }
	held := make(chan struct{})
	trace := func(dir backend.Direction, line []byte) {
		if dir != backend.Received || !(bytes.Contains(line, []byte(`"turn/started"`)) || bytes.Contains(line, []byte(`"result":{"turn"`))) {
			return
		}
		once.Do(func() {
			close(held)
			<-release
		})
	}
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 120, 40)
	u.ConnectTraced(t, e, "never", "read-only", trace)
	t.Cleanup(let) // before the session closes: a failing test never leaves the app-server's lines held
	u.Submit("msg A")
	select {
	case <-held:
	case <-time.After(Patience):
		t.Fatal("turn/start was never answered")
	}
	u.Submit("msg B")
	u.Submit("msg C")
	u.WaitScreen(t, Patience, "the queue", Contains("(sends when the turn has started): msg B", "(sends when the turn has started): msg C"))
	if s := u.Screen(t); strings.Contains(s, "msg Bmsg C") {
		t.Fatalf("glued:\n%s", s)
	}
	let()
	got := waitUserTexts(t, e.Mock, 3, "msg A", "msg B", "msg C")
	if want := []string{"msg A", "msg B", "msg C"}; !equalTrimmed(got, want) {
		t.Fatalf("the model got %q, want %q", got, want)
	}
	u.WaitScreen(t, Patience, "the answer", Contains("All three read."))
	if got := userTexts(e.Mock, "msg A", "msg B", "msg C"); !equalTrimmed(got, []string{"msg A", "msg B", "msg C"}) {
		t.Fatalf("in the end the model got %q", got)
	}
}

// equalTrimmed reports whether got is want, each trimmed.
func equalTrimmed(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if strings.TrimSpace(got[i]) != want[i] {
			return false
		}
	}
	return true
}
