package cli

import (
	"context"
	"errors"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model"
)

// sessionOwner owns the app-server session of an interactive run: it
// starts it, restarts it when the model asks (F5, /restart: a new server
// that resumes the same thread) and hands the current one to shutdown.
//
// Each session feeds the model through a gate tagged with a generation;
// a restart bumps the generation first, so the old session's last events
// (its ServerExitedEvent when closed on purpose) never reach the model.
type sessionOwner struct {
	ctx context.Context
	env *runEnv
	// resume is the model's resume request of `tandem resume` (nil: a
	// new thread); a restart before any thread is open asks again.
	resume *model.ResumeRequest
	send   func(tea.Msg)
	// first, when set, starts the first session instead of
	// env.startSession (tandem serve: startServeSession).
	first func(ctx context.Context, send func(tea.Msg)) (*backend.Session, error)

	mu   sync.Mutex
	gen  int
	sess *backend.Session
	// thread is the thread the last session had open: a restart that
	// failed (no session left) still resumes it next time.
	thread  string
	started chan struct{} // closed once the first start attempt ended
	closing bool
	// inflight counts running restarts; shutdown waits for them so a
	// session being started is closed, not left behind.
	inflight sync.WaitGroup
	// revive makes one restart of a dead app-server serve every lane
	// asking at once (live).
	revive sync.Mutex
	// restarted, when set, is told of each new app-server a restart
	// started (the command center's other lanes rejoin it: deckhost.go).
	restarted func(*backend.Session)
	// bare: the session opens no thread of its own (tandem agents: every
	// thread is a lane).
	bare bool
}

func newSessionOwner(ctx context.Context, env *runEnv, resume *model.ResumeRequest, send func(tea.Msg)) *sessionOwner {
	return &sessionOwner{ctx: ctx, env: env, resume: resume, send: send, started: make(chan struct{})}
}

// gate returns a send that delivers only while gen is current.
func (o *sessionOwner) gate(gen int) func(tea.Msg) {
	return func(msg tea.Msg) {
		o.mu.Lock()
		ok := gen == o.gen
		o.mu.Unlock()
		if ok {
			o.send(msg)
		}
	}
}

// start runs the first session (thread/start or the model's resume, or
// first) and returns its error, which the model is told of too; it is
// meant to run on its own goroutine.
func (o *sessionOwner) start() error {
	o.mu.Lock()
	gen := o.gen
	o.mu.Unlock()
	var sess *backend.Session
	var err error
	if o.bare {
		sess, err = backend.StartSession(o.ctx, o.env.sessionOptions(o.gate(gen)))
	} else if o.first != nil {
		sess, err = o.first(o.ctx, o.gate(gen))
	} else {
		sess, err = o.env.startSession(o.ctx, o.resume, o.gate(gen))
	}
	o.mu.Lock()
	o.sess = sess
	o.mu.Unlock()
	close(o.started)
	if err != nil {
		o.gate(gen)(model.SessionFailedMsg{Err: err})
	}
	return err
}

// restart closes the current session, starts a new app-server and resumes
// the thread the old one had open with `thread/resume`; with no thread yet
// it starts one. The model gets a SessionReadyMsg without History: it
// keeps its transcript, so nothing is drawn twice. It implements
// model.Options.Restart: a re-attach to the daemon reads the history back
// to lastTurn, the newest turn the model holds.
func (o *sessionOwner) restart(lastTurn string) (model.RestartInfo, error) {
	o.revive.Lock() // a lane's live() waits for it, and finds it live
	defer o.revive.Unlock()
	return o.restartBy("", lastTurn)
}

