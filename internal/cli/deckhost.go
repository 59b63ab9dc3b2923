package cli

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/deck"
	"tandem/internal/worktree"
	"tandem/model"
)

// deckHost carries out the command center's actions (deck.Host) for an
// interactive run. The run's first thread is lane 0, on the session the
// sessionOwner holds; every thread started from the command center is
// another lane (backend.Session.Open) on that same app-server. A lane's
// F5 or /restart opens it again on the live app-server, restarting a dead
// one first (once, however many lanes ask: sessionOwner.live).
type deckHost struct {
	ctx   context.Context
	env   *runEnv
	owner *sessionOwner
	send  func(tea.Msg) // the program's

	// repos is each lane's checkout and git status, for the conflict
	// marks (deckrepos.go).
	repos deckRepos

	mu    sync.Mutex
	next  deck.LaneID
	lanes map[deck.LaneID]*laneOwner
}

// laneSend is what lane id's sessions send to the program: tagged to the
// lane, watched for its checkout (deckrepos.go).
func (h *deckHost) laneSend(id deck.LaneID, send func(tea.Msg)) func(tea.Msg) {
	return h.repos.watch(h.ctx, id, tagged(id, send))
}

func newDeckHost(ctx context.Context, env *runEnv) *deckHost {
	h := &deckHost{ctx: ctx, env: env, lanes: map[deck.LaneID]*laneOwner{}}
	h.repos.ready = h.locate // deckworktree.go
	return h
}

// tagged sends what lane id's session says as that lane's message.
func tagged(id deck.LaneID, send func(tea.Msg)) func(tea.Msg) {
	return func(msg tea.Msg) { send(deck.LaneMsg{Lane: id, Msg: msg}) }
}

// laneOwner owns one lane's session past the first: it starts the
// lane's thread and opens it again when the model asks for a restart.
// Like sessionOwner, each session feeds the model through a gate tagged
// with a generation, so a replaced session's last events never land.
type laneOwner struct {
	h     *deckHost
	id    deck.LaneID
	title string
	// inWorktree: the thread is to start in a new git worktree.
	inWorktree bool

	mu     sync.Mutex
	gen    int
	sess   *backend.Session
	thread string
	wt     *worktree.Worktree
	run    *worktreeRun // the worktree's making, kept for a retry
	// restarting: the lane's own restart runs (the owner's hook leaves
	// it alone).
	restarting bool
}

func (lo *laneOwner) gate(gen int) func(tea.Msg) {
	send := lo.h.laneSend(lo.id, lo.h.send)
	return func(msg tea.Msg) {
		lo.mu.Lock()
		ok := gen == lo.gen
		lo.mu.Unlock()
		if ok {
			send(msg)
		}
	}
}

// session returns lane id's current session: the owner's for the first
// lane, nil for none (not started, or gone).
func (h *deckHost) session(id deck.LaneID) *backend.Session {
	if id == firstLane {
		h.owner.mu.Lock()
		defer h.owner.mu.Unlock()
		return h.owner.sess
	}
	h.mu.Lock()
	lo := h.lanes[id]
	h.mu.Unlock()
	if lo == nil {
		return nil
	}
	lo.mu.Lock()
	defer lo.mu.Unlock()
	return lo.sess
}

// New implements deck.Host: the lane's model is added at once (it shows
// "starting"), then its thread is started on the app-server — in a new
// git worktree of the run's workspace when inWorktree, made through the
// server's command/exec.
func (h *deckHost) New(prompt string, inWorktree bool) tea.Cmd {
	lo := &laneOwner{title: prompt, inWorktree: inWorktree}
	add := h.newLane(lo, interactive{prompt: prompt}, "")
	start := func() tea.Msg {
		if err := lo.start(); err != nil {
			return deck.Result{Lane: lo.id, Err: err}
		}
		return nil
	}
	return tea.Sequence(add, start)
}

// newLane gives lo the next lane id and its model (made as for in), and
// returns the command that adds it to the deck (deck.AddLane, Thread
// thread: "" for a new thread).
func (h *deckHost) newLane(lo *laneOwner, in interactive, thread string) tea.Cmd {
	h.mu.Lock()
	h.next++
	lo.h, lo.id = h, h.next
	h.lanes[lo.id] = lo
	h.mu.Unlock()
	m := model.New(h.env.modelOptions(in, lo.restart))
	lane := deck.Lane{ID: lo.id, Model: m, Title: lo.title, Thread: thread}
	return func() tea.Msg { return deck.AddLane{Lane: lane} }
}

