package model

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/rewind"
	"tandem/model/act"
	"tandem/thread"
)

// Rewind (Esc Esc, /undo): pick one of the thread's earlier messages, edit
// it and send it again, continuing on a fork of the thread cut before
// that turn (`thread/fork` with beforeTurnId; the old thread stays as it
// was, reachable with /resume). When the turns being dropped changed
// files, the user may take the code back too: those changes are
// reverse-applied through the server's file methods (internal/rewind),
// and only when every file is still what the agent left.

// escTwice is how soon a second Esc must follow the first to open the
// rewind picker.
const escTwice = time.Second

// rewindState is the rewind component: the pending rewind (chosen, its
// prompt in the composer, waiting for Enter), and how the agent left each
// file it changed in this session.
type rewindState struct {
	escAt   time.Time
	pending *rewindPlan
	// send is the edited message, sent once its rewind is done.
	send *rewindText
	// snaps is each file as the agent left it after its last change seen
	// live, and the turn of that change.
	snaps map[string]fileSnap
}

type fileSnap struct {
	turn string
	snap rewind.Snapshot
}

// turnInfo is one turn of the thread as the rewind picker shows it.
type turnInfo struct {
	id, prompt string
	commands   int
	files      []thread.FileDiff // the file changes applied, in order
}

// rewindPlan is a chosen rewind: fork thread before turn, and when code
// is set take back the file changes of that turn and every later one.
type rewindPlan struct {
	thread, turn, prompt string
	code                 bool
	changes              []thread.FileDiff
	expect               map[string]rewind.Snapshot
	commands             int
	dropped              int // turns dropped
	undo                 bool
}

// rewindDoneMsg is the result of a rewind: the fork, and the files
// written; err when nothing happened (a refusal names the files).
type rewindDoneMsg struct {
	plan  *rewindPlan
	resp  backend.ThreadResponse
	files int
	err   error
	// forked is set when the fork happened (err then says what went
	// wrong with the files afterwards).
	forked bool
}

// snapMsg records how the agent left the files of a change.
type snapMsg struct {
	turn  string
	snaps map[string]rewind.Snapshot
}

// turns lists the thread's turns in order, from the fold.
func (m *Model) turns() []turnInfo {
	var out []turnInfo
	at := map[string]int{}
	for _, it := range m.panes.Thread().Items() {
		i, ok := at[it.Key.Turn]
		if !ok {
			i = len(out)
			at[it.Key.Turn] = i
			out = append(out, turnInfo{id: it.Key.Turn})
		}
		t := &out[i]
		switch it.Kind {
		case thread.User:
			if t.prompt == "" {
				t.prompt = it.Text()
			}
		case thread.Command:
			t.commands++
		case thread.FileChange:
			if it.Status == "completed" {
				t.files = append(t.files, it.Files...)
			}
		}
	}
	// A turn without a user message (a review, a compaction) can't be
	// edited; it still counts as what came after.
	return out
}

// rewindBlocked says why a rewind can't start now ("" when it can).
func (m *Model) rewindBlocked() string {
	switch {
	case m.panes.AgentShown():
		return "a sub-agent is shown — esc back to the thread to rewind it"
	case m.opts.Shared || m.opts.ReadOnly:
		return "rewind switches the thread, which a shared session can't do"
	case m.client == nil || !m.ready:
		return "rewind needs a running app-server"
	case m.turn.busy() || m.turn.switching:
		return "rewind can't start while a turn is running"
	case m.overlay.HasForm():
		return "answer the waiting request first"
	}
	return ""
}

// onEscIdle handles Esc on an empty composer with no turn running: the
// second within escTwice opens the rewind picker.
func (m *Model) onEscIdle() tea.Cmd {
	if m.rewind.pending != nil {
		m.cancelRewind("rewind cancelled")
		return nil
	}
	now := m.now()
	if m.rewind.escAt.IsZero() || now.Sub(m.rewind.escAt) > escTwice {
		m.rewind.escAt = now
		if m.rewindBlocked() == "" && len(m.editableTurns()) > 0 {
			m.setNotice(noticeInfo, "esc again to edit an earlier message")
		}
		return nil
	}
	m.rewind.escAt = time.Time{}
	m.clearNotice(noticeInfo) // the "esc again" hint
	m.openRewindPicker()
	return nil
}

