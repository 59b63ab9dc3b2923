package backend

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// One connection, many threads. The Session StartSession returns is the
// root: it owns the peer and the connection, and is the connection's one
// Handler. Open gives a lane: another Session on the same connection and
// peer, with a thread, turn, sub-agents, queue, feed and Sink of its own.
// Every thread call of a lane (StartThread, ResumeThread, ForkThread,
// StartTurn, Steer, Interrupt, …) works on its own thread, as the root's
// on the root's. The root routes each notification and server request to
// the session whose thread or sub-agent it is (HandleNotification,
// otherThread, HandleRequest in session.go); the state they route by is
// lanes.

// lanes is what the sessions on one connection share: which they are
// (the root first) and what was held of threads none of them knows yet.
// Routing runs under mu, and so does a session's change of thread
// (SetThread), so an event is never lost between the answer that opens a
// thread and the events of that thread.
type lanes struct {
	mu   sync.Mutex
	all  []*Session
	held map[string][]Event // events of threads not known yet (otherThread)
	// left are threads a session left (another thread opened, a lane
	// closed) and none has since: their late events are dropped, not
	// held, so none reaches a session that opens the thread later on
	// top of the history it reads.
	left map[string]bool
	// exit is set once the connection ended: a lane opened after it gets
	// it at once.
	exit *ServerExitedEvent
	// asides are the side questions' forks, whichever session asked
	// (aside.go): routed before any session's thread.
	asides asides
}

// maxHeldThreads bounds how many threads not known yet are held
// (maxHeldEvents each).
const maxHeldThreads = 16

// laneUnsubscribeWait bounds how long a lane's Close waits for the
// answer to its `thread/unsubscribe`.
const laneUnsubscribeWait = 5 * time.Second

// owner returns the session whose thread t is (thread true), else the
// one t is a sub-agent of, else nil. The caller holds l.mu.
func (l *lanes) owner(t string) (s *Session, thread bool) {
	for _, s := range l.all {
		if s.ThreadID() == t {
			return s, true
		}
	}
	for _, s := range l.all {
		s.mu.Lock()
		agent := s.agents[t]
		s.mu.Unlock()
		if agent {
			return s, false
		}
	}
	return nil, false
}

// hold keeps ev of thread t, not known yet: up to maxHeldEvents for each
// of maxHeldThreads threads, the rest dropped. The caller holds l.mu.
func (l *lanes) hold(t string, ev Event) {
	if l.left[t] {
		return
	}
	if l.held == nil {
		l.held = map[string][]Event{}
	}
	if _, ok := l.held[t]; !ok && len(l.held) >= maxHeldThreads {
		return
	}
	if len(l.held[t]) < maxHeldEvents {
		l.held[t] = append(l.held[t], ev)
	}
}

// take returns and forgets what was held of thread t. The caller holds
// l.mu.
func (l *lanes) take(t string) []Event {
	evs := l.held[t]
	delete(l.held, t)
	return evs
}

// leaving notes that a session leaves thread t: unless another session
// has it, what comes of it from now on is dropped (left). The caller
// holds l.mu.
func (l *lanes) leaving(s *Session, t string) {
	if t == "" {
		return
	}
	for _, o := range l.all {
		if o != s && o.ThreadID() == t {
			return
		}
	}
	if l.left == nil {
		l.left = map[string]bool{}
	}
	l.left[t] = true
	delete(l.held, t)
}

// end gives every session ev, the connection's end, and ends their
// feeds.
func (l *lanes) end(ev ServerExitedEvent) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.exit = &ev
	for _, s := range l.all {
		s.queue.push(ev)
		s.queue.close()
	}
}

// sessionConn is the connection as one session calls on it: the shared
// Conn, with the RetryNotices of the session's own calls going to its
// own feed.
type sessionConn struct {
	*Conn
	onRetry func(RetryNotice)
}

// Call is Conn.Call with the session's retry notices.
func (c *sessionConn) Call(ctx context.Context, method string, params, result any) error {
	return c.call(ctx, method, params, result, c.onRetry)
}

// retried queues n, a retry of one of the session's calls, for its Sink.
func (s *Session) retried(n RetryNotice) { s.queue.push(n) }

