package backend

import (
	"sync"
	"time"
)

// queue is an unbounded FIFO so the read loop never blocks on the UI.
type queue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  []any
	closed bool
}

func newQueue() *queue {
	q := &queue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *queue) push(v any) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	q.cond.Signal()
}

func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

func (q *queue) pop() (any, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed {
		q.cond.Wait()
	}
	if len(q.items) == 0 {
		return nil, false
	}
	v := q.items[0]
	q.items[0] = nil
	q.items = q.items[1:]
	return v, true
}

// feed delivers queued values to the sink, in order, on one goroutine.
func (s *Session) feed() {
	defer close(s.closed)
	for {
		v, ok := s.queue.pop()
		if !ok {
			return
		}
		if _, exited := v.(ServerExitedEvent); exited {
			<-s.initDone // StartSession decides whether the exit is news
			if s.quiet.Load() {
				continue
			}
		}
		if s.opts.Sink != nil {
			s.opts.Sink(v)
		}
	}
}

// waitOrKill waits for the peer to exit after its output closed; a peer
// that lingers longer than grace is shut down so nothing is orphaned.
func waitOrKill(stream Stream, grace time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- stream.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(grace):
		_ = stream.Close()
		return <-done
	}
}
