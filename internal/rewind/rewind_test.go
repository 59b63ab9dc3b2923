package rewind

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"strings"
	"testing"

	"tandem/thread"
)

// memFS is an FS in memory; failWrite names a path whose write fails.
type memFS struct {
	files     map[string]string
	failWrite string
	writes    int
}

func (m *memFS) ReadFile(_ context.Context, p string) ([]byte, error) {
	s, ok := m.files[p]
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: p, Err: fs.ErrNotExist}
	}
	return []byte(s), nil
}

func (m *memFS) WriteFile(_ context.Context, p string, data []byte) error {
	if p == m.failWrite {
		return errors.New("disk full")
	}
	m.writes++
	m.files[p] = string(data)
	return nil
}

func (m *memFS) RemoveFile(_ context.Context, p string) error {
	if _, ok := m.files[p]; !ok {
		return &fs.PathError{Op: "remove", Path: p, Err: fs.ErrNotExist}
	}
	m.writes++
	delete(m.files, p)
	return nil
}

const (
	greetV1 = "#!/bin/sh\nname=${1:-world}\necho \"Hello, $name!\"\n"
	greetV2 = "#!/bin/sh\nname=${1:-world}\necho \"Ahoy, $name!\"\n"
	// what the server sends for the v1 → v2 update
	greetDiff = "@@ -2,2 +2,2 @@\n name=${1:-world}\n-echo \"Hello, $name!\"\n+echo \"Ahoy, $name!\"\n"
)

