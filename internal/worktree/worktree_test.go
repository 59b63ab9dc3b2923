package worktree

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var ctx = context.Background()

func TestCreate(t *testing.T) {
	root := newRepo(t, map[string]string{"a.txt": "a\n"})
	sub := filepath.Join(root, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	wt, err := Create(ctx, local, sub, "fix-login")
	if err != nil {
		t.Fatal(err)
	}
	want := Worktree{Name: "fix-login", Path: filepath.Join(filepath.Dir(root), "repo-fix-login"), Branch: "tandem/fix-login",
		Base: root, Common: filepath.Join(root, ".git")}
	if wt != want {
		t.Fatalf("Create = %+v\nwant     %+v", wt, want)
	}
	if got := strings.TrimSpace(run(t, wt.Path, "git", "symbolic-ref", "--short", "HEAD")); got != "tandem/fix-login" {
		t.Errorf("the worktree has %q checked out, want tandem/fix-login", got)
	}
	if a, b := run(t, wt.Path, "git", "rev-parse", "HEAD"), run(t, root, "git", "rev-parse", "HEAD"); a != b {
		t.Errorf("the branch starts at %s, not at the base's HEAD %s", a, b)
	}
	if b, err := os.ReadFile(filepath.Join(wt.Path, "a.txt")); err != nil || string(b) != "a\n" {
		t.Errorf("a.txt in the worktree: %q, %v", b, err)
	}
	list, err := List(ctx, local, root)
	if err != nil || len(list) != 1 || list[0] != want {
		t.Errorf("List = %+v, %v; want [%+v]", list, err, want)
	}
	found, err := Find(ctx, local, filepath.Join(wt.Path))
	if err != nil || found != want {
		t.Errorf("Find = %+v, %v", found, err)
	}
	if _, err := Find(ctx, local, root); err == nil {
		t.Errorf("Find in the base checkout found a tandem worktree")
	}
}

func TestCreateMakesUpAName(t *testing.T) {
	root := newRepo(t, map[string]string{"a.txt": "a\n"})
	wt, err := Create(ctx, local, root, "")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^wt-[0-9a-f]{6}$`).MatchString(wt.Name) || wt.Branch != Prefix+wt.Name {
		t.Errorf("made-up name %q, branch %q", wt.Name, wt.Branch)
	}
	if _, err := os.Stat(wt.Path); err != nil {
		t.Errorf("no worktree at %s: %v", wt.Path, err)
	}
}

// A bad or taken name is refused with its reason, and nothing is made:
// no branch, no directory, no worktree.
func TestCreateRefusesNames(t *testing.T) {
	for _, tc := range []struct {
		name, why string
		want      error
	}{
		{"a/b", "'/'", ErrBadName},
		{"-x", "starting with '-'", ErrBadName},
		{"two..dots", "check-ref-format", ErrBadName},
		{"has space", "check-ref-format", ErrBadName},
		{"x.lock", "check-ref-format", ErrBadName},
		{"ends.", "check-ref-format", ErrBadName},
		{"taken", "the branch tandem/taken exists", ErrNameTaken},
		{"there", "repo-there exists", ErrNameTaken},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := newRepo(t, map[string]string{"a.txt": "a\n"})
			run(t, root, "git", "branch", "tandem/taken")
			if err := os.Mkdir(filepath.Join(filepath.Dir(root), "repo-there"), 0o755); err != nil {
				t.Fatal(err)
			}
			entries := func() []string {
				es, _ := os.ReadDir(filepath.Dir(root))
				var names []string
				for _, e := range es {
					names = append(names, e.Name())
				}
				return names
			}
			dirs, before := entries(), snapshot(t, root)
			_, err := Create(ctx, local, root, tc.name)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Create(%q) = %v, want %v", tc.name, err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.name) || !strings.Contains(err.Error(), tc.why) {
				t.Errorf("the error %q does not name %q and why (%s)", err, tc.name, tc.why)
			}
			same(t, "after a refused name", before, snapshot(t, root))
			if got := entries(); !slices.Equal(got, dirs) {
				t.Errorf("beside the repository: %v, was %v", got, dirs)
			}
		})
	}
}

func TestCreateOutsideARepository(t *testing.T) {
	dir := t.TempDir()
	if _, err := Create(ctx, local, dir, "x"); err == nil || !strings.Contains(err.Error(), "not in a git checkout") {
		t.Errorf("Create outside a repository: %v", err)
	}
}

func TestMergeClean(t *testing.T) {
	root := newRepo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	wt, err := Create(ctx, local, root, "feature")
	if err != nil {
		t.Fatal(err)
	}
	commit(t, wt.Path, "agent's work", map[string]string{"a.txt": "a from the agent\n", "new/c.txt": "c\n"})
	commit(t, root, "meanwhile", map[string]string{"b.txt": "b changed at the base\n"})
	write(t, root, map[string]string{"notes.txt": "the user's own, untouched by the merge\n"})
	m, err := Merge(ctx, local, wt)
	if err != nil {
		t.Fatal(err)
	}
	if m.UpToDate || !slices.Equal(m.Files, []string{"a.txt", "new/c.txt"}) {
		t.Errorf("Merge = %+v, want a.txt and new/c.txt changed", m)
	}
	if head := strings.TrimSpace(run(t, root, "git", "rev-parse", "HEAD")); head != m.Commit {
		t.Errorf("the base's HEAD %s, Merge said %s", head, m.Commit)
	}
	for p, want := range map[string]string{"a.txt": "a from the agent\n", "new/c.txt": "c\n", "b.txt": "b changed at the base\n",
		"notes.txt": "the user's own, untouched by the merge\n"} {
		if b, _ := os.ReadFile(filepath.Join(root, p)); string(b) != want {
			t.Errorf("%s at the base: %q, want %q", p, b, want)
		}
	}
	again, err := Merge(ctx, local, wt)
	if err != nil || !again.UpToDate {
		t.Errorf("merging again: %+v, %v; want up to date", again, err)
	}
}

// A conflicting merge is refused with the files named, and neither the
// base checkout nor the worktree changes: HEAD, branches, status, the
// worktree list, no merge in progress, every file's bytes.
func TestMergeConflictChangesNothing(t *testing.T) {
	root := newRepo(t, map[string]string{"f.txt": "1\n2\n3\n", "g.txt": "g\n", "h.txt": "h\n"})
	wt, err := Create(ctx, local, root, "clash")
	if err != nil {
		t.Fatal(err)
	}
	commit(t, wt.Path, "agent", map[string]string{"f.txt": "1\nagent\n3\n", "g.txt": "g agent\n", "h.txt": "h agent\n"})
	commit(t, root, "user", map[string]string{"f.txt": "1\nuser\n3\n", "g.txt": "g user\n"})
	write(t, root, map[string]string{"scratch.txt": "untracked\n"})
	base, tree := snapshot(t, root), snapshot(t, wt.Path)
	_, err = Merge(ctx, local, wt)
	var conflict *ConflictError
	if !errors.As(err, &conflict) {
		t.Fatalf("Merge = %v, want a *ConflictError", err)
	}
	if !slices.Equal(conflict.Files, []string{"f.txt", "g.txt"}) {
		t.Errorf("conflict in %v, want f.txt and g.txt", conflict.Files)
	}
	if msg := err.Error(); !strings.Contains(msg, "f.txt, g.txt") || !strings.Contains(msg, "nothing was changed") {
		t.Errorf("the refusal %q does not name the files", msg)
	}
	same(t, "the base checkout", base, snapshot(t, root))
	same(t, "the worktree", tree, snapshot(t, wt.Path))
}

func TestMergeRefusesUncommittedWork(t *testing.T) {
	root := newRepo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	wt, err := Create(ctx, local, root, "wip")
	if err != nil {
		t.Fatal(err)
	}
	commit(t, wt.Path, "agent", map[string]string{"a.txt": "a agent\n"})
	write(t, wt.Path, map[string]string{"b.txt": "not committed\n", "new.txt": "untracked\n"})
	base, tree := snapshot(t, root), snapshot(t, wt.Path)
	_, err = Merge(ctx, local, wt)
	var dirty *DirtyError
	if !errors.As(err, &dirty) || dirty.Root != wt.Path || !slices.Equal(dirty.Files, []string{"b.txt", "new.txt"}) {
		t.Fatalf("Merge = %v, want the worktree's b.txt and new.txt named", err)
	}
	same(t, "the base checkout", base, snapshot(t, root))
	same(t, "the worktree", tree, snapshot(t, wt.Path))
}

// Uncommitted changes at the base in a file the merge would change
// refuse it; in another file they stay, and the merge goes on.
func TestMergeDirtyBase(t *testing.T) {
	root := newRepo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	wt, err := Create(ctx, local, root, "dirty-base")
	if err != nil {
		t.Fatal(err)
	}
	commit(t, wt.Path, "agent", map[string]string{"a.txt": "a agent\n"})
	write(t, root, map[string]string{"a.txt": "a being edited\n"})
	base, tree := snapshot(t, root), snapshot(t, wt.Path)
	_, err = Merge(ctx, local, wt)
	var dirty *DirtyError
	if !errors.As(err, &dirty) || dirty.Root != root || !slices.Equal(dirty.Files, []string{"a.txt"}) {
		t.Fatalf("Merge = %v, want the base's a.txt named", err)
	}
	same(t, "the base checkout", base, snapshot(t, root))
	same(t, "the worktree", tree, snapshot(t, wt.Path))

	run(t, root, "git", "checkout", "a.txt")
	write(t, root, map[string]string{"b.txt": "b being edited\n"})
	if _, err := Merge(ctx, local, wt); err != nil {
		t.Fatalf("Merge with b.txt edited at the base: %v", err)
	}
	for p, want := range map[string]string{"a.txt": "a agent\n", "b.txt": "b being edited\n"} {
		if b, _ := os.ReadFile(filepath.Join(root, p)); string(b) != want {
			t.Errorf("%s at the base: %q, want %q", p, b, want)
		}
	}
}

func TestRemove(t *testing.T) {
	root := newRepo(t, map[string]string{"a.txt": "a\n"})
	wt, err := Create(ctx, local, root, "scratch")
	if err != nil {
		t.Fatal(err)
	}
	write(t, wt.Path, map[string]string{"a.txt": "edited\n", "new.txt": "n\n"})
	base, tree := snapshot(t, root), snapshot(t, wt.Path)
	err = Remove(ctx, local, wt, false)
	var dirty *DirtyError
	if !errors.As(err, &dirty) || !slices.Equal(dirty.Files, []string{"a.txt", "new.txt"}) {
		t.Fatalf("Remove of a dirty worktree = %v, want a.txt and new.txt named", err)
	}
	same(t, "the base checkout", base, snapshot(t, root))
	same(t, "the worktree", tree, snapshot(t, wt.Path))

	if err := Remove(ctx, local, wt, true); err != nil {
		t.Fatalf("Remove forced: %v", err)
	}
	if _, err := os.Stat(wt.Path); !os.IsNotExist(err) {
		t.Errorf("%s still there: %v", wt.Path, err)
	}
	if out := run(t, root, "git", "branch", "--list", "tandem/*"); out != "" {
		t.Errorf("branches left: %q", out)
	}
	if out := run(t, root, "git", "config", "--list"); strings.Contains(out, "tandembase") {
		t.Errorf("the base record is left: %q", out)
	}
	if list, err := List(ctx, local, root); err != nil || len(list) != 0 {
		t.Errorf("List after Remove = %+v, %v", list, err)
	}
}

// A branch with commits the base lacks is not dropped without force;
// merged, it is removed.
func TestRemoveUnmerged(t *testing.T) {
	root := newRepo(t, map[string]string{"a.txt": "a\n"})
	wt, err := Create(ctx, local, root, "work")
	if err != nil {
		t.Fatal(err)
	}
	commit(t, wt.Path, "agent", map[string]string{"a.txt": "agent\n"})
	before := snapshot(t, root)
	var unmerged *UnmergedError
	if err := Remove(ctx, local, wt, false); !errors.As(err, &unmerged) || unmerged.Commits != 1 {
		t.Fatalf("Remove of an unmerged branch = %v", err)
	}
	same(t, "the base checkout", before, snapshot(t, root))
	if _, err := Merge(ctx, local, wt); err != nil {
		t.Fatal(err)
	}
	if err := Remove(ctx, local, wt, false); err != nil {
		t.Fatalf("Remove once merged: %v", err)
	}
	if _, err := os.Stat(wt.Path); !os.IsNotExist(err) {
		t.Errorf("%s still there", wt.Path)
	}
}

func TestChanged(t *testing.T) {
	root := newRepo(t, map[string]string{"a.txt": "a\n", "d/b.txt": "b\n", "c.txt": "c\n"})
	wt, err := Create(ctx, local, root, "x")
	if err != nil {
		t.Fatal(err)
	}
	write(t, wt.Path, map[string]string{"a.txt": "edited\n", "d/e/new.txt": "n\n", "name with space.txt": "s\n"})
	run(t, wt.Path, "git", "mv", "c.txt", "moved.txt")
	got, err := Changed(ctx, local, filepath.Join(wt.Path, "d"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, p := range []string{"a.txt", "c.txt", "d/e/new.txt", "moved.txt", "name with space.txt"} {
		want = append(want, filepath.Join(wt.Path, p))
	}
	slices.Sort(got.Paths)
	if got.Root != wt.Path || got.Common != filepath.Join(root, ".git") || !slices.Equal(got.Paths, want) {
		t.Errorf("Changed = %+v\nwant root %s, common %s/.git, paths %q", got, wt.Path, root, want)
	}
}
