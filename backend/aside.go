package backend

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// An aside (/side, /recap) is one question asked on a throwaway fork of
// the current thread: `thread/fork` with ephemeral (never written, never
// listed), one `turn/start` on the fork in a read-only sandbox that never
// asks, its events collected here (not fed to the sink), and the fork let
// go with `thread/unsubscribe`. The thread's own history is untouched.

// asideFrame comes before an aside's prompt, as Codex's /side tells its
// fork (in developer instructions, which a prediction fork does not
// take): the exchange is not the thread's, the copy is read-only, and
// the answer is short.
const asideFrame = "[A side question, asked on a throwaway copy of this thread: the main thread will not see this exchange. " +
	"Answer from the conversation so far, directly and briefly. This copy is read-only and nothing on it is approved: " +
	"run nothing that changes files. If recent progress seems missing from the history, say so rather than guess.]\n\n"

// ErrNoThread is Aside's error when no thread is open.
var ErrNoThread = errors.New("no thread is open")

// asideCleanup bounds each call that lets a fork go (interrupt,
// unsubscribe) once the aside has its answer or was cut.
const asideCleanup = 5 * time.Second

// asides are the side questions waiting for their forks' events: the
// queue of each fork's thread id. A fork let go stays known (gone), so
// its late events are dropped and its requests refused instead of held
// as another thread's.
type asides struct {
	mu   sync.Mutex
	by   map[string]*queue
	gone map[string]bool
}

// take hands v, an Event or ServerRequest of thread t, to the aside
// waiting for t and reports whether t is an aside's fork (then v is
// taken: queued, or dropped and refused once the aside is over).
func (a *asides) take(t string, v any) bool {
	a.mu.Lock()
	q, gone := a.by[t], a.gone[t]
	a.mu.Unlock()
	switch {
	case q != nil:
		q.push(v)
	case gone:
		if r, ok := v.(ServerRequest); ok {
			_ = r.Refuse()
		}
	default:
		return false
	}
	return true
}

// add starts collecting fork's events.
func (a *asides) add(fork string) *queue {
	q := newQueue()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.by == nil {
		a.by, a.gone = map[string]*queue{}, map[string]bool{}
	}
	a.by[fork] = q
	return q
}

// done stops collecting fork's events: what is still queued is
// returned, what comes later is dropped.
func (a *asides) done(fork string) []any {
	a.mu.Lock()
	q := a.by[fork]
	delete(a.by, fork)
	a.gone[fork] = true
	a.mu.Unlock()
	q.close()
	var rest []any
	for {
		v, ok := q.pop()
		if !ok {
			return rest
		}
		rest = append(rest, v)
	}
}

// Aside implements Client: prompt (after asideFrame) asked on an
// ephemeral fork of the current thread (`thread/fork` with experimentalPredictionMode, which
// reuses the parent's prompt cache, or, refused, a plain ephemeral fork),
// one turn in a read-only sandbox with approval policy "never"; a request
// of the fork (an approval, a question) is refused and named after the
// answer. The answer is the fork's last agent message. Cut by ctx, the
// fork's turn is interrupted; either way the fork is unsubscribed.
func (s *Session) Aside(ctx context.Context, prompt string) (string, error) {
	parent := s.ThreadID()
	if parent == "" {
		return "", fmt.Errorf("%s: %w", ThreadFork.Name(), ErrNoThread)
	}
	fork, err := s.forkAside(ctx, parent)
	if err != nil {
		return "", err
	}
	q := s.lanes.asides.add(fork)
	s.lanes.mu.Lock()
	delete(s.lanes.held, fork) // its thread/started came before the fork's answer
	s.lanes.mu.Unlock()
	a := &aside{fork: fork}
	defer s.endAside(a)
	sb, _ := SandboxPolicyFor("read-only")
	// The turn/start's answer is waited for even when ctx is cut
	// meanwhile: a turn the server started is then known, to interrupt
	// (endAside), never left running.
	sctx, scancel := context.WithTimeout(context.WithoutCancel(ctx), asideStartWait)
	resp, err := TurnStart.Call(sctx, s.conn, TurnStartParams{
		ThreadID: fork, Input: TurnInput{Text: asideFrame + prompt}.Inputs(),
		ApprovalPolicy: "never", SandboxPolicy: sb,
	})
	scancel()
	if err != nil {
		return "", err
	}
	a.turn = resp.Turn.ID
	return s.collect(ctx, q, a)
}

// asideStartWait bounds the wait for the answer to an aside's
// turn/start.
const asideStartWait = time.Minute

