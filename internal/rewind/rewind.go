// Package rewind takes back file changes an agent made: it reverse-applies
// a run of changes (thread.FileDiff, as the server reported them), newest
// first, to the files as they are now, and writes the result only when
// every file still is what the agent left.
//
// The files are read and written through an FS: the app-server's own
// file methods (backend.Client: fs/readFile, fs/writeFile, fs/remove),
// so a thread running on an SSH remote is rewound there.
//
// It imports tandem/thread and the shared diff reader
// (tandem/internal/lib/unidiff), nothing else from tandem.
package rewind

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"tandem/internal/lib/unidiff"
	"tandem/thread"
)

// FS reads and writes files where the thread runs. A missing file is an
// error matching fs.ErrNotExist.
type FS interface {
	ReadFile(ctx context.Context, path string) ([]byte, error)
	WriteFile(ctx context.Context, path string, data []byte) error
	RemoveFile(ctx context.Context, path string) error
}

// Snapshot is a file as the agent left it, read once its change was
// applied: whether it exists, and the SHA-256 of its content.
type Snapshot struct {
	Exists bool
	Sum    [32]byte
}

// SnapshotOf is the snapshot of data (exists true) or of a missing file
// (data nil, exists false).
func SnapshotOf(data []byte, exists bool) Snapshot {
	if !exists {
		return Snapshot{}
	}
	return Snapshot{Exists: true, Sum: sha256.Sum256(data)}
}

// Write is one file a Plan changes: its new content, or Remove; Was is
// what it is now (Existed false: missing), to put back if a later write
// fails.
type Write struct {
	Path    string
	Data    []byte
	Remove  bool
	Was     []byte
	Existed bool
}

// Plan is what taking the changes back writes, in path order.
type Plan struct {
	Writes []Write
}

// Conflict is a file that can't be taken back, and why.
type Conflict struct {
	Path, Why string
}

// ConflictError is Prepare's refusal: the files that changed since the
// agent left them (or can't be read). Nothing was written.
type ConflictError struct {
	Conflicts []Conflict
}

func (e *ConflictError) Error() string {
	var b strings.Builder
	b.WriteString("files changed since the agent edited them, so nothing was rewound: ")
	for i, c := range e.Conflicts {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(c.Path + " (" + c.Why + ")")
	}
	return b.String()
}

// file is one path's state while the changes are undone.
type file struct {
	data   []byte
	exists bool
}

// Prepare reads the files changes touched and undoes changes on them in
// memory, newest first. expect, when it has a path, is how the agent left
// that file after the last of changes (see Snapshot): a file that differs
// now was edited since, and is a conflict. Without a snapshot a file must
// still match what each change left where that change is checked: an
// added file its whole content, a deleted file must be missing, an
// updated file the new side of every hunk. Any conflict refuses the whole
// rewind (*ConflictError) and nothing is written.
func Prepare(ctx context.Context, fsys FS, changes []thread.FileDiff, expect map[string]Snapshot) (*Plan, error) {
	now := map[string]file{} // as they are now
	cur := map[string]file{} // as the undo goes
	var conflicts []Conflict
	conflict := func(path, why string) {
		for _, c := range conflicts {
			if c.Path == path {
				return
			}
		}
		conflicts = append(conflicts, Conflict{path, why})
	}
	load := func(path string) (file, error) {
		if f, ok := cur[path]; ok {
			return f, nil
		}
		data, err := fsys.ReadFile(ctx, path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			now[path] = file{}
		case err != nil:
			return file{}, err
		default:
			now[path] = file{data: data, exists: true}
		}
		cur[path] = now[path]
		if want, ok := expect[path]; ok && SnapshotOf(now[path].data, now[path].exists) != want {
			switch {
			case want.Exists && !now[path].exists:
				conflict(path, "deleted since")
			case !want.Exists:
				conflict(path, "created again since")
			default:
				conflict(path, "edited since")
			}
		}
		return cur[path], nil
	}
	for i := len(changes) - 1; i >= 0; i-- {
		c := changes[i]
		if c.Path == "" {
			continue
		}
		at := c.Path
		if c.Kind == thread.FileUpdate && c.MovePath != "" {
			at = c.MovePath
		}
		f, err := load(at)
		if err != nil {
			conflict(at, "can't be read: "+err.Error())
			continue
		}
		switch c.Kind {
		case thread.FileAdd:
			if !f.exists {
				conflict(at, "deleted since")
			} else if !bytes.Equal(f.data, []byte(c.Diff)) {
				conflict(at, "edited since")
			}
			cur[at] = file{}
		case thread.FileDelete:
			if f.exists {
				conflict(at, "created again since")
			}
			cur[at] = file{data: []byte(c.Diff), exists: true}
		case thread.FileUpdate:
			if !f.exists {
				conflict(at, "deleted since")
				continue
			}
			old, err := Reverse(f.data, c.Diff)
			if err != nil {
				conflict(at, "edited since ("+err.Error()+")")
				continue
			}
			if at != c.Path {
				if _, err := load(c.Path); err != nil {
					conflict(c.Path, "can't be read: "+err.Error())
					continue
				}
				if cur[c.Path].exists {
					conflict(c.Path, "created again since")
				}
				cur[at] = file{}
			}
			cur[c.Path] = file{data: old, exists: true}
		default:
			conflict(at, "unknown kind of change "+strconv.Quote(c.Kind))
		}
	}
	if len(conflicts) > 0 {
		sort.Slice(conflicts, func(i, j int) bool { return conflicts[i].Path < conflicts[j].Path })
		return nil, &ConflictError{Conflicts: conflicts}
	}
	p := &Plan{}
	for path, f := range cur {
		was := now[path]
		if f.exists == was.exists && bytes.Equal(f.data, was.data) {
			continue
		}
		p.Writes = append(p.Writes, Write{Path: path, Data: f.data, Remove: !f.exists, Was: was.data, Existed: was.exists})
	}
	sort.Slice(p.Writes, func(i, j int) bool { return p.Writes[i].Path < p.Writes[j].Path })
	return p, nil
}

