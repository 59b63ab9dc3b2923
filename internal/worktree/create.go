package worktree

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"strings"
)

// Prefix is the prefix of the branch of every worktree tandem makes
// (tandem/NAME): List finds them by it.
const Prefix = "tandem/"

// baseKey is the repository config key that keeps, per branch, the
// checkout a worktree came from: branch.tandem/NAME.tandembase (git
// drops it with the branch).
func baseKey(branch string) string { return "branch." + branch + ".tandembase" }

// Worktree is one worktree tandem made: its name (NAME of tandem/NAME),
// its root, its branch, the root of the checkout it came from (Base,
// where Merge merges it) and the repository's common git dir.
type Worktree struct {
	Name, Path, Branch, Base, Common string
}

// ErrBadName is Create's error for a name git can't take as a branch
// (git check-ref-format) or one with a '/'.
var ErrBadName = errors.New("not a usable worktree name")

// ErrNameTaken is Create's error for a name whose branch (tandem/NAME)
// or directory exists already.
var ErrNameTaken = errors.New("worktree name taken")

// Create makes a worktree of the repository dir is in: a new branch
// tandem/NAME from its HEAD, checked out beside the checkout's root
// (<parent>/<repo>-<NAME>), and records that checkout as its Base. An
// empty name is made up ("wt-" and 6 hex digits).
//
// Errors, each before anything is created: dir in no git checkout; a
// name git refuses as a branch or holding '/' (ErrBadName); a branch
// tandem/NAME or a file at the path already there (ErrNameTaken); a
// repository without a commit. A failure after `git worktree add`
// removes what it made.
func Create(ctx context.Context, r Runner, dir, name string) (Worktree, error) {
	repo, err := Locate(ctx, r, dir)
	if err != nil {
		return Worktree{}, err
	}
	if err := checkConfig(ctx, r, repo.Root); err != nil { // harden.go
		return Worktree{}, err
	}
	if name == "" {
		if name, err = freeName(ctx, r, repo); err != nil {
			return Worktree{}, err
		}
	}
	wt := Worktree{Name: name, Branch: Prefix + name, Base: repo.Root, Common: repo.Common,
		Path: path.Join(path.Dir(repo.Root), path.Base(repo.Root)+"-"+name)}
	if err := checkName(ctx, r, repo, wt); err != nil {
		return Worktree{}, err
	}
	if _, err := git(ctx, r, repo.Root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"); err != nil {
		return Worktree{}, fmt.Errorf("%s has no commit to branch from", repo.Root)
	}
	if _, err := git(ctx, r, repo.Root, "worktree", "add", "-b", wt.Branch, wt.Path, "HEAD"); err != nil {
		return Worktree{}, err
	}
	if _, err := git(ctx, r, repo.Root, "config", baseKey(wt.Branch), repo.Root); err != nil {
		_, _ = git(ctx, r, repo.Root, "worktree", "remove", "--force", wt.Path)
		_, _ = git(ctx, r, repo.Root, "branch", "-D", wt.Branch)
		return Worktree{}, err
	}
	return wt, nil
}

// ValidName refuses, without git, a worktree name git's branch names
// can't take (its rules, git check-ref-format) or that would leave the
// repository's parent directory: empty, '/', a leading '-' or '.', "..",
// a space or control character, any of ~^:?*[\, "@{", a trailing ".lock"
// or ".", or "@". An error wrapping ErrBadName. Create asks git too.
func ValidName(name string) error {
	bad := name == "" || name == "@" || strings.ContainsAny(name, "/\\ ~^:?*[") ||
		strings.HasPrefix(name, "-") || strings.HasPrefix(name, ".") || strings.Contains(name, "..") ||
		strings.Contains(name, "@{") || strings.HasSuffix(name, ".lock") || strings.HasSuffix(name, ".")
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			bad = true
		}
	}
	if bad {
		return fmt.Errorf("%q: %w (git check-ref-format's branch rules: no spaces, '/', '..', ~^:?*[\\ or control characters, not starting with '-' or '.')", name, ErrBadName)
	}
	return nil
}

// checkName refuses a name git can't take or one already used.
func checkName(ctx context.Context, r Runner, repo Repo, wt Worktree) error {
	if err := ValidName(wt.Name); err != nil {
		return err
	}
	res, err := gitResult(ctx, r, repo.Root, "check-ref-format", "--branch", wt.Branch)
	if err != nil {
		return err
	}
	if res.ExitCode != 0 {
		return fmt.Errorf("%q: %w (git check-ref-format refuses the branch %s)", wt.Name, ErrBadName, wt.Branch)
	}
	res, err = gitResult(ctx, r, repo.Root, "rev-parse", "--verify", "--quiet", "refs/heads/"+wt.Branch)
	if err != nil {
		return err
	}
	if res.ExitCode == 0 {
		return fmt.Errorf("%q: %w: the branch %s exists", wt.Name, ErrNameTaken, wt.Branch)
	}
	res, err = r.Run(ctx, repo.Root, "test", "-e", wt.Path)
	if err != nil {
		return err
	}
	if res.ExitCode == 0 {
		return fmt.Errorf("%q: %w: %s exists", wt.Name, ErrNameTaken, wt.Path)
	}
	return nil
}

// freeName makes up a name whose branch and directory are free.
func freeName(ctx context.Context, r Runner, repo Repo) (string, error) {
	for range 10 {
		b := make([]byte, 3)
		_, _ = rand.Read(b)
		name := "wt-" + hex.EncodeToString(b)
		wt := Worktree{Name: name, Branch: Prefix + name, Path: path.Join(path.Dir(repo.Root), path.Base(repo.Root)+"-"+name)}
		err := checkName(ctx, r, repo, wt)
		if !errors.Is(err, ErrNameTaken) {
			return name, err
		}
	}
	return "", errors.New("no free worktree name found")
}