// restartBy is restart asked for by the driver who of a shared session
// (tandem serve; "" otherwise): the new session's ready message says so
// (RestartedBy), for every viewer.
func (o *sessionOwner) restartBy(who, lastTurn string) (model.RestartInfo, error) {
	select {
	case <-o.started:
	case <-o.ctx.Done():
		return model.RestartInfo{}, o.ctx.Err()
	}
	o.mu.Lock()
	if o.closing {
		o.mu.Unlock()
		return model.RestartInfo{}, errors.New("tandem is quitting")
	}
	o.gen++
	gen := o.gen
	old := o.sess
	o.sess = nil
	o.inflight.Add(1)
	o.mu.Unlock()
	defer o.inflight.Done()

	threadID := o.lastThread(old)
	if old != nil {
		o.stop(old)
	}
	o.env.log.Info("restarting app-server", "thread", threadID)
	send := restartedBy(who, o.gate(gen))
	if o.bare {
		sess, err := backend.StartSession(o.ctx, o.env.sessionOptions(send))
		if err == nil && o.adopt(gen, sess) && o.restarted != nil {
			o.restarted(sess)
		}
		return model.RestartInfo{}, err
	}
	if threadID == "" {
		sess, err := o.env.startSession(o.ctx, o.resume, send)
		o.adopt(gen, sess)
		return model.RestartInfo{}, err
	}
	// StartSession bounds each step of the start itself (a slow remote
	// login shell has minutes); the 60 s are for what follows.
	sess, err := backend.StartSession(o.ctx, o.env.sessionOptions(send))
	if err != nil {
		return model.RestartInfo{}, err
	}
	sctx, cancel := context.WithTimeout(o.ctx, 60*time.Second)
	defer cancel()
	if !o.adopt(gen, sess) {
		return model.RestartInfo{}, errors.New("tandem is quitting")
	}
	if o.restarted != nil {
		defer o.restarted(sess) // deckhost.go: the other lanes rejoin
	}
	return o.env.rejoin(sctx, sess, threadID, lastTurn, send)
}

// rejoin resumes thread id on sess, a new app-server or a lane opened
// again, and sends send the model's ready message. On the daemon the
// thread went on meanwhile, so its history comes along, for the model to
// merge: the newest page, and the turns before it back to lastTurn, the
// newest one the model holds (at most reattachTurns), so that what ran
// while tandem was away has no gap. Elsewhere the model keeps its
// transcript, so the history is not fetched; a thread with no rollout
// (its first turn never ran) is replaced by a new one (NewThread).
func (e *runEnv) rejoin(ctx context.Context, sess *backend.Session, id, lastTurn string, send func(tea.Msg)) (model.RestartInfo, error) {
	if _, ok := backend.IsDurable(e.transport); ok {
		resp, err := sess.ResumeThread(ctx, id)
		if err != nil {
			return model.RestartInfo{}, err
		}
		resp.Thread.Turns, resp.Older = backend.ReadBackTo(ctx, sess, id, resp.Thread.Turns, resp.Older, lastTurn, reattachTurns)
		msg := e.durable(readyMsg(sess, resp)) // setup.go
		msg.History, msg.Reattached = resp.Thread.Turns, true
		send(msg)
		return model.RestartInfo{ThreadID: resp.Thread.ID}, nil
	}
	resp, fresh, err := rejoinOrStart(ctx, sess, id)
	if err != nil {
		return model.RestartInfo{}, err
	}
	if fresh {
		e.log.Info("the thread had no rollout: started a new thread", "old", id, "thread", resp.Thread.ID)
	}
	msg := readyMsg(sess, resp) // setup.go
	msg.NewThread = fresh
	send(msg)
	return model.RestartInfo{ThreadID: resp.Thread.ID, NewThread: fresh}, nil
}

// threadOpener is the part of *backend.Session a restart opens its
// thread with.
type threadOpener interface {
	RejoinThread(ctx context.Context, id string) (backend.ThreadResponse, error)
	StartThread(ctx context.Context) (backend.ThreadResponse, error)
}

// rejoinOrStart resumes the thread id on a restarted app-server or, when
// the server has no rollout of it (a thread whose first turn never ran:
// codex writes the rollout with it), starts a new thread as a fresh
// session does; fresh reports the latter.
func rejoinOrStart(ctx context.Context, s threadOpener, id string) (resp backend.ThreadResponse, fresh bool, err error) {
	resp, err = s.RejoinThread(ctx, id)
	if err == nil || !backend.IsNoRollout(err) {
		return resp, false, err
	}
	resp, err = s.StartThread(ctx)
	return resp, err == nil, err
}