func TestReverse(t *testing.T) {
	cases := []struct {
		name, cur, diff, want, err string
	}{
		{"one hunk", greetV2, greetDiff, greetV1, ""},
		{"two hunks", "a\nB\nc\nd\ne\nf\nG\nh\n", "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n@@ -6,3 +6,3 @@\n f\n-g\n+G\n h\n", "a\nb\nc\nd\ne\nf\ng\nh\n", ""},
		{"added lines", "a\nnew1\nnew2\nb\n", "@@ -1,2 +1,4 @@\n a\n+new1\n+new2\n b\n", "a\nb\n", ""},
		{"removed lines at the end", "a\n", "@@ -1,3 +1,1 @@\n a\n-b\n-c\n", "a\nb\nc\n", ""},
		{"pure deletion, empty new side", "a\nd\n", "@@ -2,2 +1,0 @@\n-b\n-c\n", "a\nb\nc\nd\n", ""},
		{"no newline at end, new side", "a\nb", "@@ -1,2 +1,2 @@\n a\n-c\n+b\n\\ No newline at end of file\n", "a\nc\n", ""},
		{"no newline at end, old side", "a\nb\n", "@@ -1,2 +1,2 @@\n a\n-c\n\\ No newline at end of file\n+b\n", "a\nc", ""},
		{"headers skipped", greetV2, "--- a/greet.sh\n+++ b/greet.sh\n" + greetDiff, greetV1, ""},
		{"a move's trailing note", "y\nkeep\n", "@@ -1,2 +1,2 @@\n-x\n+y\n keep\n\n\nMoved to: /w/b.txt", "x\nkeep\n", ""},
		{"a hunk cut short", greetV2, "@@ -1,3 +1,3 @@\n #!/bin/sh\n", "", "lines missing"},
		{"edited inside the hunk", strings.Replace(greetV2, "Ahoy", "Ahoy!!", 1), greetDiff, "", "line 3 differs"},
		{"file got shorter", "#!/bin/sh\n", greetDiff, "", "past the end"},
		{"no hunks", greetV2, "not a diff", "", "no hunks"},
		{"bad header", greetV2, "@@ -x +y @@\n", "", "bad hunk header"},
		// Lines read by the counts, whatever they start with.
		{"signs doubled", "+++ x\nkeep\n", "@@ -1,2 +1,2 @@\n--- SECURITY\n++++ x\n keep\n", "-- SECURITY\nkeep\n", ""},
		{"CRLF", "a\r\nB\r\n", "@@ -1,2 +1,2 @@\r\n a\r\n-b\r\n+B\r\n", "a\r\nb\r\n", ""},
		{"lines past the counts", "y\nz\n", "@@ -1 +1 @@\n-x\n+y\n+z\n", "", "disagree"},
	}
	for _, c := range cases {
		got, err := Reverse([]byte(c.cur), c.diff)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err %v; want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || string(got) != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

// A turn's worth of changes: greet.sh updated, notes.md created,
// old.txt deleted, src/a.go moved to src/b.go with an edit.
var turn = []thread.FileDiff{
	{Path: "/w/greet.sh", Kind: "update", Diff: greetDiff},
	{Path: "/w/notes.md", Kind: "add", Diff: "# notes\n"},
	{Path: "/w/old.txt", Kind: "delete", Diff: "old content\n"},
	{Path: "/w/src/a.go", Kind: "update", MovePath: "/w/src/b.go", Diff: "@@ -1,1 +1,1 @@\n-package a\n+package b\n"},
}

func before() map[string]string {
	return map[string]string{"/w/greet.sh": greetV1, "/w/old.txt": "old content\n", "/w/src/a.go": "package a\n", "/w/keep.txt": "untouched\n"}
}

func after() map[string]string {
	return map[string]string{"/w/greet.sh": greetV2, "/w/notes.md": "# notes\n", "/w/src/b.go": "package b\n", "/w/keep.txt": "untouched\n"}
}

func TestPrepareAndApplyRestoreExactly(t *testing.T) {
	m := &memFS{files: after()}
	p, err := Prepare(context.Background(), m, turn, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Writes) != 5 {
		t.Errorf("%d writes; want 5 (greet.sh, notes.md, old.txt, a.go, b.go)", len(p.Writes))
	}
	if m.writes != 0 {
		t.Fatal("Prepare wrote")
	}
	if err := p.Apply(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(m.files, before()) {
		t.Errorf("after the rewind:\n%q\nwant\n%q", m.files, before())
	}
}

// Two turns undone newest first: an edit of an edit.
func TestPrepareUndoesNewestFirst(t *testing.T) {
	v3 := strings.Replace(greetV2, "Ahoy", "Arr", 1)
	second := thread.FileDiff{Path: "/w/greet.sh", Kind: "update", Diff: "@@ -3,1 +3,1 @@\n-echo \"Ahoy, $name!\"\n+echo \"Arr, $name!\"\n"}
	m := &memFS{files: map[string]string{"/w/greet.sh": v3}}
	p, err := Prepare(context.Background(), m, []thread.FileDiff{turn[0], second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(context.Background(), m); err != nil || m.files["/w/greet.sh"] != greetV1 {
		t.Errorf("greet.sh %q, %v; want v1", m.files["/w/greet.sh"], err)
	}
}

func TestPrepareRefusesAndTouchesNothing(t *testing.T) {
	cases := []struct {
		name   string
		edit   func(map[string]string)
		expect map[string]Snapshot
		want   []string // conflicting paths
	}{
		{"hunk edited by hand", func(f map[string]string) { f["/w/greet.sh"] = strings.Replace(greetV2, "Ahoy", "Howdy", 1) }, nil, []string{"/w/greet.sh"}},
		{"created file edited", func(f map[string]string) { f["/w/notes.md"] += "mine\n" }, nil, []string{"/w/notes.md"}},
		{"created file removed", func(f map[string]string) { delete(f, "/w/notes.md") }, nil, []string{"/w/notes.md"}},
		{"deleted file back", func(f map[string]string) { f["/w/old.txt"] = "new\n" }, nil, []string{"/w/old.txt"}},
		{"moved file's old name taken", func(f map[string]string) { f["/w/src/a.go"] = "x\n" }, nil, []string{"/w/src/a.go"}},
		// Outside every hunk: only the snapshot tells.
		{"edit outside the hunks", func(f map[string]string) { f["/w/greet.sh"] = "# mine\n" + greetV2[len("#!/bin/sh\n"):] },
			map[string]Snapshot{"/w/greet.sh": SnapshotOf([]byte(greetV2), true)}, []string{"/w/greet.sh"}},
		{"two files", func(f map[string]string) { f["/w/greet.sh"] = "x\n"; f["/w/notes.md"] = "y\n" }, nil, []string{"/w/greet.sh", "/w/notes.md"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := after()
			c.edit(files)
			m := &memFS{files: maps.Clone(files)}
			_, err := Prepare(context.Background(), m, turn, c.expect)
			var ce *ConflictError
			if !errors.As(err, &ce) {
				t.Fatalf("err %v; want a ConflictError", err)
			}
			var got []string
			for _, x := range ce.Conflicts {
				got = append(got, x.Path)
			}
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("conflicts %v; want %v", ce.Conflicts, c.want)
			}
			if !strings.Contains(err.Error(), "nothing was rewound") || m.writes != 0 || !maps.Equal(m.files, files) {
				t.Errorf("files touched, or the error doesn't say so: %v", err)
			}
		})
	}
}

// A write that fails puts back the files written before it.
func TestApplyFailurePutsBack(t *testing.T) {
	m := &memFS{files: after(), failWrite: "/w/src/a.go"}
	p, err := Prepare(context.Background(), m, turn, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = p.Apply(context.Background(), m)
	if err == nil || !strings.Contains(err.Error(), "disk full") || !strings.Contains(err.Error(), "put back") {
		t.Fatalf("err %v", err)
	}
	if !maps.Equal(m.files, after()) {
		t.Errorf("files after a failed rewind:\n%q\nwant them as they were", m.files)
	}
}

// A file moved twice (a.txt → b.txt → sub/c.txt) comes back as a.txt.
func TestPrepareUndoesChainedMoves(t *testing.T) {
	moves := []thread.FileDiff{
		{Path: "/w/a.txt", Kind: "update", MovePath: "/w/b.txt", Diff: "@@ -1,2 +1,2 @@\n-x\n+y\n keep\n"},
		{Path: "/w/b.txt", Kind: "update", MovePath: "/w/sub/c.txt", Diff: "@@ -1,2 +1,2 @@\n-y\n+z\n keep\n"},
	}
	m := &memFS{files: map[string]string{"/w/sub/c.txt": "z\nkeep\n"}}
	for _, undo := range [][]thread.FileDiff{moves[1:], moves} {
		mm := &memFS{files: maps.Clone(m.files)}
		p, err := Prepare(context.Background(), mm, undo, nil)
		if err != nil {
			t.Fatalf("%d moves: %v", len(undo), err)
		}
		if err := p.Apply(context.Background(), mm); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"/w/b.txt": "y\nkeep\n"}
		if len(undo) == 2 {
			want = map[string]string{"/w/a.txt": "x\nkeep\n"}
		}
		if !maps.Equal(mm.files, want) {
			t.Errorf("undoing %d moves: %q; want %q", len(undo), mm.files, want)
		}
	}
}

func TestSummarize(t *testing.T) {
	hostile := []thread.FileDiff{
		{Path: "/w/tool.py", Kind: "add", Diff: "print(1)\n++__import__('os')\n"},
		{Path: "/w/schema.sql", Kind: "update", Diff: "--- a/schema.sql\n+++ b/schema.sql\n@@ -1,2 +1,1 @@\n--- SECURITY\n keep\n"},
	}
	if got := Summarize(hostile); len(got) != 2 || got[0].Added != 2 || got[1].Added != 0 || got[1].Removed != 1 {
		t.Errorf("hostile lines: %+v; want tool.py +2, schema.sql -1", got)
	}
	got := Summarize(turn)
	want := []Stat{{"/w/greet.sh", "update", 1, 1, ""}, {"/w/notes.md", "add", 1, 0, ""}, {"/w/old.txt", "delete", 0, 1, ""}, {"/w/src/b.go", "update", 1, 1, "/w/src/a.go"}}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("stat %d: %+v; want %+v", i, got[i], want[i])
		}
	}
}
