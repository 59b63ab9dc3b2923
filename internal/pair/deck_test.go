package pair

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/deck"
	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// laneHost is a Host for the tests: a new thread is another lane of the
// fixture's session, fed into its own hub, as internal/cli's serveHost
// does; the other actions say what they were asked.
type laneHost struct {
	fx   *pairFixture
	mu   sync.Mutex
	next deck.LaneID
	did  []string
}

func (h *laneHost) New(prompt string, worktree bool) tea.Cmd { return h.NewBy("", prompt, worktree) }

func (h *laneHost) NewBy(who, prompt string, _ bool) tea.Cmd {
	h.mu.Lock()
	h.next++
	id := h.next
	h.did = append(h.did, who+" new "+prompt)
	h.mu.Unlock()
	return func() tea.Msg {
		ps := h.fx.ps
		ps.AddLane(deck.Lane{ID: id, Title: prompt})
		lane := h.fx.sess.Open(func(msg any) { ps.PublishLane(id, msg) })
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		resp, err := lane.StartThreadIn(ctx, "")
		if err != nil {
			return deck.Result{Lane: id, Err: err}
		}
		ps.PublishLane(id, model.SessionReadyMsg{Client: lane, ThreadID: resp.Thread.ID, Model: resp.Model, Cwd: resp.Cwd, ThreadCwd: resp.Cwd,
			Approval: backend.PolicyString(resp.ApprovalPolicy), Sandbox: resp.Sandbox.Mode(), Peer: lane.Describe()})
		ps.Prompted(id, who, prompt)
		if _, err := lane.StartTurn(ctx, backend.TurnInput{Text: prompt}); err != nil {
			return deck.Result{Lane: id, Err: err}
		}
		return deck.Result{Lane: id, What: "started a thread"}
	}
}

func (h *laneHost) say(what string, id deck.LaneID) tea.Cmd {
	h.mu.Lock()
	h.did = append(h.did, what)
	h.mu.Unlock()
	return func() tea.Msg { return deck.Result{Lane: id, What: what} }
}

func (h *laneHost) Rename(id deck.LaneID, _ string) tea.Cmd { return h.say("rename", id) }
func (h *laneHost) Archive(id deck.LaneID) tea.Cmd          { return h.say("archive", id) }
func (h *laneHost) Interrupt(id deck.LaneID) tea.Cmd        { return h.say("interrupt", id) }
func (h *laneHost) Stop(id deck.LaneID) tea.Cmd {
	h.say("stop", id)
	return func() tea.Msg { return deck.DropLane{Lane: id} }
}

func (h *laneHost) Threads(bool) tea.Cmd                          { return nil }
func (h *laneHost) Resume(string) tea.Cmd                         { return h.say("resume", -1) }
func (h *laneHost) Merge(id deck.LaneID) tea.Cmd                  { return h.say("merge", id) }
func (h *laneHost) RemoveWorktree(id deck.LaneID, _ bool) tea.Cmd { return h.say("remove", id) }
func (h *laneHost) CommitMerge(id deck.LaneID, _ string, _ []string) tea.Cmd {
	return h.say("commit-merge", id)
}

func (h *laneHost) calls() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.did...)
}

// Keys as a terminal sends them.
const (
	keyF4    = "\x1bOS"
	keyTab   = "\t"
	keyDown  = "\x1b[B"
	keyEnter = "\r"
)

