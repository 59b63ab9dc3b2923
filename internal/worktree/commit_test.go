package worktree

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The agent could not commit (its sandbox held .git read-only): Merge
// refuses the worktree's uncommitted changes, naming them; CommitAndMerge
// with those files commits them on the branch with the message given
// (a deleted file too) and merges: the base gets every change.
func TestCommitAndMerge(t *testing.T) {
	root := newRepo(t, map[string]string{"a.txt": "a\n", "gone.txt": "x\n"})
	wt, err := Create(ctx, local, root, "sandboxed")
	if err != nil {
		t.Fatal(err)
	}
	write(t, wt.Path, map[string]string{"a.txt": "a agent\n", "dir/new.txt": "new\n"})
	if err := os.Remove(filepath.Join(wt.Path, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	_, err = Merge(ctx, local, wt)
	var dirty *DirtyError
	if !errors.As(err, &dirty) || dirty.Root != wt.Path {
		t.Fatalf("Merge = %v, want the worktree's changes refused", err)
	}
	m, err := CommitAndMerge(ctx, local, wt, "tandem: the work of thread fix", dirty.Files)
	if err != nil {
		t.Fatal(err)
	}
	if msg := strings.TrimSpace(run(t, wt.Path, "git", "log", "-1", "--format=%s")); msg != "tandem: the work of thread fix" {
		t.Errorf("the branch's last commit says %q", msg)
	}
	if st := run(t, wt.Path, "git", "status", "--porcelain"); st != "" {
		t.Errorf("the worktree is not clean after the commit:\n%s", st)
	}
	if head := strings.TrimSpace(run(t, root, "git", "rev-parse", "HEAD")); head != m.Commit {
		t.Errorf("the base's HEAD %s, Merged.Commit %s", head, m.Commit)
	}
	if want := []string{"a.txt", "dir/new.txt", "gone.txt"}; !slices.Equal(m.Files, want) {
		t.Errorf("merged files %v, want %v", m.Files, want)
	}
	if b, err := os.ReadFile(filepath.Join(root, "dir/new.txt")); err != nil || string(b) != "new\n" {
		t.Errorf("the base's dir/new.txt: %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(root, "gone.txt")); !os.IsNotExist(err) {
		t.Errorf("gone.txt is still at the base: %v", err)
	}
}

// Changes other than the files shown (the agent wrote another file
// since the question, or one of them is gone) refuse the commit: nothing
// is committed or merged, both checkouts stay as they were.
func TestCommitAndMergeRefusesOtherChanges(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		shown      []string
	}{
		{"a new file", "new: b.txt", []string{"a.txt"}},
		{"a file gone", "gone: c.txt", []string{"a.txt", "b.txt", "c.txt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := newRepo(t, map[string]string{"a.txt": "a\n"})
			wt, err := Create(ctx, local, root, "moving")
			if err != nil {
				t.Fatal(err)
			}
			write(t, wt.Path, map[string]string{"a.txt": "a agent\n", "b.txt": "b\n"})
			base, tree := snapshot(t, root), snapshot(t, wt.Path)
			_, err = CommitAndMerge(ctx, local, wt, "tandem: moving", tc.shown)
			var changed *ChangedError
			if !errors.As(err, &changed) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "nothing was committed") {
				t.Fatalf("CommitAndMerge = %v, want a *ChangedError saying %q", err, tc.want)
			}
			same(t, "the base checkout", base, snapshot(t, root))
			same(t, "the worktree", tree, snapshot(t, wt.Path))
		})
	}
}

// A conflict after the commit: the merge is refused with the files
// named and the base unchanged; the error says the commit was made on
// the branch, and it is there.
func TestCommitAndMergeConflictKeepsTheCommit(t *testing.T) {
	root := newRepo(t, map[string]string{"f.txt": "1\n2\n3\n"})
	wt, err := Create(ctx, local, root, "clash")
	if err != nil {
		t.Fatal(err)
	}
	commit(t, root, "user", map[string]string{"f.txt": "1\nuser\n3\n"})
	write(t, wt.Path, map[string]string{"f.txt": "1\nagent\n3\n"})
	base := snapshot(t, root)
	_, err = CommitAndMerge(ctx, local, wt, "tandem: clash", []string{"f.txt"})
	var committed *CommittedError
	var conflict *ConflictError
	if !errors.As(err, &committed) || !errors.As(err, &conflict) || !slices.Equal(conflict.Files, []string{"f.txt"}) {
		t.Fatalf("CommitAndMerge = %v, want the commit made and the conflict in f.txt", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "committed the changes on tandem/clash") || !strings.Contains(msg, "would conflict in f.txt") {
		t.Errorf("the error %q does not say the commit was made and the merge refused", msg)
	}
	after := snapshot(t, root)
	after.branches, after.worktrees = base.branches, base.worktrees // the branch has the commit: below
	same(t, "the base checkout", base, after)
	if head := strings.TrimSpace(run(t, wt.Path, "git", "rev-parse", "HEAD")); !strings.HasPrefix(head, committed.Commit) || committed.Commit == "" {
		t.Errorf("the branch's HEAD %s, the commit named %q", head, committed.Commit)
	}
	if msg := strings.TrimSpace(run(t, wt.Path, "git", "log", "-1", "--format=%s")); msg != "tandem: clash" {
		t.Errorf("the branch's last commit says %q", msg)
	}
}

// A repository whose config names commands is refused before anything
// runs: no commit, no merge, and the hook or fsmonitor never ran.
func TestCommitAndMergeRefusesHostileConfig(t *testing.T) {
	root := newRepo(t, map[string]string{"a.txt": "a\n"})
	wt, err := Create(ctx, local, root, "hostile")
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "ran")
	write(t, wt.Path, map[string]string{"a.txt": "a agent\n"})
	run(t, root, "git", "config", "filter.x.clean", "touch "+marker)
	base, tree := snapshot(t, root), snapshot(t, wt.Path)
	if _, err := CommitAndMerge(ctx, local, wt, "tandem: hostile", []string{"a.txt"}); !errors.Is(err, ErrRepoRunsCommands) || !strings.Contains(err.Error(), "filter.x.clean") {
		t.Fatalf("CommitAndMerge = %v, want the config refused", err)
	}
	same(t, "the base checkout", base, snapshot(t, root))
	same(t, "the worktree", tree, snapshot(t, wt.Path))
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the repository's filter ran")
	}
}