// live returns what the lane's session of now is to send (gated to its
// generation) and the live app-server's root session, started again if
// it is gone; when none can be had the lane is told (SessionFailedMsg).
func (lo *laneOwner) live() (func(tea.Msg), *backend.Session, error) {
	lo.mu.Lock()
	send := lo.gate(lo.gen)
	lo.mu.Unlock()
	root, err := lo.h.owner.live(lo.h.ctx)
	if err != nil {
		send(model.SessionFailedMsg{Err: err})
	}
	return send, root, err
}

// start opens the lane on the live app-server and starts its thread (in
// a new worktree when asked: made once, on the server's machine); what
// fails is the lane's "could not start the thread", F5 tries again.
func (lo *laneOwner) start() error {
	h := lo.h
	send, root, err := lo.live()
	if err != nil {
		return err
	}
	fail := func(err error) error {
		send(model.SessionFailedMsg{Err: err, What: "the thread"})
		return err
	}
	var run *worktreeRun
	if lo.inWorktree {
		lo.mu.Lock()
		if lo.run == nil {
			lo.run = &worktreeRun{log: h.env.log, what: "its worktree"}
		}
		run = lo.run
		lo.mu.Unlock()
		send = run.watch(send) // worktree.go: recorded as the thread's attachment
	}
	lane := root.Open(func(msg any) { send(msg) })
	lo.mu.Lock()
	lo.sess = lane
	lo.mu.Unlock()
	cwd := ""
	if run != nil {
		wt, err := run.ensure(h.ctx, root, h.env.cfg.threadCwd(h.env.cwd), send)
		if err != nil {
			return fail(err)
		}
		cwd = wt.Path
		lo.mu.Lock()
		lo.wt = &wt
		lo.mu.Unlock()
		h.send(deck.AddLane{Lane: deck.Lane{ID: lo.id, Title: lo.title, Worktree: wt.Path, Branch: wt.Branch}})
	}
	ctx, cancel := context.WithTimeout(h.ctx, 60*time.Second)
	defer cancel()
	resp, err := lane.StartThreadIn(ctx, cwd)
	if err != nil {
		return fail(err)
	}
	if run != nil {
		run.opened(lane, resp.Thread.ID)
	}
	lo.mu.Lock()
	lo.thread = resp.Thread.ID
	lo.mu.Unlock()
	h.markLane(lo.id, resp.Thread.ID, lo.title) // servedeck.go
	send(h.env.durable(readyMsg(lane, resp)))
	return nil
}

// restart implements model.Options.Restart for the lane: the lane is
// opened again on the live app-server (restarted first if it is gone)
// and rejoins its thread.
func (lo *laneOwner) restart(lastTurn string) (model.RestartInfo, error) {
	return lo.restartBy("", lastTurn)
}

// restartBy is restart asked for by the driver who of a shared deck
// (tandem serve, servedeck.go; "" otherwise): the lane's ready message
// says so (RestartedBy).
func (lo *laneOwner) restartBy(who, lastTurn string) (model.RestartInfo, error) {
	lo.mu.Lock()
	lo.restarting = true
	lo.mu.Unlock()
	defer func() {
		lo.mu.Lock()
		lo.restarting = false
		lo.mu.Unlock()
	}()
	lo.mu.Lock()
	started := lo.thread != ""
	lo.mu.Unlock()
	if !started { // its start failed: start it again
		lo.mu.Lock()
		lo.gen++
		old := lo.sess
		lo.sess = nil
		lo.mu.Unlock()
		if old != nil {
			go old.Close()
		}
		return model.RestartInfo{}, lo.start()
	}
	root, err := lo.h.owner.live(lo.h.ctx)
	if err != nil {
		return model.RestartInfo{}, err
	}
	return lo.rejoin(root, who, lastTurn)
}

// rejoin opens the lane again on root and resumes its thread; who, when
// set, is told to the model as who restarted the app-server.
func (lo *laneOwner) rejoin(root *backend.Session, who, lastTurn string) (model.RestartInfo, error) {
	lo.mu.Lock()
	lo.gen++
	send := lo.gate(lo.gen)
	old, thread := lo.sess, lo.thread
	lo.sess = nil
	lo.mu.Unlock()
	if old != nil {
		go old.Close() // a lane of a dead connection, or replaced: never waited for
	}
	send = restartedBy(who, send) // owner.go
	lane := root.Open(func(msg any) { send(msg) })
	lo.mu.Lock()
	lo.sess = lane
	lo.mu.Unlock()
	if thread == "" {
		return model.RestartInfo{}, errors.New("the thread never started: start a new one from the command center")
	}
	ctx, cancel := context.WithTimeout(lo.h.ctx, 60*time.Second)
	defer cancel()
	info, err := lo.h.env.rejoin(ctx, lane, thread, lastTurn, send)
	if err == nil && info.ThreadID != "" {
		lo.mu.Lock()
		lo.thread = info.ThreadID
		lo.mu.Unlock()
	}
	return info, err
}

