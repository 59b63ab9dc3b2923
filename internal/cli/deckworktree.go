package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/deck"
	"tandem/internal/worktree"
)

// errNoWorktree is a worktree action's refusal on a lane in no worktree
// tandem made.
var errNoWorktree = errors.New("the thread runs in no worktree tandem made")

// errTurnRuns refuses a worktree action while the lane's turn runs: a
// merge would take the branch half way through the agent's work, a
// removal would pull the checkout from under it.
var errTurnRuns = errors.New("a turn runs — wait for it to end, or interrupt it first")

// worktreeOf is the worktree lane id's thread runs in: the one the
// command center made for it, the run's --worktree for the first lane,
// else the one found from its thread's cwd (an earlier run's, say:
// locate).
func (h *deckHost) worktreeOf(id deck.LaneID) (worktree.Worktree, bool) {
	h.mu.Lock()
	lo := h.lanes[id]
	h.mu.Unlock()
	if lo != nil {
		lo.mu.Lock()
		wt := lo.wt
		lo.mu.Unlock()
		if wt != nil {
			return *wt, true
		}
	}
	if id == firstLane && h.env.worktree != nil {
		h.env.worktree.mu.Lock()
		wt := h.env.worktree.made
		h.env.worktree.mu.Unlock()
		if wt != nil {
			return *wt, true
		}
	}
	return h.repos.worktree(id)
}

// worktreeCall runs do on lane id's worktree, with the app-server's
// session to run git through, off the update loop; refused while the
// lane's turn runs or when it has no worktree.
func (h *deckHost) worktreeCall(id deck.LaneID, what string, do func(context.Context, worktree.Runner, worktree.Worktree) (tea.Msg, error)) tea.Cmd {
	return h.call(id, what, func(ctx context.Context, s *backend.Session) (tea.Msg, error) {
		if s.TurnID() != "" {
			return nil, errTurnRuns
		}
		wt, ok := h.worktreeOf(id)
		if !ok {
			wt, ok = h.locateNow(ctx, id, s)
		}
		if !ok {
			return nil, errNoWorktree
		}
		root, err := h.current(ctx)
		if err != nil {
			return nil, err
		}
		return do(ctx, worktree.Server{Exec: root}, wt)
	})
}

// Merge implements deck.Host: worktree.Merge of the lane's worktree
// into the checkout it came from. A refusal (a conflict, uncommitted
// changes: the files named) changed nothing (internal/worktree).
func (h *deckHost) Merge(id deck.LaneID) tea.Cmd {
	return h.worktreeCall(id, "merge", func(ctx context.Context, r worktree.Runner, wt worktree.Worktree) (tea.Msg, error) {
		m, err := worktree.Merge(ctx, r, wt)
		var dirty *worktree.DirtyError
		if errors.As(err, &dirty) && dirty.Root == wt.Path {
			// The agent could not commit (its sandbox may hold .git
			// read-only): the list asks to commit them and merge.
			return deck.Result{Lane: id, Err: fmt.Errorf("merge: %w", err), Commit: dirty.Files}, nil
		}
		if err != nil {
			return nil, err
		}
		return deck.Result{Lane: id, What: mergedText(wt, m)}, nil
	})
}

// CommitMerge implements deck.Host: worktree.CommitAndMerge of the
// lane's worktree, committing exactly files (what the person was shown)
// with message, then merging as Merge does.
func (h *deckHost) CommitMerge(id deck.LaneID, message string, files []string) tea.Cmd {
	return h.worktreeCall(id, "commit and merge", func(ctx context.Context, r worktree.Runner, wt worktree.Worktree) (tea.Msg, error) {
		m, err := worktree.CommitAndMerge(ctx, r, wt, message, files)
		if err != nil {
			return nil, err
		}
		return deck.Result{Lane: id, What: fmt.Sprintf("committed %d file(s) on %s; %s", len(files), wt.Branch, mergedText(wt, m))}, nil
	})
}

