package cli

import (
	"cmp"
	"context"
	"errors"
	"path"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/deck"
	"tandem/internal/worktree"
)

// storedLimit is how many stored threads the command center lists, the
// newest first.
const storedLimit = 50

// current is the app-server session once the first start has ended; an
// error when it is gone (the list's reads never restart it: a lane's F5
// does).
func (h *deckHost) current(ctx context.Context) (*backend.Session, error) {
	select {
	case <-h.owner.started:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	h.owner.mu.Lock()
	sess := h.owner.sess
	h.owner.mu.Unlock()
	if sess == nil || ended(sess) {
		return nil, errors.New("the app-server is gone (F5 in a thread starts it again)")
	}
	return sess, nil
}

// Threads implements deck.Host: the threads the server keeps
// (thread/list, newest first, storedLimit of them), read off the update
// loop. This workspace's are those whose cwd is the run's workspace or
// one of the worktrees tandem made of its repository (worktree.List,
// through command/exec), each of those with its worktree and branch;
// with all, every workspace's, the others marked Elsewhere.
func (h *deckHost) Threads(all bool) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(h.ctx, time.Minute)
		defer cancel()
		sess, err := h.current(ctx)
		if err != nil {
			return deck.Stored{All: all, Err: err}
		}
		ts, err := storedThreads(ctx, sess, h.env.cfg.threadCwd(h.env.cwd), all)
		return deck.Stored{All: all, Threads: ts, Err: err}
	}
}

// storedThreads lists the threads sess's server keeps for the workspace
// ws ("" unknown: every thread is this workspace's), or with all every
// thread.
func storedThreads(ctx context.Context, sess *backend.Session, ws string, all bool) ([]deck.StoredThread, error) {
	var wts []worktree.Worktree
	if ws != "" {
		wts, _ = worktree.List(ctx, worktree.Server{Exec: sess}, ws) // none outside git
	}
	var cwds []string // "" every one
	switch {
	case all || ws == "":
		cwds = []string{""}
	default:
		cwds = []string{ws}
		for _, wt := range wts {
			cwds = append(cwds, wt.Path)
		}
	}
	var got []backend.Thread
	for _, c := range cwds {
		page, err := sess.ListThreads(ctx, backend.ThreadListParams{Limit: storedLimit, SortKey: backend.SortUpdated, Cwd: c})
		if err != nil {
			return nil, err
		}
		got = append(got, page.Data...)
	}
	slices.SortStableFunc(got, func(a, b backend.Thread) int { return cmp.Compare(b.UpdatedAt, a.UpdatedAt) })
	got = got[:min(len(got), storedLimit)]
	out := make([]deck.StoredThread, 0, len(got))
	for _, t := range got {
		st := deck.StoredThread{ID: t.ID, Name: t.Preview, Cwd: t.Cwd, Created: unixTime(t.CreatedAt), Updated: unixTime(t.UpdatedAt)}
		if t.Name != nil && *t.Name != "" {
			st.Name = *t.Name
		}
		if wt, ok := worktreeAt(wts, t.Cwd); ok {
			st.Worktree, st.Branch = wt.Path, wt.Branch
		} else {
			st.Elsewhere = ws != "" && !within(t.Cwd, ws)
		}
		out = append(out, st)
	}
	return out, nil
}

// worktreeAt is the worktree of wts that dir is in.
func worktreeAt(wts []worktree.Worktree, dir string) (worktree.Worktree, bool) {
	for _, wt := range wts {
		if within(dir, wt.Path) {
			return wt, true
		}
	}
	return worktree.Worktree{}, false
}

// within reports whether dir is root or under it ('/'-separated paths of
// the server's machine).
func within(dir, root string) bool {
	dir, root = path.Clean(dir), path.Clean(root)
	return dir == root || strings.HasPrefix(dir, strings.TrimSuffix(root, "/")+"/")
}

func unixTime(s int64) time.Time {
	if s <= 0 {
		return time.Time{}
	}
	return time.Unix(s, 0)
}
