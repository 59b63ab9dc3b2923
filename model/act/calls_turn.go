package act

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

// The turn machine's calls (model/turn): a turn's start, steer and
// interrupt, a review, a `!` command, the collaboration modes, the
// thread's goal, and opening threads (start, read, resume, fork,
// archive). The images' model check asks ListModels (calls_overlay.go).

// Upload is a local image file to copy to the app-server's machine
// (`fs/writeFile`) before the turn or steer that sends it: Local here,
// Server there.
type Upload struct{ Local, Server string }

// upload copies ups to the app-server's machine: the first failure stops
// it.
func upload(ctx context.Context, c backend.Client, ups []Upload) error {
	for _, u := range ups {
		if err := backend.UploadImage(ctx, c, u.Local, u.Server); err != nil {
			return fmt.Errorf("copying the image to the app-server: %w", err)
		}
	}
	return nil
}

// StartTurn starts a turn with Input (`turn/start`), after copying
// Uploads; the result is TurnStarted. Text is the prompt as sent and
// Shown as drawn: a turn that fails to start gives Shown back (Text when
// an upload failed first).
type StartTurn struct {
	Input       backend.TurnInput
	Uploads     []Upload
	Text, Shown string
}

// TurnStarted is the answer to StartTurn or StartReview: Err when the
// turn did not start, and Text, the prompt to give back then.
type TurnStarted struct {
	Text string
	Err  error
}

func (a StartTurn) run(ctx context.Context, c backend.Client) tea.Msg {
	if err := upload(ctx, c, a.Uploads); err != nil {
		return TurnStarted{Text: a.Text, Err: err}
	}
	_, err := c.StartTurn(ctx, a.Input)
	return TurnStarted{Text: a.Shown, Err: err}
}

// ReadTurns reads Thread's turns, every item with them (`thread/read`
// with turns), without opening it: what the server says happened to a
// turn/start or turn/steer whose answer never came. The result is
// TurnsRead.
type ReadTurns struct{ Thread string }

// TurnsRead is the answer to ReadTurns: the thread's turns, oldest first,
// or Err when the server did not say.
type TurnsRead struct {
	Thread string
	Turns  []backend.Turn
	Err    error
}

func (a ReadTurns) run(ctx context.Context, c backend.Client) tea.Msg {
	th, err := c.ReadThreadTurns(ctx, a.Thread)
	return TurnsRead{Thread: a.Thread, Turns: th.Turns, Err: err}
}

// StartReview starts a review of the uncommitted changes as a turn
// (`review/start`); the result is TurnStarted.
type StartReview struct{}

func (StartReview) run(ctx context.Context, c backend.Client) tea.Msg {
	return TurnStarted{Err: c.Review(ctx, backend.ReviewTarget{Type: "uncommittedChanges"})}
}

// Steer adds Input to the running turn (`turn/steer`), after copying
// Uploads, within 30 s; the result is Steered with Text, the draft it
// came from.
type Steer struct {
	Input   backend.TurnInput
	Uploads []Upload
	Text    string
}

// Steered is the answer to Steer.
type Steered struct {
	Text string
	Err  error
}

func (Steer) timeout() time.Duration { return 30 * time.Second }

func (a Steer) run(ctx context.Context, c backend.Client) tea.Msg {
	if err := upload(ctx, c, a.Uploads); err != nil {
		return Steered{Text: a.Text, Err: err}
	}
	return Steered{Text: a.Text, Err: c.Steer(ctx, a.Input)}
}

// Interrupt interrupts the running turn (`turn/interrupt`) within 10 s;
// the result is Interrupted. Stop marks /stop's, which quits once the
// turn is interrupted.
type Interrupt struct{ Stop bool }

// Interrupted is the answer to Interrupt.
type Interrupted struct {
	Stop bool
	Err  error
}

func (Interrupt) timeout() time.Duration { return 10 * time.Second }

func (a Interrupt) run(ctx context.Context, c backend.Client) tea.Msg {
	return Interrupted{Stop: a.Stop, Err: c.Interrupt(ctx)}
}

// RunShell runs Command in the thread (`thread/shellCommand`): its
// output arrives as a commandExecution item. The result is ShellRan.
type RunShell struct{ Command string }

// ShellRan is the answer to RunShell.
type ShellRan struct{ Err error }

func (a RunShell) run(ctx context.Context, c backend.Client) tea.Msg {
	return ShellRan{Err: c.ShellCommand(ctx, a.Command)}
}

