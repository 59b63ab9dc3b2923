package worktree

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Merged is what Merge did: the base checkout's new HEAD commit and the
// files the merge changed there (relative to its root); UpToDate when
// the branch had nothing the base did not have (nothing was changed).
type Merged struct {
	Commit   string
	Files    []string
	UpToDate bool
}

// ErrOldGit is Merge's error when git on the runner's machine has no
// `git merge-tree --write-tree` (git 2.38 and later): without that dry
// run tandem can't promise a refused merge leaves nothing behind, so it
// does not merge.
var ErrOldGit = errors.New("git 2.38 or later is needed to merge a worktree (git merge-tree --write-tree)")

// Merge merges wt's branch into the branch checked out at wt.Base (`git
// merge --no-edit`: a fast-forward when it can be one). Everything is
// checked first and a refusal changes nothing in either checkout:
//
//   - uncommitted changes in the worktree: a *DirtyError naming them. They
//     are not committed for the agent: what to commit (and not: build
//     output, scratch files, secrets) is for the agent or the user to
//     decide, not for a merge to guess (CommitAndMerge commits the files
//     the user was shown and agreed to);
//   - no branch checked out at the base: an error;
//   - a conflict: found by a dry run in git's object store (`git
//     merge-tree --write-tree`, which touches no checkout), a
//     *ConflictError naming the files;
//   - uncommitted changes at the base in files the merge would change
//     (or create): a *DirtyError naming them. Changes in other files stay
//     as they are, as git merge keeps them;
//   - git too old for the dry run: ErrOldGit.
//
// Should git merge fail after all (the base changed meanwhile), a merge
// it left half done is aborted (`git merge --abort`) and its error
// returned.
func Merge(ctx context.Context, r Runner, wt Worktree) (Merged, error) {
	if wt.Base == "" || wt.Branch == "" {
		return Merged{}, fmt.Errorf("worktree %s: no base checkout or branch to merge", wt.Path)
	}
	if err := checkConfig(ctx, r, wt.Base); err != nil { // harden.go
		return Merged{}, err
	}
	dirty, err := status(ctx, r, wt.Path)
	if err != nil {
		return Merged{}, err
	}
	if len(dirty) > 0 {
		return Merged{}, &DirtyError{Root: wt.Path, Files: dirty, What: "commit them first (ask the agent to); nothing was merged"}
	}
	if _, err := git(ctx, r, wt.Base, "symbolic-ref", "-q", "--short", "HEAD"); err != nil {
		return Merged{}, fmt.Errorf("%s has no branch checked out to merge %s into", wt.Base, wt.Branch)
	}
	res, err := gitResult(ctx, r, wt.Base, "merge-base", "--is-ancestor", wt.Branch, "HEAD")
	if err != nil {
		return Merged{}, err
	}
	switch res.ExitCode {
	case 0:
		head, err := git(ctx, r, wt.Base, "rev-parse", "HEAD")
		return Merged{Commit: strings.TrimSpace(head), UpToDate: true}, err
	case 1:
	default:
		return Merged{}, gitError([]string{"merge-base", "--is-ancestor"}, res)
	}
	tree, err := dryRun(ctx, r, wt)
	if err != nil {
		return Merged{}, err
	}
	out, err := git(ctx, r, wt.Base, "diff", "--name-only", "-z", "HEAD", tree)
	if err != nil {
		return Merged{}, err
	}
	touched := splitZ(out)
	dirtyBase, err := status(ctx, r, wt.Base)
	if err != nil {
		return Merged{}, err
	}
	var both []string
	for _, f := range dirtyBase {
		if slices.Contains(touched, f) {
			both = append(both, f)
		}
	}
	if len(both) > 0 {
		return Merged{}, &DirtyError{Root: wt.Base, Files: both, What: "the merge of " + wt.Branch + " would change them; commit or stash them first; nothing was merged"}
	}
	res, err = gitResult(ctx, r, wt.Base, "merge", "--no-edit", wt.Branch)
	if err != nil {
		return Merged{}, err
	}
	if res.ExitCode != 0 {
		failed := gitError([]string{"merge", wt.Branch}, res)
		if mres, _ := gitResult(ctx, r, wt.Base, "rev-parse", "-q", "--verify", "MERGE_HEAD"); mres.ExitCode == 0 {
			if _, err := git(ctx, r, wt.Base, "merge", "--abort"); err != nil {
				return Merged{}, fmt.Errorf("%w; and aborting it failed: %v", failed, err)
			}
		}
		return Merged{}, failed
	}
	head, err := git(ctx, r, wt.Base, "rev-parse", "HEAD")
	return Merged{Commit: strings.TrimSpace(head), Files: touched}, err
}

// dryRun merges HEAD of the base and wt's branch in git's object store
// only and returns the merged tree; a conflict is a *ConflictError.
func dryRun(ctx context.Context, r Runner, wt Worktree) (string, error) {
	args := []string{"merge-tree", "--write-tree", "--name-only", "-z", "--no-messages", "HEAD", wt.Branch}
	res, err := gitResult(ctx, r, wt.Base, args...)
	if err != nil {
		return "", err
	}
	fields := splitZ(res.Stdout)
	switch {
	case res.ExitCode == 0 && len(fields) >= 1:
		return fields[0], nil
	case res.ExitCode == 1 && len(fields) >= 1:
		files := slices.Compact(slices.Sorted(slices.Values(fields[1:])))
		return "", &ConflictError{Branch: wt.Branch, Base: wt.Base, Files: files}
	case strings.Contains(res.Stderr, "write-tree") || res.ExitCode == 129:
		return "", ErrOldGit
	}
	return "", gitError(args, res)
}

// unmerged counts the commits of branch that HEAD at base lacks.
func unmerged(ctx context.Context, r Runner, base, branch string) (int, error) {
	out, err := git(ctx, r, base, "rev-list", "--count", "HEAD.."+branch)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(out))
}