// restarted is the owner's hook after it started a new app-server: every
// lane not restarting itself (it was on the old one) rejoins its thread
// on the new one, told who restarted it.
func (h *deckHost) restarted(root *backend.Session) {
	h.mu.Lock()
	lanes := make([]*laneOwner, 0, len(h.lanes))
	for _, lo := range h.lanes {
		lanes = append(lanes, lo)
	}
	h.mu.Unlock()
	for _, lo := range lanes {
		lo.mu.Lock()
		skip := lo.restarting || lo.sess == nil
		lo.mu.Unlock()
		if !skip {
			go func() {
				if _, err := lo.rejoin(root, "a restart in another thread", ""); err != nil {
					h.env.log.Info("a lane did not rejoin its thread", "lane", lo.id, "err", err)
				}
			}()
		}
	}
}

// call runs do on lane id's session off the update loop, and reports
// what it did (or why not) as the list's notice.
func (h *deckHost) call(id deck.LaneID, what string, do func(context.Context, *backend.Session) (tea.Msg, error)) tea.Cmd {
	return func() tea.Msg {
		sess := h.session(id)
		if sess == nil {
			return deck.Result{Lane: id, Err: fmt.Errorf("%s: the thread has not started", what)}
		}
		ctx, cancel := context.WithTimeout(h.ctx, time.Minute)
		defer cancel()
		msg, err := do(ctx, sess)
		if err != nil {
			return deck.Result{Lane: id, Err: fmt.Errorf("%s: %w", what, err)}
		}
		if msg == nil {
			msg = deck.Result{Lane: id, What: what}
		}
		return msg
	}
}

// Rename implements deck.Host (thread/name/set).
func (h *deckHost) Rename(id deck.LaneID, name string) tea.Cmd {
	return h.call(id, "rename", func(ctx context.Context, s *backend.Session) (tea.Msg, error) {
		return nil, s.RenameThread(ctx, name)
	})
}

// Interrupt implements deck.Host (turn/interrupt).
func (h *deckHost) Interrupt(id deck.LaneID) tea.Cmd {
	return h.call(id, "interrupt", func(ctx context.Context, s *backend.Session) (tea.Msg, error) {
		return nil, s.Interrupt(ctx)
	})
}

// Archive implements deck.Host (thread/archive); the lane is closed.
func (h *deckHost) Archive(id deck.LaneID) tea.Cmd {
	return h.call(id, "archive", func(ctx context.Context, s *backend.Session) (tea.Msg, error) {
		if err := s.ArchiveThread(ctx); err != nil {
			return nil, err
		}
		if id != firstLane {
			h.forget(id)
		}
		return deck.DropLane{Lane: id}, nil
	})
}

// Stop implements deck.Host: a running turn is interrupted and the lane
// closed (thread/unsubscribe); the thread stays, to resume later.
func (h *deckHost) Stop(id deck.LaneID) tea.Cmd {
	if id == firstLane {
		return func() tea.Msg {
			return deck.Result{Lane: id, Err: errors.New("stop: this thread is the run's own — interrupt it, or quit tandem")}
		}
	}
	return h.call(id, "stop", func(ctx context.Context, s *backend.Session) (tea.Msg, error) {
		if s.TurnID() != "" {
			_ = s.Interrupt(ctx)
		}
		h.forget(id)
		return deck.DropLane{Lane: id}, nil
	})
}

// forget closes lane id's session and drops its owner.
func (h *deckHost) forget(id deck.LaneID) {
	h.mu.Lock()
	lo := h.lanes[id]
	delete(h.lanes, id)
	h.mu.Unlock()
	h.repos.forget(id)
	if lo == nil {
		return
	}
	lo.mu.Lock()
	lo.gen++ // nothing more reaches the deck
	sess := lo.sess
	lo.sess = nil
	lo.mu.Unlock()
	if sess != nil {
		_ = sess.Close()
	}
}

// close closes every lane's session (before the owner's: shutdown).
func (h *deckHost) close() {
	h.mu.Lock()
	ids := make([]deck.LaneID, 0, len(h.lanes))
	for id := range h.lanes {
		ids = append(ids, id)
	}
	h.mu.Unlock()
	for _, id := range ids {
		h.forget(id)
	}
}
