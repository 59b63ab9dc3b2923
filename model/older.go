package model

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/thread"
	"tandem/ui"
)

// A resumed thread comes with its newest turns only (backend.ResumeTurns):
// the resume of a 20,000-turn thread then costs the server's own time, not
// the whole history's (#17). The turns before them are read on demand, a
// page at a time (`thread/turns/list`), when the transcript's top comes
// into view; an OlderCell at the top says so.

// olderPage is how many earlier turns one read brings.
const olderPage = 50

// inlineHistory is how many turns a thread resumed under --no-alt-screen
// is printed with: nothing can be put above what the terminal's
// scrollback holds, so its earlier turns are read before it is drawn.
const inlineHistory = 1000

// resumeHow is what a resume reads besides the thread's newest page:
// fill is how many turns to read before it is drawn (resumeNow), peek
// whether to draw the newest page while it runs (peekCmd).
type resumeHow struct {
	fill int
	peek bool
}

// resumeHow is how to resume now. Under --no-alt-screen nothing can go
// above the scrollback: inlineHistory turns are read first, and nothing
// is drawn before. Otherwise the newest page is drawn at once, when
// nothing else is on screen yet (`tandem resume`).
func (m *Model) resumeHow() resumeHow {
	if m.sb.on { // the inline terminal, whether or not the pager is up
		return resumeHow{fill: inlineHistory}
	}
	return resumeHow{peek: len(m.thread.Items()) == 0}
}

// olderState follows the earlier turns of the thread shown: cursor reads
// the ones before the first turn drawn ("" when none are left), marker is
// the transcript's first cell while any are.
type olderState struct {
	thread  string
	cursor  string
	loading bool
	marker  *ui.OlderCell
	// held is a page that came while the pager was open: the pager
	// draws the transcript's cells by index, so it goes in once the
	// pager is closed.
	held *olderTurnsMsg
}

// olderTurnsMsg is the answer to a read of earlier turns: turns before
// cursor (oldest first) and the cursor of those before them.
type olderTurnsMsg struct {
	thread, cursor string
	turns          []backend.Turn
	older          string
	err            error
}

// threadPeekMsg carries thread id's newest turns, read while its resume
// runs (peekCmd).
type threadPeekMsg struct {
	id    string
	turns []backend.Turn
	err   error
}

// beginOlder starts following thread id's earlier turns from cursor: when
// there are any, the marker goes first in the transcript.
func (m *Model) beginOlder(id, cursor string) {
	m.older = olderState{thread: id, cursor: cursor}
	if cursor == "" {
		return
	}
	m.older.marker = &ui.OlderCell{}
	switch {
	case m.sb.on:
		m.older.marker.Set(ui.OlderHidden, "--no-alt-screen prints into the terminal's scrollback, where nothing can go above; resume without it to read them")
	case m.client == nil:
		m.older.marker.Set(ui.OlderHidden, "a watcher or a replay has only the turns the session opened with")
	}
	m.view.transcript.Insert(0, m.older.marker)
}

// loadOlderIfTop reads the next page of earlier turns when the top of the
// transcript is in view and there are any to read.
func (m *Model) loadOlderIfTop() tea.Cmd {
	o := &m.older
	if o.cursor == "" || o.loading || o.marker == nil || o.marker.State == ui.OlderHidden ||
		m.client == nil || m.agents.showing != nil || m.pager != nil || m.width == 0 {
		return nil
	}
	v := &m.view
	h := m.transcriptHeight()
	if v.follow {
		if v.transcript.Sync(m.renderContext(h), m.RenderWidth()) > h {
			return nil
		}
	} else if v.top > 0 {
		return nil
	}
	o.loading = true
	o.marker.Set(ui.OlderLoading, "")
	c, id, cursor := m.client, o.thread, o.cursor
	return callCmd(func(ctx context.Context) tea.Msg {
		turns, older, err := c.ListTurns(ctx, id, cursor, olderPage)
		return olderTurnsMsg{thread: id, cursor: cursor, turns: turns, older: older, err: err}
	})
}

// onOlderTurns puts a page of earlier turns above the ones drawn; the
// lines on screen stay where they are. A short page leaves the top in
// view, so the next one is read at once.
func (m *Model) onOlderTurns(msg olderTurnsMsg) tea.Cmd {
	o := &m.older
	if !o.loading || msg.thread != o.thread || msg.cursor != o.cursor || o.marker == nil {
		return nil // of a thread or a read that is no longer shown
	}
	if m.pager != nil {
		o.held = &msg
		return nil
	}
	o.loading = false
	if m.agents.showing != nil {
		o.marker.Set(ui.OlderMore, "") // read again once the thread is shown
		return nil
	}
	if msg.err != nil {
		o.marker.Set(ui.OlderFailed, oneLine(msg.err))
		return nil
	}
	v := &m.view
	at := 0
	for at < len(v.transcript.Cells) && v.transcript.Cells[at] != ui.Cell(o.marker) {
		at++
	}
	at++ // below the marker
	items := m.thread.Prepend(msg.turns)
	cells := make([]ui.Cell, 0, len(items))
	for _, it := range items {
		cells = append(cells, v.newCell(it, m.threadCwd, false))
	}
	before := v.transcript.Start(at)
	v.transcript.Insert(at, cells...)
	o.cursor = msg.older
	if o.cursor == "" || len(msg.turns) == 0 {
		o.cursor = ""
		o.marker.Set(ui.OlderNone, "")
	} else {
		o.marker.Set(ui.OlderMore, "")
	}
	if !v.follow {
		h := m.transcriptHeight()
		v.transcript.Sync(m.renderContext(m.visibleTail(v.top, h)), m.RenderWidth())
		v.top += v.transcript.Start(at+len(cells)) - before
	}
	v.frameOK = false
	return m.loadOlderIfTop()
}

// peekCmd reads thread id's newest turns (`thread/turns/list` needs no
// resume: tens of milliseconds, where resuming a long thread takes
// seconds), so they are on screen while the resume runs.
func peekCmd(c backend.Client, id string) tea.Cmd {
	return callCmd(func(ctx context.Context) tea.Msg {
		turns, _, err := c.ListTurns(ctx, id, "", backend.ResumeTurns)
		return threadPeekMsg{id: id, turns: turns, err: err}
	})
}

// onThreadPeek draws a thread's newest turns while its resume runs
// (resumeHow.peek): the resume's answer then replaces them
// (onThreadSwitched). A peek that failed, or that comes once the thread
// is open, changes nothing.
func (m *Model) onThreadPeek(msg threadPeekMsg) {
	if msg.err != nil || len(msg.turns) == 0 || !m.turn.switching || m.agents.showing != nil ||
		len(m.thread.Items()) > 0 || m.peeked != "" {
		return
	}
	m.peeked = msg.id
	var st thread.State
	st.Reset(msg.id)
	m.view.reset()
	for _, it := range st.Load(msg.turns) {
		m.view.addItem(it, m.threadCwd)
	}
}
