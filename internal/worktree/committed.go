package worktree

import (
	"context"
	"path"
	"strings"
)

// Committed is what the branch of a worktree tandem made (tandem/NAME,
// checked out at root) has committed since it left the checkout it came
// from: the paths `git diff --name-only BASE...HEAD` names (BASE the
// base checkout's HEAD; changes on both sides of the merge base are the
// branch's only), made absolute under root. Nil, with no error, for a
// checkout that is no such worktree (another branch, no base recorded,
// the base gone). A finished agent commits its work, so its branch's
// files count for the conflict marks as much as its uncommitted ones.
func Committed(ctx context.Context, r Runner, root string) ([]string, error) {
	res, err := gitResult(ctx, r, root, "symbolic-ref", "--short", "-q", "HEAD")
	if err != nil {
		return nil, err
	}
	branch := strings.TrimSpace(res.Stdout)
	if res.ExitCode != 0 || !strings.HasPrefix(branch, Prefix) {
		return nil, nil
	}
	res, err = gitResult(ctx, r, root, "config", "--get", baseKey(branch))
	if err != nil || res.ExitCode != 0 {
		return nil, err
	}
	base := strings.TrimSpace(res.Stdout)
	res, err = gitResult(ctx, r, base, "rev-parse", "-q", "--verify", "HEAD")
	if err != nil || res.ExitCode != 0 {
		return nil, err
	}
	out, err := git(ctx, r, root, "diff", "--name-only", "-z", strings.TrimSpace(res.Stdout)+"...HEAD")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range splitZ(out) {
		paths = append(paths, path.Join(root, p))
	}
	return paths, nil
}