func (m *Model) editableTurns() []int {
	var idx []int
	for i, t := range m.turns() {
		if strings.TrimSpace(t.prompt) != "" {
			idx = append(idx, i)
		}
	}
	return idx
}

// openRewindPicker lists the thread's messages, newest first, each with
// what came after it.
func (m *Model) openRewindPicker() {
	if why := m.rewindBlocked(); why != "" {
		m.setNotice(noticeInfo, why)
		return
	}
	turns := m.turns()
	idx := m.editableTurns()
	if len(idx) == 0 {
		m.setNotice(noticeInfo, "no message of yours in this thread to go back to")
		return
	}
	var items []act.PickItem
	for k := len(idx) - 1; k >= 0; k-- {
		i := idx[k]
		items = append(items, act.PickItem{Label: thread.Preview(turns[i].prompt, 70), Detail: afterSummary(turns[i:]),
			Choose: pickedTurn{turns: turns, i: i}, Preview: rewindPreview(turns[i:])})
	}
	m.out.Want(act.Pick{Title: "Edit an earlier message", Hint: "enter to edit and send again · esc to cancel", Items: items})
}

// pickedTurn is the message chosen in the rewind picker: turns[i].
type pickedTurn struct {
	turns []turnInfo
	i     int
}

func (p pickedTurn) run(m *Model) tea.Cmd { m.chooseRewind(p.turns, p.i, false); return nil }

// chooseRewind sets up the rewind to turns[i]: with file changes among
// the dropped turns it asks first whether to take the code back too.
func (m *Model) chooseRewind(turns []turnInfo, i int, undo bool) {
	plan := &rewindPlan{thread: m.client.ThreadID(), turn: turns[i].id, prompt: turns[i].prompt, dropped: len(turns) - i, undo: undo}
	for _, t := range turns[i:] {
		plan.changes = append(plan.changes, t.files...)
		plan.commands += t.commands
	}
	dropped := map[string]bool{}
	for _, t := range turns[i:] {
		dropped[t.id] = true
	}
	plan.expect = map[string]rewind.Snapshot{}
	for p, s := range m.rewind.snaps {
		if dropped[s.turn] {
			plan.expect[p] = s.snap
		}
	}
	if len(plan.changes) == 0 {
		if undo {
			m.setNotice(noticeInfo, "the last turn changed no files: nothing to take back")
			return
		}
		m.startRewind(plan)
		return
	}
	summary := codeSummary(plan, m.relPath)
	code := pickedRewind{plan: plan, code: true, undo: undo}
	var items []act.PickItem
	if undo {
		items = []act.PickItem{
			{Label: "Undo the last turn and its file changes", Detail: "its message comes back for editing", Choose: code},
			{Label: "Cancel"},
		}
	} else {
		items = []act.PickItem{
			{Label: "Rewind conversation only", Detail: "the files stay as they are", Choose: pickedRewind{plan: plan}},
			{Label: "Rewind conversation and code", Detail: "take back the agent's file changes", Choose: code},
			{Label: "Cancel"},
		}
	}
	for i := range items {
		items[i].Preview = summary
	}
	m.out.Want(act.Pick{Title: "Rewind to “" + thread.Preview(plan.prompt, 50) + "”", Hint: "enter to choose · esc to cancel", Items: items})
}

// pickedRewind is how to rewind, chosen in the rewind's second picker:
// with the code or without; undo runs it at once (/undo).
type pickedRewind struct {
	plan       *rewindPlan
	code, undo bool
}

func (p pickedRewind) run(m *Model) tea.Cmd {
	if p.code {
		p.plan.code = true
	}
	if p.undo {
		return m.runRewind(p.plan)
	}
	m.startRewind(p.plan)
	return nil
}

// startRewind puts the chosen message in the composer; Enter sends it.
func (m *Model) startRewind(plan *rewindPlan) {
	m.rewind.pending = plan
	m.out.Want(act.SetDraft{Text: plan.prompt}) // model/composer
	what := "the conversation"
	if plan.code {
		what = "the conversation and the code"
	}
	m.setNotice(noticeInfo, "edit and press enter to rewind "+what+" to here · esc on an empty input cancels")
}

func (m *Model) cancelRewind(why string) {
	m.rewind.pending = nil
	m.setNotice(noticeInfo, why)
}