// Open returns a lane: another Session on s's connection and peer, with
// sink its Sink, and no thread yet (StartThread, ResumeThread or
// ForkThread opens one). It shares s's transport, settings and Init, and
// has its own thread, running turn, sub-agents, queue and feed. Its Sink
// gets its thread's events and requests, its sub-agents' (wrapped as
// SubAgentEvent), the connection's thread-less events, its own calls'
// RetryNotices, and the ServerExitedEvent when the connection ends. A
// thread is one session's: while two have the same one, the first opened
// gets its events. Closing the lane (Close, Kill) leaves the connection
// and the other sessions as they are. Open on a connection that has
// ended gives a lane whose Sink gets only the ServerExitedEvent.
func (s *Session) Open(sink func(msg any)) *Session {
	opts := s.opts
	opts.Sink = sink
	ln := &Session{
		opts: opts, stream: s.stream, log: s.log, Init: s.Init, lanes: s.lanes, lane: true,
		queue: newQueue(), closed: make(chan struct{}), initDone: make(chan struct{}),
	}
	close(ln.initDone)
	ln.conn = &sessionConn{Conn: s.conn.Conn, onRetry: ln.retried}
	l := s.lanes
	l.mu.Lock()
	if l.exit != nil {
		ln.queue.push(*l.exit)
		ln.queue.close()
	} else {
		l.all = append(l.all, ln)
	}
	l.mu.Unlock()
	go ln.feed()
	return ln
}

// leave closes lane s: it is taken off the connection (the events of
// its thread are held from then on, as a thread no session knows), the
// server is told with `thread/unsubscribe` when no other session has its
// thread (wait: the answer is waited for, up to laneUnsubscribeWait;
// else it is sent and not waited for), and its feed ends once it has
// delivered what was queued, with no ServerExitedEvent.
func (s *Session) leave(wait bool) {
	s.once.Do(func() {
		l := s.lanes
		l.mu.Lock()
		on := false
		for i, ln := range l.all {
			if ln == s {
				l.all = append(l.all[:i:i], l.all[i+1:]...)
				on = true
				break
			}
		}
		id := s.ThreadID()
		shared := false
		for _, ln := range l.all {
			shared = shared || id != "" && ln.ThreadID() == id
		}
		l.leaving(s, id)
		s.queue.close()
		l.mu.Unlock()
		if on && id != "" && !shared {
			unsubscribe := func() {
				ctx, cancel := context.WithTimeout(context.Background(), laneUnsubscribeWait)
				defer cancel()
				resp, err := ThreadUnsubscribe.Call(ctx, s.conn, ThreadUnsubscribeParams{ThreadID: id})
				s.log.Info("lane closed", "thread", id, "unsubscribe", resp.Status, "err", err)
			}
			if wait {
				unsubscribe()
			} else {
				go unsubscribe()
			}
		}
		<-s.closed
	})
}

// LoadedThreads runs `thread/loaded/list`, every page: the ids of the
// threads the app-server has loaded in memory (by this connection or
// another: the daemon's other clients, this server's sub-agents), in the
// server's order.
func (s *Session) LoadedThreads(ctx context.Context) ([]string, error) {
	var ids []string
	var cursor *string
	for range maxLoadedPages {
		resp, err := ThreadLoadedList.Call(ctx, s.conn, ThreadLoadedListParams{Cursor: cursor})
		if err != nil {
			return ids, err
		}
		ids = append(ids, resp.Data...)
		if resp.NextCursor == nil || *resp.NextCursor == "" {
			break
		}
		cursor = resp.NextCursor
	}
	return ids, nil
}

// maxLoadedPages bounds the pages LoadedThreads reads (the server sends
// one page when no limit is asked for).
const maxLoadedPages = 20

// ErrNoReadState is MarkRead's error for a thread whose read state the
// server does not keep (`thread/read` gave no readState), or no thread.
var ErrNoReadState = errors.New("the server keeps no read state for this thread")

// ReadState runs `thread/read` (no turns) for the session's thread and
// returns its read state: nil, with no error, when the server keeps
// none.
func (s *Session) ReadState(ctx context.Context) (*ThreadReadState, error) {
	id := s.ThreadID()
	if id == "" {
		return nil, nil
	}
	resp, err := ThreadRead.Call(ctx, s.conn, ThreadReadParams{ThreadID: id})
	return resp.ReadState, err
}

// MarkRead marks the session's thread read for every client of the
// server: `thread/read` for the revision of its read state, then
// `thread/readState/update` (operation "read") on that revision. It is
// meant for a thread on screen: what came between the two calls is
// marked read too, and a change the server saw as made on an older
// revision is refused (an *RPCError). ErrNoReadState when the server
// keeps none for it; nothing is sent for a thread already read.
func (s *Session) MarkRead(ctx context.Context) error {
	rs, err := s.ReadState(ctx)
	if err != nil {
		return err
	}
	if rs == nil {
		return fmt.Errorf("%s: %w", ThreadReadStateUpdate.Name(), ErrNoReadState)
	}
	if rs.FirstUnread == nil {
		return nil
	}
	_, err = ThreadReadStateUpdate.Call(ctx, s.conn, ThreadReadStateUpdateParams{
		ThreadID: s.ThreadID(), ExpectedRevision: rs.Revision, Operation: ThreadReadStateOperation{Type: "read"},
	})
	return err
}
