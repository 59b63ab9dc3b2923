// Package hub shares one live agent session with many viewers: it keeps
// the session's stream of events and server requests in a log and hands
// every viewer the log from the start, then the live tail. A late joiner
// therefore folds the same transcript as everyone else. The part of the
// log every viewer has read is compacted as it grows (compact.go): a
// finished item is kept as its final state, its deltas dropped, so the
// log, and a late joiner's replay, are O(transcript), not O(events).
//
// Each viewer reads the log through its own cursor (see Viewer), so the
// session never waits for a viewer, a slow viewer only falls behind, and a
// viewer that leaves never ends the session. Server requests reach
// drivers as per-viewer copies whose replies come back through the hub:
// the first reply goes to the app-server, later ones are dropped, and a
// backend.RequestResolvedEvent is logged so every other form closes.
//
// The hub knows nothing of SSH, Bubble Tea or the model: it imports only
// backend.
package hub

import (
	"fmt"
	"sync"

	"tandem/backend"
)

// Role is what a viewer may do with the session.
type Role int

const (
	// Driver may type, steer, interrupt, and answer approvals and questions.
	Driver Role = iota
	// Watcher may only scroll, open the pager, and leave.
	Watcher
)

// String returns "driver" or "watcher".
func (r Role) String() string {
	if r == Watcher {
		return "watcher"
	}
	return "driver"
}

// Participant is one connected viewer as shown in presence: Name is the
// key's comment or fingerprint.
type Participant struct {
	Name string
	Role Role
}

// PresenceEvent is logged when a viewer joins or leaves. Present is
// everyone connected after the change, in join order. It is not
// thread-scoped (Thread returns "").
type PresenceEvent struct {
	Who    Participant
	Joined bool // false: left
	// Present is the roster after this change.
	Present []Participant
}

// Thread implements backend.Event.
func (PresenceEvent) Thread() string { return "" }

// Text is the transcript notice, e.g. "alice joined as watcher".
func (e PresenceEvent) Text() string {
	if e.Joined {
		return fmt.Sprintf("%s joined as %s", e.Who.Name, e.Who.Role)
	}
	return fmt.Sprintf("%s left", e.Who.Name)
}

// sharedRequest is one server request as the app-server sent it, plus
// whether a driver has answered it.
type sharedRequest struct {
	orig     backend.ServerRequest
	answered bool
}

// Hub is the event log and the roster. Use New; the zero value is not
// usable. All methods are safe for concurrent use.
type Hub struct {
	mu      sync.Mutex
	log     []any
	changed chan struct{} // closed and replaced on every append
	closed  bool
	roster  []*Viewer
	reqs    map[string]*sharedRequest
	// compacted is the log's length after the last compaction
	// (compact.go).
	compacted   int
	compactions int
	onAnswer    func(backend.RequestResolvedEvent)
}

// New returns an empty hub.
func New() *Hub {
	return &Hub{changed: make(chan struct{}), reqs: map[string]*sharedRequest{}}
}

// Publish appends one value to the log and wakes every viewer. It never
// blocks on a viewer, so it can be the session's Sink. Server requests
// (backend.ServerRequest) are remembered so the first driver's answer can
// be forwarded; anything else (backend.Event values, or the caller's own
// messages such as a "session ready" value) is logged as is.
func (h *Hub) Publish(v any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.appendLocked(v)
}

func (h *Hub) appendLocked(v any) {
	if h.closed {
		return
	}
	switch r := v.(type) {
	case backend.ServerRequest:
		h.reqs[r.ID().String()] = &sharedRequest{orig: r}
	case backend.RequestResolvedEvent:
		// The server no longer needs an answer: late joiners skip it.
		if s, ok := h.reqs[r.RequestID.String()]; ok && !s.answered {
			s.answered = true
		}
	}
	h.log = append(h.log, v)
	h.maybeCompactLocked()
	close(h.changed)
	h.changed = make(chan struct{})
}

// OnAnswer sets f to be told of each driver's answer to a server
// request, once it went to the app-server (serve --record notes it).
func (h *Hub) OnAnswer(f func(backend.RequestResolvedEvent)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.onAnswer = f
}

// Len returns the number of logged values.
func (h *Hub) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.log)
}

// Close stops the hub: nothing more is logged and every viewer's Next
// returns false once it has read the log.
func (h *Hub) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.closed = true
		close(h.changed)
	}
}

// RefusePending refuses (backend.ServerRequest.Refuse) every logged server
// request no driver answered; the host calls it before closing the
// session, so nothing is ever accepted on the way out. It returns how many
// were refused.
func (h *Hub) RefusePending() int {
	h.mu.Lock()
	var todo []backend.ServerRequest
	for _, s := range h.reqs {
		if !s.answered && !s.orig.Answered() {
			s.answered = true
			todo = append(todo, s.orig)
		}
	}
	h.mu.Unlock()
	for _, r := range todo {
		_ = r.Refuse()
	}
	return len(todo)
}

// Present returns the roster, in join order.
func (h *Hub) Present() []Participant {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.presentLocked()
}

