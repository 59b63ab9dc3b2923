package model

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
	"tandem/internal/rewind"
	"tandem/thread"
	"tandem/ui"
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
	for _, it := range m.thread.Items() {
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
	case m.agents.showing != nil:
		return "a sub-agent is shown — esc back to the thread to rewind it"
	case m.opts.Shared || m.opts.ReadOnly:
		return "rewind switches the thread, which a shared session can't do"
	case m.client == nil || !m.ready:
		return "rewind needs a running app-server"
	case m.turn.busy() || m.turn.switching:
		return "rewind can't start while a turn is running"
	case m.requests.form != nil:
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
	var items []pickItem
	for k := len(idx) - 1; k >= 0; k-- {
		i := idx[k]
		items = append(items, pickItem{label: preview(turns[i].prompt, 70), detail: afterSummary(turns[i:]), value: i})
	}
	p := &picker{title: "Edit an earlier message", hint: "enter to edit and send again · esc to cancel", items: items}
	p.refilter()
	p.preview = func(it pickItem) []string { return rewindPreview(turns[it.value.(int):]) }
	p.onChoose = func(it pickItem) tea.Cmd {
		m.chooseRewind(turns, it.value.(int), false)
		return nil
	}
	m.openPicker(p)
}

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
	var items []pickItem
	if undo {
		items = []pickItem{
			{label: "Undo the last turn and its file changes", detail: "its message comes back for editing", value: "code"},
			{label: "Cancel", value: "cancel"},
		}
	} else {
		items = []pickItem{
			{label: "Rewind conversation only", detail: "the files stay as they are", value: "conversation"},
			{label: "Rewind conversation and code", detail: "take back the agent's file changes", value: "code"},
			{label: "Cancel", value: "cancel"},
		}
	}
	p := &picker{title: "Rewind to “" + preview(plan.prompt, 50) + "”", hint: "enter to choose · esc to cancel", items: items}
	p.refilter()
	p.preview = func(pickItem) []string { return summary }
	p.onChoose = func(it pickItem) tea.Cmd {
		switch it.value {
		case "cancel":
			return nil
		case "code":
			plan.code = true
		}
		if undo {
			return m.runRewind(plan)
		}
		m.startRewind(plan)
		return nil
	}
	m.openPicker(p)
}