// forkAside forks parent for an aside and returns the fork's id.
func (s *Session) forkAside(ctx context.Context, parent string) (string, error) {
	resp, err := ThreadFork.Call(ctx, s.conn, ThreadForkParams{
		ThreadID: parent, Ephemeral: true, ExcludeTurns: true, PredictionMode: true,
	})
	var rpc *RPCError
	if err != nil && errors.As(err, &rpc) {
		// A parent not written yet (no turn so far), or a server without
		// prediction forks: a plain ephemeral one, read-only.
		resp, err = ThreadFork.Call(ctx, s.conn, ThreadForkParams{
			ThreadID: parent, Ephemeral: true, ExcludeTurns: true,
			ApprovalPolicy: "never", Sandbox: "read-only",
		})
	}
	if err != nil {
		return "", err
	}
	if resp.Thread.ID == "" {
		return "", fmt.Errorf("%s: the answer names no thread", ThreadFork.Name())
	}
	return resp.Thread.ID, nil
}

// aside is one aside as it runs: its fork and turn, whether that turn
// ended, and what it has said.
type aside struct {
	fork, turn string
	ended      bool
	order      []string          // agent messages' ids, as they came
	text       map[string]string // each agent message's text so far
	refused    []string          // the methods of the requests refused
	errMsg     string            // the last error event's message
}

// collect reads the fork's events until its turn completes, ctx ends or
// the connection does, and returns the answer.
func (s *Session) collect(ctx context.Context, q *queue, a *aside) (string, error) {
	stop := context.AfterFunc(ctx, q.close)
	defer stop()
	over := make(chan struct{})
	defer close(over)
	go func() {
		select {
		case <-s.conn.Done():
			q.close()
		case <-over:
		}
	}()
	for {
		v, ok := q.pop()
		if !ok {
			if err := ctx.Err(); err != nil {
				return "", err
			}
			return "", ErrClosed
		}
		if t, done := a.fold(v); done {
			return a.answer(t)
		}
	}
}

// fold takes one value of the fork's; done once its turn completed.
func (a *aside) fold(v any) (Turn, bool) {
	switch e := v.(type) {
	case ServerRequest:
		a.refuse(e)
	case AgentMessageDeltaEvent:
		a.note(e.ItemID, a.text[e.ItemID]+e.Delta)
	case ItemCompletedEvent:
		if e.Item.Type == "agentMessage" {
			a.note(e.Item.ID, e.Item.Text)
		}
	case ErrorEvent:
		if !e.WillRetry {
			a.errMsg = e.Error.Message
		}
	case TurnCompletedEvent:
		if a.turn == "" || e.Turn.ID == a.turn {
			a.ended = true
			return e.Turn, true
		}
	}
	return Turn{}, false
}

// refuse refuses a request of the fork: an aside must not change
// anything, nor answer blind.
func (a *aside) refuse(r ServerRequest) {
	_ = r.Refuse()
	a.refused = append(a.refused, r.Method())
}

// note sets agent message id's text.
func (a *aside) note(id, text string) {
	if a.text == nil {
		a.text = map[string]string{}
	}
	if _, ok := a.text[id]; !ok {
		a.order = append(a.order, id)
	}
	a.text[id] = text
}

// answer is what the fork's turn t said: its last agent message, with
// the requests refused named after it; an error for a turn that failed,
// was interrupted, or said nothing.
func (a *aside) answer(t Turn) (string, error) {
	var text string
	if n := len(a.order); n > 0 {
		text = strings.TrimSpace(a.text[a.order[n-1]])
	}
	switch {
	case t.Status == TurnFailed:
		msg := a.errMsg
		if t.Error != nil && t.Error.Message != "" {
			msg = t.Error.Message
		}
		return "", fmt.Errorf("the side turn failed: %s", msg)
	case t.Status == TurnInterrupted:
		return "", errors.New("the side turn was interrupted")
	case text == "" && a.errMsg != "":
		return "", fmt.Errorf("the side turn failed: %s", a.errMsg)
	case text == "":
		return "", errors.New("the side turn gave no answer")
	}
	if len(a.refused) > 0 {
		text += fmt.Sprintf("\n\n---\n\n_tandem refused %d request(s) of the side fork (%s): a side question runs read-only and nothing on it is approved._",
			len(a.refused), strings.Join(a.refused, ", "))
	}
	return text, nil
}

// endAside lets a's fork go: its events are no longer collected (a
// request still queued is refused), a turn still running is interrupted,
// and the fork is unsubscribed, so the server unloads it.
func (s *Session) endAside(a *aside) {
	for _, v := range s.lanes.asides.done(a.fork) {
		if r, ok := v.(ServerRequest); ok {
			_ = r.Refuse()
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), asideCleanup)
	defer cancel()
	if a.turn != "" && !a.ended {
		if err := TurnInterrupt.Do(ctx, s.conn, TurnInterruptParams{ThreadID: a.fork, TurnID: a.turn}); err != nil {
			s.log.Info("aside: interrupt", "thread", a.fork, "err", err)
		}
	}
	if _, err := ThreadUnsubscribe.Call(ctx, s.conn, ThreadUnsubscribeParams{ThreadID: a.fork}); err != nil {
		s.log.Info("aside: unsubscribe", "thread", a.fork, "err", err)
	}
}