// TestServeSharedDeck: a driver and a watcher share the command center.
// The driver starts a second thread from it; both decks list both
// threads. The watcher's keys for the list's actions and for answering
// from the inbox do nothing but say so, and its inbox shows the second
// thread's approval read-only; the driver answers it from the inbox, and
// the answer reaches that thread's request: its turn goes on, and both
// see it in the second thread. The driver stops the second thread: it
// goes from both decks.
func TestServeSharedDeck(t *testing.T) {
	fx := newPairFixture(t, 1, 1, "untrusted", "workspace-write", []mockapi.Response{
		{Items: []mockapi.Item{mockapi.ExecCommand("echo hi > out.txt")}},
		{Items: []mockapi.Item{mockapi.Text("Lane two wrote the file.")}},
	})
	host := &laneHost{fx: fx}
	fx.ps.deckHost = host
	d, w := fx.dial(t, fx.drivers[0], 110, 30), fx.dial(t, fx.watchers[0], 90, 28)
	d.waitReady(t)
	w.waitReady(t)

	// The driver starts a thread from the command center.
	d.write(t, keyF4)
	d.waitFor(t, "1 thread")
	d.write(t, "\x1bn") // alt+n
	d.waitFor(t, "prompt")
	d.write(t, "second task")
	d.waitFor(t, "second task")
	d.write(t, keyEnter)
	d.waitFor(t, "waiting for you")

	// The watcher's deck lists both threads.
	w.write(t, keyF4)
	w.waitFor(t, "second task")
	w.waitFor(t, "2 threads")
	d.waitFor(t, "2 threads")

	// The watcher's actions are refused, each with a notice.
	for _, k := range []struct{ key, says string }{
		{"\x1bn", "only a driver can start a thread"},
		{"\x1bw", "only a driver can start a thread"},
		{"\x1br", "only a driver can rename a thread"},
		{"\x1ba", "only a driver can archive a thread"},
		{"\x1bi", "only a driver can interrupt a thread"},
		{"\x1bx", "only a driver can stop a thread"},
		{"\x1bm", "only a driver can merge a worktree"},
		{"\x1bd", "only a driver can remove a worktree"},
	} {
		w.write(t, k.key)
		w.waitFor(t, k.says)
		w.write(t, keyDown) // clears the notice
		w.waitGone(t, k.says)
	}
	if calls := host.calls(); len(calls) != 1 || calls[0] != "driver1 new second task" {
		t.Fatalf("the host was asked %q; want only the driver's new thread", calls)
	}

	// The watcher's inbox shows the request, and cannot answer it.
	w.write(t, keyTab)
	w.waitFor(t, "1 request waiting")
	w.waitFor(t, "a driver answers")
	time.Sleep(600 * time.Millisecond) // past a form's grace, were one open
	w.write(t, keyEnter)
	w.waitFor(t, "only a driver can answer a request")
	w.write(t, "y")
	if strings.Contains(w.screen(), "Run this command?") {
		t.Fatalf("the watcher was shown the form:\n%s", w.screen())
	}
	time.Sleep(300 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(fx.env.Dir, "out.txt")); err == nil {
		t.Fatal("the command ran after a watcher's keys")
	}

	// The driver answers it from the inbox.
	d.write(t, keyTab)
	d.waitFor(t, "1 request waiting")
	d.waitFor(t, "echo hi > out.txt")
	d.write(t, keyEnter)
	d.waitFor(t, "Run this command?")
	time.Sleep(600 * time.Millisecond) // past the form's grace period
	d.write(t, keyEnter)
	d.waitFor(t, "nothing waits for you")
	w.waitFor(t, "nothing waits for you")

	// Both open the second thread and see its answer and who approved.
	for _, c := range []*sshClient{d, w} {
		c.write(t, keyTab) // the list
		c.waitFor(t, "2 threads")
		c.write(t, keyDown)
		c.write(t, keyEnter)
		c.waitFor(t, "Lane two wrote the file.")
		c.waitFor(t, "driver1 approved the command")
	}
	if b, err := os.ReadFile(filepath.Join(fx.env.Dir, "out.txt")); err != nil || strings.TrimSpace(string(b)) != "hi" {
		t.Fatalf("out.txt = %q, %v", b, err)
	}
	if n := len(fx.env.Mock.Requests()); n != 2 {
		t.Fatalf("the mock saw %d model rounds, want 2", n)
	}

	// The driver stops the second thread: it goes from both decks.
	d.write(t, keyF4)
	d.waitFor(t, "2 threads")
	d.write(t, "\x1bx") // alt+x
	d.waitFor(t, "1 thread ·")
	w.waitFor(t, "1 thread ·") // the watcher was in it: back to the list
}