// ApplyError is Apply's failure: writing Path failed with Err; the files
// written before it were put back as they were, except NotPutBack (left
// as rewound: the server may be gone).
type ApplyError struct {
	Path       string
	Err        error
	NotPutBack []string
}

func (e *ApplyError) Error() string {
	s := "rewinding " + e.Path + ": " + e.Err.Error()
	if len(e.NotPutBack) > 0 {
		return s + fmt.Sprintf("; %d file(s) already rewound could not be put back", len(e.NotPutBack))
	}
	return s + " (the files before it were put back)"
}

func (e *ApplyError) Unwrap() error { return e.Err }

// Apply writes the plan. When a write fails, the files already written
// are put back as they were, and the error (*ApplyError) says which file
// failed and any that could not be put back.
func (p *Plan) Apply(ctx context.Context, fsys FS) error {
	for i, w := range p.Writes {
		if err := put(ctx, fsys, w.Path, w.Data, !w.Remove); err != nil {
			ae := &ApplyError{Path: w.Path, Err: err}
			for _, done := range p.Writes[:i] {
				if err := put(ctx, fsys, done.Path, done.Was, done.Existed); err != nil {
					ae.NotPutBack = append(ae.NotPutBack, done.Path)
				}
			}
			return ae
		}
	}
	return nil
}

func put(ctx context.Context, fsys FS, path string, data []byte, exists bool) error {
	if exists {
		return fsys.WriteFile(ctx, path, data)
	}
	err := fsys.RemoveFile(ctx, path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// AddDelete is the kind of a file a rewind finds created and then
// deleted by the turns it takes back.
const AddDelete = "add+delete"

// Stat is what a run of changes did to one file: its kind of change as a
// whole (thread.FileAdd, FileDelete, FileUpdate, or AddDelete), the lines added and
// removed, and where it was before when the changes moved it (From; ""
// when it stayed).
type Stat struct {
	Path           string
	Kind           string
	Added, Removed int
	From           string
}

// Summarize counts the changes per file, in the order the files were
// first changed; a file moved (once or more) is one Stat under its last
// path.
func Summarize(changes []thread.FileDiff) []Stat {
	var out []Stat
	idx := map[string]int{} // a file's current path → its Stat
	for _, c := range changes {
		i, ok := idx[c.Path]
		if !ok {
			i = len(out)
			out = append(out, Stat{Path: c.Path, Kind: c.Kind})
		}
		st := &out[i]
		if c.MovePath != "" && c.MovePath != c.Path {
			if st.From == "" {
				st.From = c.Path
			}
			delete(idx, c.Path)
			st.Path = c.MovePath
		}
		idx[st.Path] = i
		d := unidiff.ReadChange(c.Kind, c.Diff)
		st.Added += d.Added
		st.Removed += d.Removed
		if c.Kind == thread.FileDelete {
			if st.Kind == thread.FileAdd {
				st.Kind = AddDelete
			} else {
				st.Kind = thread.FileDelete
			}
		}
	}
	return out
}