func (h *Hub) presentLocked() []Participant {
	out := make([]Participant, 0, len(h.roster))
	for _, v := range h.roster {
		out = append(out, v.who)
	}
	return out
}

// Join adds a viewer and logs a PresenceEvent for it. The viewer reads
// the log from its start with Next; call Leave when it disconnects.
func (h *Hub) Join(name string, role Role) *Viewer {
	h.mu.Lock()
	defer h.mu.Unlock()
	v := &Viewer{h: h, who: Participant{Name: name, Role: role}, done: make(chan struct{})}
	h.roster = append(h.roster, v)
	h.appendLocked(PresenceEvent{Who: v.who, Joined: true, Present: h.presentLocked()})
	return v
}

// answer forwards driver who's reply to request id when it is the first;
// later replies are dropped (nil error). On the first it logs a
// RequestResolvedEvent, naming who and what they decided, so the other
// drivers' forms close and everyone's transcript says it.
func (h *Hub) answer(who string, id backend.RequestID, result any, rpcErr *backend.RPCError) error {
	h.mu.Lock()
	s, ok := h.reqs[id.String()]
	if !ok || s.answered {
		h.mu.Unlock()
		return nil
	}
	s.answered = true
	h.mu.Unlock()
	responder, ok := s.orig.(interface {
		Respond(any) error
		RespondError(int, string) error
	})
	var err error
	switch {
	case !ok:
		err = fmt.Errorf("%s: cannot forward the answer", s.orig.Method())
	case rpcErr != nil:
		err = responder.RespondError(rpcErr.Code, rpcErr.Message)
	default:
		err = responder.Respond(result)
	}
	e := backend.RequestResolvedEvent{ThreadID: s.orig.Thread(), RequestID: id,
		By: who, Method: s.orig.Method(), Answer: backend.DescribeAnswer(result, rpcErr)}
	h.Publish(e)
	h.mu.Lock()
	f := h.onAnswer
	h.mu.Unlock()
	if f != nil {
		f(e)
	}
	return err
}

// Viewer is one connected client's cursor into the log. Its "queue" is
// the part of the log it has not read yet: it needs no memory of its own
// and never overflows, so a slow viewer costs the session nothing and
// simply catches up from the log (this is the hub's answer to overflow:
// resync from the log, never drop events).
type Viewer struct {
	h    *Hub
	who  Participant
	next int // index of the next log entry to hand out; owned by Next's caller
	once sync.Once
	done chan struct{}
}

// Who returns the viewer's name and role.
func (v *Viewer) Who() Participant { return v.who }

// Lag returns how many logged values the viewer has not read yet.
func (v *Viewer) Lag() int {
	v.h.mu.Lock()
	defer v.h.mu.Unlock()
	return len(v.h.log) - v.next
}

// Next blocks until there are unread values and returns them, in log
// order, as the viewer should see them: server requests become copies
// answerable through the hub (drivers) or unanswerable (watchers), and
// requests already answered are skipped. It returns ok=false once the
// viewer left or the hub closed and the log is read. Only one goroutine
// may call Next.
func (v *Viewer) Next() (batch []any, ok bool) {
	h := v.h
	select {
	case <-v.done:
		return nil, false
	default:
	}
	h.mu.Lock()
	for v.next >= len(h.log) {
		if h.closed {
			h.mu.Unlock()
			return nil, false
		}
		wait := h.changed
		h.mu.Unlock()
		select {
		case <-wait:
		case <-v.done:
			return nil, false
		}
		h.mu.Lock()
	}
	raw := h.log[v.next:len(h.log):len(h.log)]
	v.next = len(h.log)
	out := make([]any, 0, len(raw))
	for _, e := range raw {
		if r, isReq := e.(backend.ServerRequest); isReq {
			s := h.reqs[r.ID().String()]
			if s.answered {
				continue
			}
			out = append(out, v.copyRequest(r))
			continue
		}
		out = append(out, e)
	}
	h.mu.Unlock()
	return out, true
}

// Leave removes the viewer from the roster and logs a PresenceEvent. It
// is idempotent and never ends the session.
func (v *Viewer) Leave() {
	v.once.Do(func() {
		close(v.done)
		h := v.h
		h.mu.Lock()
		defer h.mu.Unlock()
		for i, x := range h.roster {
			if x == v {
				h.roster = append(h.roster[:i:i], h.roster[i+1:]...)
				break
			}
		}
		h.appendLocked(PresenceEvent{Who: v.who, Joined: false, Present: h.presentLocked()})
	})
}

// Done is closed when the viewer left.
func (v *Viewer) Done() <-chan struct{} { return v.done }

// copyRequest is what the viewer gets of r: for a driver a copy whose
// answers go through the hub (and which tracks its own answered state),
// for a watcher its backend.RequestView, which cannot be answered.
func (v *Viewer) copyRequest(r backend.ServerRequest) any {
	if v.who.Role == Watcher {
		return r.View()
	}
	id := r.ID()
	return r.WithReply(func(result any, rpcErr *backend.RPCError) error {
		return v.h.answer(v.who.Name, id, result, rpcErr)
	})
}