// ListCollabModes lists the server's collaboration mode presets
// (`collaborationMode/list`); the result is CollabModes.
type ListCollabModes struct{}

// CollabModes is the answer to ListCollabModes.
type CollabModes struct {
	Modes []backend.CollaborationModeMask
	Err   error
}

func (ListCollabModes) run(ctx context.Context, c backend.Client) tea.Msg {
	modes, err := c.ListCollaborationModes(ctx)
	return CollabModes{Modes: modes, Err: err}
}

// The actions of ChangeGoal.
const (
	GoalShow  = "show"
	GoalSet   = "set"
	GoalClear = "clear"
)

// ChangeGoal is /goal's call on the open thread: GoalShow reads its goal
// (`thread/goal/get`), GoalSet sets Objective (`thread/goal/set`),
// GoalClear clears it (`thread/goal/clear`). The result is GoalChanged.
type ChangeGoal struct{ Action, Objective string }

// GoalChanged is the answer to ChangeGoal: the goal the thread has now
// (nil: none; for GoalClear, Cleared says whether there was one), or Err
// (the backend names the method); Objective is GoalSet's, given back to
// the composer when it fails.
type GoalChanged struct {
	Action    string
	Objective string
	Goal      *backend.ThreadGoal
	Cleared   bool
	Err       error
}

func (a ChangeGoal) run(ctx context.Context, c backend.Client) tea.Msg {
	r := GoalChanged{Action: a.Action, Objective: a.Objective}
	switch a.Action {
	case GoalClear:
		r.Cleared, r.Err = c.ClearGoal(ctx)
	case GoalSet:
		g, err := c.SetGoal(ctx, a.Objective)
		if err == nil {
			r.Goal = &g
		}
		r.Err = err
	default:
		r.Goal, r.Err = c.ReadGoal(ctx)
	}
	return r
}

// ReadGoal reads the open thread's goal (`thread/goal/get`) for the
// status line; Thread, the thread it was asked for, comes back in the
// result, GoalRead.
type ReadGoal struct{ Thread string }

// GoalRead is the answer to ReadGoal.
type GoalRead struct {
	Thread string
	Goal   *backend.ThreadGoal
	Err    error
}

func (a ReadGoal) run(ctx context.Context, c backend.Client) tea.Msg {
	g, err := c.ReadGoal(ctx)
	return GoalRead{Thread: a.Thread, Goal: g, Err: err}
}

// The ways a thread is opened (ThreadSwitched.How, OpenThread.How).
const (
	HowNew     = "new"
	HowResumed = "resumed"
	HowForked  = "forked"
	HowRewound = "rewound"
)

// ThreadSwitched is a thread opened: Response is the new open thread
// (with its history), How what happened (HowNew, HowResumed, HowForked),
// Notice a warning to show first (why a resume did not happen), From the
// thread a fork was made of; or Err when no thread opened.
type ThreadSwitched struct {
	Response    backend.ThreadResponse
	How, Notice string
	From        string
	Err         error
}

// StartThread starts a new thread (`thread/start`); Notice, when set,
// says why (a resume that failed). The result is ThreadSwitched.
type StartThread struct{ Notice string }

func (a StartThread) run(ctx context.Context, c backend.Client) tea.Msg {
	resp, err := c.StartThread(ctx)
	return ThreadSwitched{Response: resp, How: HowNew, Notice: a.Notice, Err: err}
}

// ForkThread forks thread ID into a new one (`thread/fork`); the result
// is ThreadSwitched.
type ForkThread struct{ ID string }

func (a ForkThread) run(ctx context.Context, c backend.Client) tea.Msg {
	resp, err := c.ForkThread(ctx, a.ID, "")
	if err != nil {
		return ThreadSwitched{Err: err, How: HowForked}
	}
	return ThreadSwitched{Response: resp, How: HowForked, From: a.ID}
}

// ArchiveThread archives the open thread, ID (`thread/archive`), and
// starts a new one; the result is ThreadSwitched.
type ArchiveThread struct{ ID string }

func (a ArchiveThread) run(ctx context.Context, c backend.Client) tea.Msg {
	if err := c.ArchiveThread(ctx); err != nil {
		return ThreadSwitched{Err: err}
	}
	resp, err := c.StartThread(ctx)
	return ThreadSwitched{Response: resp, How: HowNew, Notice: "Archived thread " + ShortID(a.ID) + "; this is a new thread", Err: err}
}