// stop ends old for a restart: closed, or — when it has owed an answer
// and said nothing for unresponsive_after_secs (the model's F5 on a
// server not answering, such as one stopped with SIGSTOP) — killed at
// once with its whole process group, since it would read no EOF and
// take no SIGTERM.
func (o *sessionOwner) stop(old *backend.Session) {
	limit := o.env.cfg.settings.UnresponsiveAfter
	if since := old.Unanswered(); limit > 0 && !since.IsZero() && time.Since(since) >= limit {
		o.env.log.Info("killing the app-server: it has not answered", "for", time.Since(since).Round(time.Second))
		_ = old.Kill()
		return
	}
	_ = old.Close()
}

// lastThread is old's thread, or — when a failed restart left no session
// — the one remembered from before.
func (o *sessionOwner) lastThread(old *backend.Session) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	if old != nil {
		if id := old.ThreadID(); id != "" {
			o.thread = id
		}
	}
	return o.thread
}

// adopt makes sess current unless a newer restart or shutdown came first
// (then sess is closed and adopt reports false).
func (o *sessionOwner) adopt(gen int, sess *backend.Session) bool {
	if sess == nil {
		return true
	}
	o.mu.Lock()
	ok := gen == o.gen && !o.closing
	if ok {
		o.sess = sess
	}
	o.mu.Unlock()
	if !ok {
		_ = sess.Close()
	}
	return ok
}

// current waits (up to wait) for the first start and any restart to end,
// marking the owner closing first (no restart may begin, and one that
// finishes closes its session), and returns the current session, if any.
func (o *sessionOwner) current(wait time.Duration) *backend.Session {
	timeout := time.After(wait)
	select {
	case <-o.started:
	case <-timeout:
	}
	o.mu.Lock()
	o.closing = true
	o.mu.Unlock()
	done := make(chan struct{})
	go func() { o.inflight.Wait(); close(done) }()
	select {
	case <-done:
	case <-timeout:
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.sess
}

// reattachTurns is how many of its newest turns a thread re-attached to
// on the daemon brings at most for the model to merge (it stops at the
// newest turn the model holds).
const reattachTurns = 1000

// live returns the current app-server session once the first start has
// ended, restarting it first when it is gone (the lane asking is the
// command center's: deckhost.go); several lanes asking at once share one
// restart.
func (o *sessionOwner) live(ctx context.Context) (*backend.Session, error) {
	select {
	case <-o.started:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	o.revive.Lock()
	defer o.revive.Unlock()
	o.mu.Lock()
	sess, closing := o.sess, o.closing
	o.mu.Unlock()
	if closing {
		return nil, errors.New("tandem is quitting")
	}
	if sess != nil && !ended(sess) && !o.silent(sess) {
		return sess, nil
	}
	if _, err := o.restartBy("another thread's F5", ""); err != nil {
		return nil, err
	}
	o.mu.Lock()
	sess = o.sess
	o.mu.Unlock()
	if sess == nil {
		return nil, errors.New("the app-server did not start")
	}
	return sess, nil
}

// silent reports whether sess has owed an answer for
// unresponsive_after_secs and said nothing (frozen: SIGSTOP, say): for a
// lane's F5 it is as good as gone, and the restart kills it (stop).
func (o *sessionOwner) silent(sess *backend.Session) bool {
	limit := o.env.cfg.settings.UnresponsiveAfter
	since := sess.Unanswered()
	return limit > 0 && !since.IsZero() && time.Since(since) >= limit
}

// ended reports whether sess's connection has ended.
func ended(sess *backend.Session) bool {
	select {
	case <-sess.Done():
		return true
	default:
		return false
	}
}

// restartedBy is send telling the model who restarted the app-server (a
// SessionReadyMsg's RestartedBy): send itself when who is "".
func restartedBy(who string, send func(tea.Msg)) func(tea.Msg) {
	if who == "" {
		return send
	}
	return func(msg tea.Msg) {
		if r, ok := msg.(model.SessionReadyMsg); ok {
			r.RestartedBy = who
			msg = r
		}
		send(msg)
	}
}
