package act

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/ui"
)

// ListOlderTurns reads Limit turns of Thread before Cursor
// (`thread/turns/list`); the result is OlderTurns.
type ListOlderTurns struct {
	Thread, Cursor string
	Limit          int
}

// OlderTurns is the answer to ListOlderTurns: Turns before Cursor (oldest
// first) and Older, the cursor of those before them ("" when none are
// left).
type OlderTurns struct {
	Thread, Cursor string
	Turns          []backend.Turn
	Older          string
	Err            error
}

func (a ListOlderTurns) run(ctx context.Context, c backend.Client) tea.Msg {
	turns, older, err := c.ListTurns(ctx, a.Thread, a.Cursor, a.Limit)
	return OlderTurns{Thread: a.Thread, Cursor: a.Cursor, Turns: turns, Older: older, Err: err}
}

// PeekTurns reads thread ID's newest turns (`thread/turns/list` needs no
// resume: tens of milliseconds, where resuming a long thread takes
// seconds), so they are on screen while the resume runs; the result is
// ThreadPeek.
type PeekTurns struct{ ID string }

// ThreadPeek carries thread ID's newest turns.
type ThreadPeek struct {
	ID    string
	Turns []backend.Turn
	Err   error
}

func (a PeekTurns) run(ctx context.Context, c backend.Client) tea.Msg {
	turns, _, err := c.ListTurns(ctx, a.ID, "", backend.ResumeTurns)
	return ThreadPeek{ID: a.ID, Turns: turns, Err: err}
}

// ReadAgent reads a sub-agent's thread (`thread/read`) for its nickname
// and role; the result is AgentRead.
type ReadAgent struct{ ID string }

// AgentRead is a sub-agent's thread as thread/read gives it.
type AgentRead struct {
	Thread backend.Thread
	Err    error
}

func (a ReadAgent) run(ctx context.Context, c backend.Client) tea.Msg {
	t, err := c.ReadThread(ctx, a.ID)
	t.ID = a.ID
	return AgentRead{Thread: t, Err: err}
}

// ListAgents lists the sub-agents thread Parent spawned in earlier
// sessions (`thread/list` by ancestor); the result is AgentsListed.
type ListAgents struct{ Parent string }

// AgentsListed carries the sub-agents of Parent (none when the list
// failed).
type AgentsListed struct {
	Parent  string
	Threads []backend.Thread
}

func (a ListAgents) run(ctx context.Context, c backend.Client) tea.Msg {
	r, err := c.ListThreads(ctx, backend.ThreadListParams{Limit: 100, AncestorThreadID: a.Parent, SourceKinds: backend.SubAgentSources})
	if err != nil {
		return AgentsListed{Parent: a.Parent}
	}
	return AgentsListed{Parent: a.Parent, Threads: r.Data}
}

// ReadAgentHistory reads an earlier sub-agent's turns (`thread/read`
// with its turns); the result is AgentHistory.
type ReadAgentHistory struct{ ID string }

// AgentHistory carries an earlier sub-agent's turns.
type AgentHistory struct {
	ID    string
	Turns []backend.Turn
	Err   error
}

func (a ReadAgentHistory) run(ctx context.Context, c backend.Client) tea.Msg {
	t, err := c.ReadThreadTurns(ctx, a.ID)
	return AgentHistory{ID: a.ID, Turns: t.Turns, Err: err}
}

// ShortID shortens a thread id for a line: its first 8 and last 4
// characters.
func ShortID(id string) string {
	if len(id) > 13 {
		return id[:8] + "…" + id[len(id)-4:]
	}
	return id
}

// QuoteTitle quotes a thread's title for a line: one line, cut to 50
// cells, in curly quotes ("" when it is empty).
func QuoteTitle(s string) string {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\n", " "))
	if s == "" {
		return ""
	}
	return "“" + ui.Truncate(s, 50) + "”"
}
