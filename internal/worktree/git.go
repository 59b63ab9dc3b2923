package worktree

import (
	"context"
	"fmt"
	"strings"
)

// git runs `git args…` in dir and returns its stdout; a non-zero exit is
// an error naming the command and git's own message.
func git(ctx context.Context, r Runner, dir string, args ...string) (string, error) {
	res, err := gitResult(ctx, r, dir, args...)
	if err != nil {
		return "", err
	}
	if res.ExitCode != 0 {
		return "", gitError(args, res)
	}
	return res.Stdout, nil
}

// gitResult runs `git args…` in dir and returns what it did, whatever
// its exit code; the error is the runner's.
func gitResult(ctx context.Context, r Runner, dir string, args ...string) (Result, error) {
	argv := append(append([]string{"git"}, hardened...), args...) // harden.go
	res, err := r.Run(ctx, dir, argv...)
	if err != nil {
		return res, fmt.Errorf("git %s in %s: %w", args[0], dir, err)
	}
	return res, nil
}

// gitError is a failed git command as an error: its first words and
// git's message (stderr, else stdout), trimmed.
func gitError(args []string, res Result) error {
	msg := strings.TrimSpace(res.Stderr)
	if msg == "" {
		msg = strings.TrimSpace(res.Stdout)
	}
	cmd := "git " + strings.Join(args[:min(2, len(args))], " ")
	if msg == "" {
		return fmt.Errorf("%s: exit status %d", cmd, res.ExitCode)
	}
	return fmt.Errorf("%s: %s", cmd, msg)
}

// splitZ splits NUL-terminated output (`-z`) into its fields, dropping
// the empty ones.
func splitZ(s string) []string {
	var out []string
	for _, f := range strings.Split(s, "\x00") {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// Repo is where a directory is in git: the root of its checkout (a
// worktree or the main one) and the repository's common git dir, the
// same for every worktree of one repository.
type Repo struct {
	Root, Common string
}

// Locate finds the checkout dir is in. An error when dir is in no git
// repository (or in a bare one).
func Locate(ctx context.Context, r Runner, dir string) (Repo, error) {
	res, err := gitResult(ctx, r, dir, "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir")
	if err != nil {
		return Repo{}, err
	}
	lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
	if res.ExitCode != 0 || len(lines) != 2 {
		return Repo{}, fmt.Errorf("%s is not in a git checkout: %w", dir, gitError([]string{"rev-parse"}, res))
	}
	return Repo{Root: lines[0], Common: lines[1]}, nil
}

// status is `git status --porcelain -z` of the checkout at root: the
// paths with changes, staged or not, and untracked files (each one, not
// their directory), relative to root. A rename is its two paths.
func status(ctx context.Context, r Runner, root string) ([]string, error) {
	out, err := git(ctx, r, root, "status", "--porcelain", "-z", "--untracked-files=all", "--no-renames")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, e := range splitZ(out) {
		if len(e) > 3 {
			paths = append(paths, e[3:]) // "XY path"
		}
	}
	return paths, nil
}
