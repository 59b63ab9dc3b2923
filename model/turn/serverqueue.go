package turn

import (
	"strconv"
	"strings"

	"tandem/backend"
	"tandem/model/act"
	"tandem/ui"
)

// The thread's queue on the server (backend/threadqueue.go): another
// client — `tandem queue` or `codex queue`, in another process, maybe on
// the daemon — queued a message for this thread's next turn. The server
// says only that the queue changed (`thread/queue/changed`); the queue is
// read (act.ReadServerQueue) and each message not seen before is told in
// a notice. When it runs, its turn is the server's: turn/started, the
// user message and the answer come as for any turn and are folded so.
// tandem's own queue (Tab, queue.go) stays tandem's: it is sent with
// turn/start, never through the server's queue.

// serverQueueState is what the turn machine knows of the server's queue:
// the ids of the messages already told.
type serverQueueState struct {
	told map[string]bool
}

// noticeWidth is how much of a queued message the notice quotes.
const noticeWidth = 60

// onServerQueueChanged asks for the queue when the thread's changed.
func (t *Turns) onServerQueueChanged(e backend.ThreadQueueChangedEvent) {
	if t.client == nil || e.ThreadID != t.client.ThreadID() {
		return
	}
	t.out().Call(act.ToTurn, act.ReadServerQueue{})
}

// onServerQueue tells the messages of the queue not told yet, and
// forgets those that left it (they ran, or were deleted). A codex
// without the queue, or a failed read, tells nothing.
func (t *Turns) onServerQueue(msg act.ServerQueue) {
	if msg.Err != nil {
		return
	}
	now := make(map[string]bool, len(msg.Queue))
	var fresh []string
	for _, q := range msg.Queue {
		now[q.ID] = true
		if !t.sq.told[q.ID] {
			fresh = append(fresh, firstLine(q.Text()))
		}
	}
	t.sq.told = now
	if len(fresh) == 0 {
		return
	}
	when := "runs when this turn ends"
	if !t.t.busy() {
		when = "runs next"
	}
	text := "queued from elsewhere: " + ui.Truncate(fresh[0], noticeWidth)
	if n := len(fresh); n > 1 {
		text = "queued from elsewhere: " + ui.Truncate(fresh[0], noticeWidth) + " (and " + strconv.Itoa(n-1) + " more)"
	}
	t.notice(act.NoticeInfo, text+" — "+when)
}

// firstLine is s's first non-blank line, trimmed.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