// startRewind puts the chosen message in the composer; Enter sends it.
func (m *Model) startRewind(plan *rewindPlan) {
	m.rewind.pending = plan
	m.setDraft(plan.prompt)
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

// cmdUndo is /undo: take back the last turn's file changes (and the turn).
func (m *Model) cmdUndo(string) tea.Cmd {
	if why := m.rewindBlocked(); why != "" {
		m.setNotice(noticeInfo, why)
		return nil
	}
	turns := m.turns()
	if len(turns) == 0 {
		m.setNotice(noticeInfo, "no turn to undo")
		return nil
	}
	m.chooseRewind(turns, len(turns)-1, true)
	return nil
}

// runRewind does the plan: verify the files (when the code goes back),
// fork before the turn and write the files; onRewindDone then sends the
// edited message (pendingSend) on the fork. A refusal changes nothing.
func (m *Model) runRewind(plan *rewindPlan) tea.Cmd {
	c := m.client
	m.rewind.pending = nil
	m.turn.switching = true
	m.setNotice(noticeInfo, "rewinding…")
	return callCmd(func(ctx context.Context) tea.Msg {
		var fp *rewind.Plan
		if plan.code {
			var err error
			if fp, err = rewind.Prepare(ctx, c, plan.changes, plan.expect); err != nil {
				return rewindDoneMsg{plan: plan, err: err}
			}
		}
		resp, err := c.ForkThread(ctx, plan.thread, plan.turn)
		if err != nil {
			return rewindDoneMsg{plan: plan, err: fmt.Errorf("thread/fork: %w", err)}
		}
		done := rewindDoneMsg{plan: plan, resp: resp, forked: true}
		if fp != nil {
			done.files = len(fp.Writes)
			done.err = fp.Apply(ctx, c)
		}
		return done
	}) // the edited message (pendingSend) is sent by onRewindDone
}

// rewindText is the prompt waiting for its rewind to finish.
type rewindText struct{ text, hist string }

// onRewindDone switches to the fork and sends the edited message; a
// refusal or failure keeps the draft and says why.
func (m *Model) onRewindDone(msg rewindDoneMsg) tea.Cmd {
	m.turn.switching = false
	m.clearNotice(noticeInfo)
	plan := msg.plan
	if !msg.forked {
		var ce *rewind.ConflictError
		if errors.As(msg.err, &ce) {
			var lines []string
			for _, x := range ce.Conflicts {
				lines = append(lines, m.relPath(x.Path)+": "+x.Why)
			}
			m.banner(ui.BannerError, "nothing was rewound: files changed since the agent edited them", lines)
		} else {
			m.banner(ui.BannerError, "could not rewind: "+oneLine(msg.err), nil)
		}
		if send := m.pendingSend; send != nil {
			m.restoreDraft(send.text) // the message is never lost
			m.rewind.pending = plan   // Enter tries again
			m.setNotice(noticeInfo, "enter tries the rewind again · esc on an empty input cancels it")
		}
		m.pendingSend = nil
		return nil
	}
	send := m.pendingSend
	m.pendingSend = nil
	m.onThreadSwitched(threadSwitchedMsg{resp: msg.resp, how: "rewound", before: plan.turn})
	switch {
	case plan.code && msg.err != nil:
		// The fork happened, the files did not all go back: say exactly
		// what is where, and don't go on as if the code were rewound.
		var ae *rewind.ApplyError
		lines := []string{msg.err.Error()}
		head := "the conversation was rewound, but the files were not: nothing was changed"
		if errors.As(msg.err, &ae) {
			lines = []string{"writing " + m.relPath(ae.Path) + " failed: " + oneLine(ae.Err)}
			if n := len(ae.NotPutBack); n > 0 {
				head = fmt.Sprintf("the conversation was rewound, and %s of the code too before writing failed — the rest is as the agent left it", plural(n, "file"))
				for i, p := range ae.NotPutBack {
					if i == 8 {
						lines = append(lines, fmt.Sprintf("… and %d more", n-i))
						break
					}
					lines = append(lines, "rewound: "+m.relPath(p))
				}
			}
		}
		m.banner(ui.BannerError, head, lines)
		if send != nil {
			m.restoreDraft(send.text) // not sent: the code is not as chosen
			m.setNotice(noticeInfo, "your message was not sent: the files were not rewound — send it to go on anyway")
		}
		return nil
	case plan.code:
		detail := []string{plural(msg.files, "file") + " put back as before"}
		if plan.commands > 0 {
			detail = append(detail, "commands ran in those turns: their effects are not rewound")
		}
		m.banner(ui.BannerInfo, "Code rewound", detail)
	}
	// The files taken back are no longer as those turns left them.
	for _, c := range plan.changes {
		delete(m.rewind.snaps, c.Path)
		delete(m.rewind.snaps, c.MovePath)
	}
	if plan.undo {
		m.setDraft(plan.prompt)
		return nil
	}
	if send != nil {
		m.composer.AddHistory(send.hist)
		return m.submit(send.text)
	}
	return nil
}

// rewoundNote is the transcript's marker for a rewind to before turn:
// the message it rewound to and what was left behind, from the thread as
// it was before the switch.
func (m *Model) rewoundNote(turn string) string {
	turns := m.turns()
	for i, t := range turns {
		if t.id == turn {
			return fmt.Sprintf("Rewound to “%s” — %s left behind on thread %s (/resume)", preview(t.prompt, 50), plural(len(turns)-i, "turn"), shortID(m.thread.ThreadID()))
		}
	}
	return "Rewound to an earlier message (a fork of the thread)"
}

// snapCmd reads how the agent left the files of a completed change.
func (m *Model) snapCmd(it *thread.Item) tea.Cmd {
	c := m.client
	if c == nil || m.opts.Shared || it.Status != "completed" {
		return nil
	}
	files := append([]thread.FileDiff(nil), it.Files...)
	turn := it.Key.Turn
	return callCmd(func(ctx context.Context) tea.Msg {
		out := map[string]rewind.Snapshot{}
		for _, f := range files {
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
		return snapMsg{turn: turn, snaps: out}
	})
}

func (m *Model) onSnap(msg snapMsg) {
	if m.rewind.snaps == nil {
		m.rewind.snaps = map[string]fileSnap{}
	}
	for p, s := range msg.snaps {
		m.rewind.snaps[p] = fileSnap{turn: msg.turn, snap: s}
	}
}

// afterSummary says what came after (and with) a message: its turn and
// the later ones.
func afterSummary(turns []turnInfo) string {
	cmds, files := 0, map[string]bool{}
	for _, t := range turns {
		cmds += t.commands
		for _, f := range t.files {
			files[f.Path] = true
		}
	}
	parts := []string{plural(len(turns), "turn")}
	if cmds > 0 {
		parts = append(parts, plural(cmds, "command"))
	}
	if len(files) > 0 {
		parts = append(parts, plural(len(files), "file")+" changed")
	}
	return strings.Join(parts, " · ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// rewindPreview is the picker's preview of a message: the whole message,
// and what rewinding to it leaves behind.
func rewindPreview(turns []turnInfo) []string {
	lines := strings.Split(strings.TrimRight(turns[0].prompt, "\n"), "\n")
	if len(lines) > 6 {
		lines = append(lines[:6], "…")
	}
	return append(lines, "", "rewinding leaves behind: "+afterSummary(turns))
}

// codeSummary is what taking the code back would do, file by file (rel
// shortens a path for showing).
func codeSummary(plan *rewindPlan, rel func(string) string) []string {
	var out []string
	stats := rewind.Summarize(plan.changes)
	name := func(st rewind.Stat) string {
		if st.From != "" {
			return rel(st.Path) + " → " + rel(st.From) // moved back
		}
		return rel(st.Path)
	}
	w := 0
	for _, st := range stats {
		w = max(w, ansi.StringWidth(name(st)))
	}
	for _, st := range stats {
		verb := map[string]string{"add": "created → removed", "delete": "deleted → restored", "add+delete": "created and deleted"}[st.Kind]
		if verb == "" {
			verb = fmt.Sprintf("+%d −%d", st.Added, st.Removed)
		}
		p := name(st)
		out = append(out, "  "+p+strings.Repeat(" ", w-ansi.StringWidth(p))+"  "+verb)
	}
	head := []string{plural(len(out), "file") + " changed in " + plural(plan.dropped, "turn") + ":"}
	out = append(head, out...)
	if plan.commands > 0 {
		out = append(out, "", plural(plan.commands, "command")+" ran: their effects are not rewound")
	}
	return out
}

// preview is s's first line, cut to n runes.
func preview(s string, n int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// relPath is p relative to the thread's workspace when under it.
func (m *Model) relPath(p string) string {
	if m.threadCwd != "" {
		if rel, ok := strings.CutPrefix(p, strings.TrimSuffix(m.threadCwd, "/")+"/"); ok {
			return rel
		}
	}
	return p
}
