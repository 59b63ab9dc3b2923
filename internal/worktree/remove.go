package worktree

import (
	"context"
	"fmt"
	"strings"
)

// Remove removes wt: its checkout (`git worktree remove`) and its branch
// (`git branch -D`), run from its base checkout. Without force it
// refuses, changing nothing:
//
//   - uncommitted changes in the worktree (untracked files too): a
//     *DirtyError naming them;
//   - commits on the branch its base checkout does not have: an
//     *UnmergedError (they would be lost with the branch).
//
// With force both are dropped. A worktree whose directory is gone
// already is pruned from git's list, and its branch removed.
func Remove(ctx context.Context, r Runner, wt Worktree, force bool) error {
	if wt.Base == "" || wt.Branch == "" || wt.Path == "" {
		return fmt.Errorf("worktree %q: no path, branch or base checkout", wt.Name)
	}
	if err := checkConfig(ctx, r, wt.Base); err != nil { // harden.go
		return err
	}
	gone := false
	if res, err := r.Run(ctx, wt.Base, "test", "-d", wt.Path); err != nil {
		return err
	} else if res.ExitCode != 0 {
		gone = true
	}
	if !force {
		if !gone {
			dirty, err := status(ctx, r, wt.Path)
			if err != nil {
				return err
			}
			if len(dirty) > 0 {
				return &DirtyError{Root: wt.Path, Files: dirty, What: "remove with force to drop them; nothing was removed"}
			}
		}
		n, err := unmerged(ctx, r, wt.Base, wt.Branch)
		if err != nil {
			return err
		}
		if n > 0 {
			return &UnmergedError{Branch: wt.Branch, Base: wt.Base, Commits: n}
		}
	}
	if gone {
		if _, err := git(ctx, r, wt.Base, "worktree", "prune"); err != nil {
			return err
		}
	} else {
		args := []string{"worktree", "remove", wt.Path}
		if force {
			args = []string{"worktree", "remove", "--force", wt.Path}
		}
		if _, err := git(ctx, r, wt.Base, args...); err != nil {
			return err
		}
	}
	_, err := git(ctx, r, wt.Base, "branch", "-D", wt.Branch)
	return err
}

// List returns the worktrees tandem made (branch tandem/*) of the
// repository dir is in, in git's order, each with its base checkout (as
// Create recorded it; the main checkout when the record is gone). An
// error when dir is in no git checkout.
func List(ctx context.Context, r Runner, dir string) ([]Worktree, error) {
	repo, err := Locate(ctx, r, dir)
	if err != nil {
		return nil, err
	}
	out, err := git(ctx, r, repo.Root, "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return nil, err
	}
	bases, err := recordedBases(ctx, r, repo.Root)
	if err != nil {
		return nil, err
	}
	var list []Worktree
	main, path := "", ""
	for _, f := range splitZ(out) {
		key, val, _ := strings.Cut(f, " ")
		switch key {
		case "worktree":
			path = val
			if main == "" {
				main = val // git lists the main checkout first
			}
		case "branch":
			branch := strings.TrimPrefix(val, "refs/heads/")
			name, ok := strings.CutPrefix(branch, Prefix)
			if !ok {
				continue
			}
			base := bases[branch]
			if base == "" {
				base = main
			}
			list = append(list, Worktree{Name: name, Path: path, Branch: branch, Base: base, Common: repo.Common})
		}
	}
	return list, nil
}

// Find returns the worktree tandem made that dir is in: an error when dir
// is in none (in no git checkout, or one of no tandem/* branch).
func Find(ctx context.Context, r Runner, dir string) (Worktree, error) {
	repo, err := Locate(ctx, r, dir)
	if err != nil {
		return Worktree{}, err
	}
	list, err := List(ctx, r, repo.Root)
	if err != nil {
		return Worktree{}, err
	}
	for _, wt := range list {
		if wt.Path == repo.Root {
			return wt, nil
		}
	}
	return Worktree{}, fmt.Errorf("%s is not a worktree tandem made (no %s* branch checked out there)", repo.Root, Prefix)
}

// recordedBases reads the base checkouts Create recorded: branch → root.
func recordedBases(ctx context.Context, r Runner, root string) (map[string]string, error) {
	res, err := gitResult(ctx, r, root, "config", "-z", "--get-regexp", `^branch\.tandem/.*\.tandembase$`)
	if err != nil {
		return nil, err
	}
	bases := map[string]string{}
	if res.ExitCode == 1 { // none
		return bases, nil
	}
	if res.ExitCode != 0 {
		return nil, gitError([]string{"config", "--get-regexp"}, res)
	}
	for _, e := range splitZ(res.Stdout) {
		key, val, _ := strings.Cut(e, "\n")
		branch := strings.TrimSuffix(strings.TrimPrefix(key, "branch."), ".tandembase")
		bases[branch] = val
	}
	return bases, nil
}
