package worktree

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// ChangedError is CommitAndMerge's refusal when the worktree's
// uncommitted changes are not the files the person was shown (the agent
// changed more, or less, since): Shown and Now name both lists. Nothing
// was committed or merged.
type ChangedError struct {
	Root        string
	Shown, Now  []string
	WhatChanged string
}

func (e *ChangedError) Error() string {
	return fmt.Sprintf("%s's uncommitted changes are no longer the files shown (%s): now %s; nothing was committed", e.Root, e.WhatChanged, names(e.Now))
}

// CommittedError is CommitAndMerge's error when the commit was made but
// the merge was then refused (a conflict, changes at the base) or
// failed: the commit stays on the branch, the merge changed nothing.
type CommittedError struct {
	Branch, Commit string
	Err            error
}

func (e *CommittedError) Error() string {
	return fmt.Sprintf("committed the changes on %s (%s), but the merge was refused: %v", e.Branch, short(e.Commit), e.Err)
}

// Unwrap returns the merge's error.
func (e *CommittedError) Unwrap() error { return e.Err }

func short(commit string) string { return commit[:min(len(commit), 8)] }

// CommitAndMerge commits the uncommitted changes of wt (what the agent
// could not commit: codex's sandbox may hold .git read-only) with
// message, then merges wt's branch back as Merge does. files are the
// paths (relative to wt's root, as a *DirtyError of Merge names them)
// the person was shown and agreed to commit: when the changes are not
// exactly those any more, a *ChangedError refuses and nothing is
// committed. The repository is refused as Merge refuses it when its
// config names commands (checkConfig), before anything runs; the commit
// runs hardened as every git command here (no hooks, no fsmonitor) and
// with --no-verify.
//
// When the merge is then refused, the error is a *CommittedError
// wrapping Merge's (a *ConflictError, say): the commit is on the
// branch, the merge changed nothing in either checkout. Merged.Commit is
// the base's new HEAD, as Merge returns it.
func CommitAndMerge(ctx context.Context, r Runner, wt Worktree, message string, files []string) (Merged, error) {
	if wt.Base == "" || wt.Branch == "" || wt.Path == "" {
		return Merged{}, fmt.Errorf("worktree %q: no path, branch or base checkout", wt.Name)
	}
	if strings.TrimSpace(message) == "" {
		return Merged{}, fmt.Errorf("worktree %s: an empty commit message", wt.Path)
	}
	for _, dir := range []string{wt.Base, wt.Path} {
		if err := checkConfig(ctx, r, dir); err != nil { // harden.go
			return Merged{}, err
		}
	}
	if b, err := git(ctx, r, wt.Path, "symbolic-ref", "-q", "--short", "HEAD"); err != nil || strings.TrimSpace(b) != wt.Branch {
		return Merged{}, fmt.Errorf("%s is not on its branch %s; nothing was committed", wt.Path, wt.Branch)
	}
	now, err := status(ctx, r, wt.Path)
	if err != nil {
		return Merged{}, err
	}
	if what := differ(files, now); what != "" {
		return Merged{}, &ChangedError{Root: wt.Path, Shown: files, Now: now, WhatChanged: what}
	}
	if len(now) > 0 {
		add := append([]string{"--literal-pathspecs", "add", "-A", "--"}, now...)
		if _, err := git(ctx, r, wt.Path, add...); err != nil {
			return Merged{}, err
		}
		if _, err := git(ctx, r, wt.Path, "commit", "-q", "--no-verify", "-m", message); err != nil {
			// Nothing half-done: what add staged is unstaged again.
			_, _ = git(ctx, r, wt.Path, "reset", "-q")
			return Merged{}, err
		}
	}
	commit, err := git(ctx, r, wt.Path, "rev-parse", "HEAD")
	if err != nil {
		return Merged{}, err
	}
	m, err := Merge(ctx, r, wt)
	if err != nil && len(now) > 0 {
		return Merged{}, &CommittedError{Branch: wt.Branch, Commit: strings.TrimSpace(commit), Err: err}
	}
	return m, err
}

// differ says how now differs from shown ("" when they are the same
// paths).
func differ(shown, now []string) string {
	a := slices.Compact(slices.Sorted(slices.Values(shown)))
	b := slices.Compact(slices.Sorted(slices.Values(now)))
	var more, gone []string
	for _, f := range b {
		if _, ok := slices.BinarySearch(a, f); !ok {
			more = append(more, f)
		}
	}
	for _, f := range a {
		if _, ok := slices.BinarySearch(b, f); !ok {
			gone = append(gone, f)
		}
	}
	var parts []string
	if len(more) > 0 {
		parts = append(parts, "new: "+names(more))
	}
	if len(gone) > 0 {
		parts = append(parts, "gone: "+names(gone))
	}
	return strings.Join(parts, "; ")
}
