package act

import (
	"context"
	"errors"
	"io/fs"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/rewind"
	"tandem/thread"
)

// The rewind's calls (model/rewind): reading how the agent left the files
// of a change, and the rewind itself (check, fork, write).

// SnapFiles reads the files of a completed file change of turn Turn as
// the agent left them (`fs/readFile` each); the result is FilesSnapped.
type SnapFiles struct {
	Turn  string
	Files []thread.FileDiff
}

// FilesSnapped is a SnapFiles answer: each file's snapshot by path. A
// missing file is the snapshot of none, and so is a moved file's old
// path; a file that could not be read is left out.
type FilesSnapped struct {
	Turn  string
	Snaps map[string]rewind.Snapshot
}

func (a SnapFiles) run(ctx context.Context, c backend.Client) tea.Msg {
	out := map[string]rewind.Snapshot{}
	for _, f := range a.Files {
		p := f.Path
		if f.MovePath != "" {
			out[p] = rewind.Snapshot{}
			p = f.MovePath
		}
		data, err := c.ReadFile(ctx, p)
		switch {
		case err == nil:
			out[p] = rewind.SnapshotOf(data, true)
		case errors.Is(err, fs.ErrNotExist):
			out[p] = rewind.Snapshot{}
		}
	}
	return FilesSnapped{Turn: a.Turn, Snaps: out}
}

// RewindThread forks Thread cut before Turn (`thread/fork` with
// beforeTurnId). With Code it takes Changes back too: every file is
// first checked against Expect (how the agent left it; a refusal changes
// nothing and forks nothing), then the thread is forked, then the files
// are written (`fs/writeFile`, `fs/remove`). The result is ThreadRewound.
type RewindThread struct {
	Thread, Turn string
	Code         bool
	Changes      []thread.FileDiff
	Expect       map[string]rewind.Snapshot
}

// ThreadRewound is a RewindThread answer. Forked says the fork was made
// (Response); Err then says what went wrong writing the files
// (*rewind.ApplyError), and otherwise why nothing was done
// (*rewind.ConflictError names the files changed since). Files is how
// many files were written.
type ThreadRewound struct {
	Response backend.ThreadResponse
	Forked   bool
	Files    int
	Err      error
}

func (a RewindThread) run(ctx context.Context, c backend.Client) tea.Msg {
	var plan *rewind.Plan
	if a.Code {
		var err error
		if plan, err = rewind.Prepare(ctx, c, a.Changes, a.Expect); err != nil {
			return ThreadRewound{Err: err}
		}
	}
	resp, err := c.ForkThread(ctx, a.Thread, a.Turn)
	if err != nil {
		return ThreadRewound{Err: err}
	}
	done := ThreadRewound{Response: resp, Forked: true}
	if plan != nil {
		done.Files = len(plan.Writes)
		done.Err = plan.Apply(ctx, c)
	}
	return done
}