// ReadThreadInfo reads Thread's rollout path and status (`thread/read`)
// before a resume, when they are not known; the result is ThreadInfo,
// Thread as known after (as it was when the read failed).
type ReadThreadInfo struct{ Thread backend.Thread }

// ThreadInfo is the answer to ReadThreadInfo.
type ThreadInfo struct{ Thread backend.Thread }

func (a ReadThreadInfo) run(ctx context.Context, c backend.Client) tea.Msg {
	t := a.Thread
	if full, err := c.ReadThread(ctx, t.ID); err == nil {
		t.Path, t.Status = full.Path, full.Status
	}
	return ThreadInfo{Thread: t}
}

// Resume resumes thread ID (`thread/resume`); Fill, when more than a
// page (backend.ResumeTurns), is how many turns to read first. A resume
// that fails starts a new thread instead (once, never retrying) — unless
// Stay: a thread is open (a /resume or /search choice), which a failed
// resume leaves open, its ThreadSwitched's Err saying why. The result is
// ThreadSwitched.
type Resume struct {
	ID   string
	Fill int
	Stay bool
}

func (a Resume) run(ctx context.Context, c backend.Client) tea.Msg {
	var earlier []backend.Turn
	var earlierOlder string
	if a.Fill > backend.ResumeTurns {
		// Read before the resume: once it answers, the session passes the
		// thread's events on, and the model takes them only once it has
		// switched (a turn that ended meanwhile would stay running).
		earlier, earlierOlder, _ = backend.LatestTurns(ctx, c, a.ID, a.Fill)
	}
	resp, err := c.ResumeThread(ctx, a.ID)
	if err == nil {
		if turns, ok := backend.JoinTurns(earlier, resp.Thread.Turns); ok && len(earlier) > 0 {
			resp.Thread.Turns, resp.Older = turns, earlierOlder
		}
		return ThreadSwitched{Response: resp, How: HowResumed}
	}
	if a.Stay {
		return ThreadSwitched{How: HowResumed, Err: fmt.Errorf("thread %s: %w", ShortID(a.ID), err)}
	}
	notice := fmt.Sprintf("could not resume thread %s: %s — started a new thread", ShortID(a.ID), OneLine(err))
	nresp, nerr := c.StartThread(ctx)
	return ThreadSwitched{Response: nresp, How: HowNew, Notice: notice, Err: nerr}
}

// FindLastThread finds the workspace Cwd's last thread: ID (the one the
// state file remembers, "" for none) when this server knows it
// (`thread/read`: another CODEX_HOME may have written it), else the most
// recently updated one of Cwd (`thread/list`). The result is LastThread;
// when there is none, a new thread is started and the result is
// ThreadSwitched.
type FindLastThread struct{ ID, Cwd string }

// LastThread is the thread FindLastThread found.
type LastThread struct{ Thread backend.Thread }

func (a FindLastThread) run(ctx context.Context, c backend.Client) tea.Msg {
	if a.ID != "" {
		if t, err := c.ReadThread(ctx, a.ID); err == nil {
			t.ID = a.ID
			return LastThread{Thread: t}
		}
	}
	list, err := c.ListThreads(ctx, backend.ThreadListParams{Limit: 1, SortKey: backend.SortUpdated, Cwd: a.Cwd})
	if err != nil || len(list.Data) == 0 {
		why := "no earlier thread in this workspace"
		if err != nil {
			why = OneLine(err) // backend names the method
		}
		resp, nerr := c.StartThread(ctx)
		return ThreadSwitched{Response: resp, How: HowNew, Notice: why + " — started a new thread", Err: nerr}
	}
	return LastThread{Thread: list.Data[0]}
}

// ReadServerQueue reads the thread's queue on the server
// (`thread/queue/list`): messages another client (`tandem queue`, `codex
// queue`) queued for its next turns. The result is ServerQueue.
type ReadServerQueue struct{}

// ServerQueue is the answer to ReadServerQueue: the queue, next to run
// first, or Err.
type ServerQueue struct {
	Queue []backend.QueuedSubmission
	Err   error
}

func (ReadServerQueue) run(ctx context.Context, c backend.Client) tea.Msg {
	q, err := c.ListQueue(ctx)
	return ServerQueue{Queue: q, Err: err}
}
