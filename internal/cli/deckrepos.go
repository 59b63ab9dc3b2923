package cli

import (
	"context"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/deck"
	"tandem/internal/worktree"
	"tandem/model"
)

// deckRepos is what the command center's conflict marks are made of,
// per lane: the checkout its thread runs in (worktree.Repo: a worktree
// or the main checkout, and the repository's common git dir) and the
// paths `git status` showed changed there when its last turn ended, both
// read on the app-server's machine (command/exec).
type deckRepos struct {
	mu    sync.Mutex
	lanes map[deck.LaneID]worktree.Touched
	// trees is the worktree tandem made each lane's thread runs in, as
	// found from its cwd (ready's locate).
	trees map[deck.LaneID]worktree.Worktree
	// ready, when set, is run (on its own goroutine) once a lane's
	// thread is ready, with its session and cwd: the host's locate.
	ready func(ctx context.Context, id deck.LaneID, s *backend.Session, dir string)
}

// setWorktree records the worktree lane id's thread runs in.
func (r *deckRepos) setWorktree(id deck.LaneID, wt worktree.Worktree) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.trees == nil {
		r.trees = map[deck.LaneID]worktree.Worktree{}
	}
	r.trees[id] = wt
}

// worktree is the worktree found for lane id.
func (r *deckRepos) worktree(id deck.LaneID) (worktree.Worktree, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	wt, ok := r.trees[id]
	return wt, ok
}

// forget drops what is known of lane id (its lane is gone).
func (r *deckRepos) forget(id deck.LaneID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.lanes, id)
	delete(r.trees, id)
}

// overlaps implements deck.Overlaps: two lanes in checkouts of one
// repository (the same one, or worktrees of it) overlap on the paths,
// relative to their checkouts, that both changed — from their fileChange
// items (Summary.Changed) and, for two worktrees, their git status.
// Lanes in one checkout, or whose checkout is not known yet, compare
// their file changes' absolute paths (deck.SamePaths). It only reads
// what it holds.
func (r *deckRepos) overlaps(a, b deck.Thread) []string {
	r.mu.Lock()
	ta, oka := r.lanes[a.ID]
	tb, okb := r.lanes[b.ID]
	r.mu.Unlock()
	if !oka || !okb || ta.Common != tb.Common || ta.Root == tb.Root {
		// One checkout's git status is every thread's there: only the
		// threads' own file changes tell them apart.
		return deck.SamePaths(a, b)
	}
	if len(a.Summary.Changed)+len(ta.Paths) == 0 || len(b.Summary.Changed)+len(tb.Paths) == 0 {
		return nil
	}
	ta.Key, tb.Key = "a", "b"
	ta.Paths = append(append([]string(nil), ta.Paths...), a.Summary.Changed...)
	tb.Paths = append(append([]string(nil), tb.Paths...), b.Summary.Changed...)
	var out []string
	for _, c := range worktree.Overlaps([]worktree.Touched{ta, tb}) {
		out = append(out, c.Path)
	}
	return out
}

// watch wraps lane id's sink: once the lane's thread is ready (its
// SessionReadyMsg names its workspace and session) its checkout is
// located (ready), and then and each time one of its turns ends, the
// lane's checkout and git status are read again, off the feed's
// goroutine.
func (r *deckRepos) watch(ctx context.Context, id deck.LaneID, send func(tea.Msg)) func(tea.Msg) {
	var mu sync.Mutex
	var sess *backend.Session
	var cwd string
	return func(msg tea.Msg) {
		send(msg)
		switch m := msg.(type) {
		case model.SessionReadyMsg:
			s, ok := m.Client.(*backend.Session)
			if !ok || m.ThreadCwd == "" {
				return
			}
			mu.Lock()
			sess, cwd = s, m.ThreadCwd
			mu.Unlock()
			if r.ready != nil {
				go r.ready(ctx, id, s, m.ThreadCwd)
			}
		case backend.TurnCompletedEvent:
		default:
			return
		}
		mu.Lock()
		s, dir := sess, cwd
		mu.Unlock()
		if s != nil {
			go func() {
				if r.read(ctx, id, s, dir) {
					send(deck.Recheck{}) // the list asks overlaps again
				}
			}()
		}
	}
}

// read reads lane id's checkout (the one dir is in), its git status and,
// for a worktree tandem made, what its branch committed, on s's machine;
// a thread outside git is left out (its paths compare as they are). It
// reports whether it read them.
func (r *deckRepos) read(ctx context.Context, id deck.LaneID, s *backend.Session, dir string) bool {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	r2 := worktree.Server{Exec: s}
	t, err := worktree.Changed(ctx, r2, dir)
	if err != nil {
		return false
	}
	// A worktree's branch: what it committed counts too (a finished
	// agent commits its work).
	if done, err := worktree.Committed(ctx, r2, t.Root); err == nil {
		t.Paths = append(t.Paths, done...)
	}
	r.mu.Lock()
	if r.lanes == nil {
		r.lanes = map[deck.LaneID]worktree.Touched{}
	}
	r.lanes[id] = t
	r.mu.Unlock()
	return true
}
