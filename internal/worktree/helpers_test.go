package worktree

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// identity is git's author and committer for the tests' commits.
var identity = []string{
	"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
	"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
	"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
}

// local is the runner the tests use: git here, with identity.
var local = Local{Env: identity}

// newRepo makes a repository "repo" in a fresh directory with one commit
// of files (path → content) and returns its root.
func newRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	parent, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(parent, "repo")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, root, "git", "init", "-q", "-b", "main")
	write(t, root, files)
	run(t, root, "git", "add", "-A")
	run(t, root, "git", "commit", "-q", "-m", "init")
	return root
}

// write writes files (path → content) under root.
func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// commit writes files under root and commits them all.
func commit(t *testing.T, root, msg string, files map[string]string) {
	t.Helper()
	write(t, root, files)
	run(t, root, "git", "add", "-A")
	run(t, root, "git", "commit", "-q", "-m", msg)
}

// run runs argv in dir with the tests' identity and returns its stdout,
// failing the test when it fails.
func run(t *testing.T, dir string, argv ...string) string {
	t.Helper()
	res, err := local.Run(context.Background(), dir, argv...)
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("%s in %s: %v exit %d\n%s%s", strings.Join(argv, " "), dir, err, res.ExitCode, res.Stdout, res.Stderr)
	}
	return res.Stdout
}

// state is everything of a checkout a refused operation must leave as it
// was: HEAD, the branches, `git status`, the worktree list, whether a
// merge is in progress, and every file's bytes (outside .git).
type state struct {
	head, branches, status, worktrees, merging string
	files                                      map[string]string
}

func snapshot(t *testing.T, root string) state {
	t.Helper()
	s := state{
		head:      run(t, root, "git", "rev-parse", "HEAD"),
		branches:  run(t, root, "git", "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads"),
		status:    run(t, root, "git", "status", "--porcelain=v1", "--untracked-files=all"),
		worktrees: run(t, root, "git", "worktree", "list", "--porcelain"),
		files:     map[string]string{},
	}
	res, _ := local.Run(context.Background(), root, "git", "rev-parse", "-q", "--verify", "MERGE_HEAD")
	s.merging = res.Stdout
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			s.files[p] = string(b)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// same fails the test where after differs from before.
func same(t *testing.T, what string, before, after state) {
	t.Helper()
	for _, c := range [][3]string{
		{"HEAD", before.head, after.head}, {"branches", before.branches, after.branches},
		{"git status", before.status, after.status}, {"worktrees", before.worktrees, after.worktrees},
		{"MERGE_HEAD", before.merging, after.merging},
	} {
		if c[1] != c[2] {
			t.Errorf("%s: %s changed:\nbefore %q\nafter  %q", what, c[0], c[1], c[2])
		}
	}
	if len(before.files) != len(after.files) {
		t.Errorf("%s: %d files before, %d after", what, len(before.files), len(after.files))
	}
	for p, b := range before.files {
		if a, ok := after.files[p]; !ok || a != b {
			t.Errorf("%s: %s changed: %q → %q (there: %v)", what, p, b, a, ok)
		}
	}
}