// mergedText says what a merge did.
func mergedText(wt worktree.Worktree, m worktree.Merged) string {
	if m.UpToDate {
		return fmt.Sprintf("merge: %s has nothing %s lacks", wt.Branch, wt.Base)
	}
	files := "no file"
	switch n := len(m.Files); {
	case n == 1:
		files = m.Files[0]
	case n > 1 && n <= 5:
		files = strings.Join(m.Files, ", ")
	case n > 5:
		files = strings.Join(m.Files[:5], ", ") + fmt.Sprintf(" and %d more", n-5)
	}
	return fmt.Sprintf("merged %s into %s (now %s): %s", wt.Branch, wt.Base, m.Commit[:min(len(m.Commit), 8)], files)
}

// RemoveWorktree implements deck.Host: worktree.Remove of the lane's
// worktree and branch, then the lane is closed (its thread stays, as
// Stop leaves it). Without force, uncommitted changes or unmerged
// commits come back as a Result with Confirm, naming them. The run's
// own thread is refused (its lane can't be closed: quit tandem first).
func (h *deckHost) RemoveWorktree(id deck.LaneID, force bool) tea.Cmd {
	if id == firstLane {
		return func() tea.Msg {
			return deck.Result{Lane: id, Err: errors.New("remove: this thread is the run's own — quit tandem, then remove its worktree from another one")}
		}
	}
	return h.worktreeCall(id, "remove", func(ctx context.Context, r worktree.Runner, wt worktree.Worktree) (tea.Msg, error) {
		err := worktree.Remove(ctx, r, wt, force)
		var dirty *worktree.DirtyError
		var unmerged *worktree.UnmergedError
		if !force && (errors.As(err, &dirty) || errors.As(err, &unmerged)) {
			return deck.Result{Lane: id, Err: fmt.Errorf("remove: %w", err), Confirm: true}, nil
		}
		if err != nil {
			return nil, err
		}
		h.forget(id)
		return deck.DropLane{Lane: id, What: fmt.Sprintf("removed the worktree %s and its branch %s; the thread is closed", wt.Path, wt.Branch)}, nil
	})
}

// locateNow is worktreeOf for a lane whose locate has not told yet (an
// action asked for right after a stored thread was opened, while its
// row already shows the worktree): the worktree tandem made that the
// lane's thread's cwd is in, read now through s, and recorded.
func (h *deckHost) locateNow(ctx context.Context, id deck.LaneID, s *backend.Session) (worktree.Worktree, bool) {
	thread := s.ThreadID()
	if thread == "" {
		return worktree.Worktree{}, false
	}
	t, err := s.ReadThread(ctx, thread)
	if err != nil || t.Cwd == "" {
		return worktree.Worktree{}, false
	}
	wt, err := worktree.Find(ctx, worktree.Server{Exec: s}, t.Cwd)
	if err != nil {
		return worktree.Worktree{}, false
	}
	h.repos.setWorktree(id, wt)
	return wt, true
}

// locate finds, once lane id's thread is ready, the checkout its cwd dir
// is in on s's machine: a worktree tandem made (in this run or an
// earlier one: worktree.Find), else the branch checked out there; and
// tells the command center (deck.Checkout).
func (h *deckHost) locate(ctx context.Context, id deck.LaneID, s *backend.Session, dir string) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	r := worktree.Server{Exec: s}
	if wt, err := worktree.Find(ctx, r, dir); err == nil {
		h.repos.setWorktree(id, wt)
		h.send(deck.Checkout{Lane: id, Worktree: wt.Path, Branch: wt.Branch})
		return
	}
	if _, ok := h.worktreeOf(id); ok {
		return // made here; git did not answer
	}
	res, err := r.Run(ctx, dir, "git", "symbolic-ref", "-q", "--short", "HEAD")
	if err != nil || res.ExitCode != 0 {
		return // outside git, or detached
	}
	if b := strings.TrimSpace(res.Stdout); b != "" {
		h.send(deck.Checkout{Lane: id, Branch: b})
	}
}
