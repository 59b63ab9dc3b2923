package act

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"

	"tandem/backend"
	"tandem/internal/rewind"
	"tandem/thread"
)

// files is a backend.Client with files (the fs methods) and a fork; any
// other method is not there.
type files struct {
	backend.Client
	data    map[string]string
	broken  map[string]bool // reading fails, not as missing
	forkErr error
	calls   []string
}

func (f *files) ReadFile(_ context.Context, p string) ([]byte, error) {
	f.calls = append(f.calls, "read "+p)
	if f.broken[p] {
		return nil, errors.New("permission denied")
	}
	s, ok := f.data[p]
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: p, Err: fs.ErrNotExist}
	}
	return []byte(s), nil
}

func (f *files) WriteFile(_ context.Context, p string, data []byte) error {
	f.calls = append(f.calls, "write "+p)
	f.data[p] = string(data)
	return nil
}

func (f *files) RemoveFile(_ context.Context, p string) error {
	f.calls = append(f.calls, "remove "+p)
	delete(f.data, p)
	return nil
}

func (f *files) ForkThread(_ context.Context, id, before string) (backend.ThreadResponse, error) {
	f.calls = append(f.calls, "fork "+id+" "+before)
	return backend.ThreadResponse{Thread: backend.Thread{ID: "t-fork"}}, f.forkErr
}

// The files of a change as the agent left them: one there, one gone, a
// move (its old path as gone), and one that can't be read left out.
func TestSnapFiles(t *testing.T) {
	c := &files{data: map[string]string{"/w/a.go": "a", "/w/new.go": "moved"}, broken: map[string]bool{"/w/locked": true}}
	got := SnapFiles{Turn: "turn-2", Files: []thread.FileDiff{{Path: "/w/a.go"}, {Path: "/w/gone.go"}, {Path: "/w/old.go", MovePath: "/w/new.go"}, {Path: "/w/locked"}}}.run(context.Background(), c).(FilesSnapped)
	want := map[string]rewind.Snapshot{
		"/w/a.go":    rewind.SnapshotOf([]byte("a"), true),
		"/w/gone.go": {},
		"/w/old.go":  {},
		"/w/new.go":  rewind.SnapshotOf([]byte("moved"), true),
	}
	if got.Turn != "turn-2" || !maps.Equal(got.Snaps, want) {
		t.Errorf("snapped %v %v; want %v", got.Turn, got.Snaps, want)
	}
}

// A rewind: the conversation only forks; with the code, the files are
// checked, then the thread forked, then the files written; a refusal
// forks nothing; a failed fork writes nothing.
func TestRewindThread(t *testing.T) {
	notes := []thread.FileDiff{{Path: "/w/notes.md", Kind: thread.FileAdd, Diff: "# notes\n"}}
	left := map[string]rewind.Snapshot{"/w/notes.md": rewind.SnapshotOf([]byte("# notes\n"), true)}
	tests := []struct {
		name    string
		data    string // notes.md now
		forkErr error
		a       RewindThread
		calls   []string
		forked  bool
		files   int
		err     string
	}{
		{"conversation only", "# notes\n", nil, RewindThread{Thread: "t", Turn: "turn-3"},
			[]string{"fork t turn-3"}, true, 0, ""},
		{"and code", "# notes\n", nil, RewindThread{Thread: "t", Turn: "turn-3", Code: true, Changes: notes, Expect: left},
			[]string{"read /w/notes.md", "fork t turn-3", "remove /w/notes.md"}, true, 1, ""},
		{"edited since", "# notes\nmine\n", nil, RewindThread{Thread: "t", Turn: "turn-3", Code: true, Changes: notes, Expect: left},
			[]string{"read /w/notes.md"}, false, 0, "files changed since"},
		{"fork fails", "# notes\n", errors.New("no rollout"), RewindThread{Thread: "t", Turn: "turn-3", Code: true, Changes: notes, Expect: left},
			[]string{"read /w/notes.md", "fork t turn-3"}, false, 0, "no rollout"}, // backend names the method
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &files{data: map[string]string{"/w/notes.md": tt.data}, forkErr: tt.forkErr}
			got := tt.a.run(context.Background(), c).(ThreadRewound)
			if !slices.Equal(c.calls, tt.calls) {
				t.Errorf("calls %q; want %q", c.calls, tt.calls)
			}
			if got.Forked != tt.forked || got.Files != tt.files {
				t.Errorf("forked %v, %d files; want %v, %d", got.Forked, got.Files, tt.forked, tt.files)
			}
			if tt.forked && got.Response.Thread.ID != "t-fork" {
				t.Errorf("response %+v", got.Response)
			}
			if (got.Err == nil) != (tt.err == "") || got.Err != nil && !strings.Contains(got.Err.Error(), tt.err) {
				t.Errorf("err %v; want %q", got.Err, tt.err)
			}
			var ce *rewind.ConflictError
			if tt.name == "edited since" && !errors.As(got.Err, &ce) {
				t.Errorf("a refusal is not a *rewind.ConflictError: %T", got.Err)
			}
		})
	}
}
