// Package rewind is going back to an earlier message of the thread (Esc
// Esc on an empty composer with no turn running, and /undo): pick the
// message, edit it and send it again, continuing on a fork of the thread
// cut before that turn (`thread/fork` with beforeTurnId; the old thread
// stays as it was, reachable with /resume). When the turns being dropped
// changed files, the user may take the code back too: those changes are
// reverse-applied through the server's file methods (internal/rewind),
// and only when every file is still what the agent left — which is why
// each file change of the thread is read back once it completed (Folded:
// a snapshot of its files).
//
// The root routes here the Esc keys (Esc, EscEsc), Enter on the draft
// while a rewind is chosen (Send), /undo (Undo), the choices of its
// pickers (Apply: act.RewindPicked, act.RewindChosen), the items the fold
// changed (Folded) and the results of its calls (Result: act.Done for
// act.ToRewind). It reads the thread through World. What it wants of
// others goes into the Out of its act.Env: the pickers (act.Pick), the
// draft (act.SetDraft, act.RestoreDraft, act.AddHistory), the turn
// machine (act.Switching, act.OpenThread, act.Send), its calls
// (act.SnapFiles, act.RewindThread), notices and banners. It never
// imports the root model or another component.
package rewind

import (
	"strings"
	"time"

	"tandem/model/act"
	"tandem/thread"
)

// escTwice is how soon a second Esc must follow the first to open the
// rewind picker.
const escTwice = time.Second

// Options configure a Rewind.
type Options struct {
	// World is what the rewind reads of the rest of the model.
	World World
}

// World is what the rewind reads of the rest of the model when it needs
// it; the root implements it.
type World interface {
	// Thread is the session thread's fold (read only): its turns, their
	// messages, commands and file changes.
	Thread() *thread.State
	// ThreadCwd is the thread's workspace on the server: paths under it
	// are shown relative to it.
	ThreadCwd() string
	// Facts are what decides whether a rewind can start now.
	Facts() Facts
}

// Facts are what the rewind reads of the rest of the model to know
// whether it can start.
type Facts struct {
	// Thread is the thread the app-server has open ("" when none is).
	Thread string
	// AgentShown: a sub-agent's pane is shown, not the thread's.
	AgentShown bool
	// Ready: there is an app-server and its session is ready.
	Ready bool
	// Busy: a turn runs or is being started, or a thread is being opened.
	Busy bool
	// Asking: a server request's form is shown.
	Asking bool
}

// Rewind is going back to an earlier message: the pickers, the rewind
// chosen (its message in the composer, waiting for Enter), the one
// running, and how the agent left each file it changed in this session.
// Use New; it is used by pointer.
type Rewind struct {
	env  act.Env
	opts Options

	escAt time.Time
	// offer is the turns the rewind picker was opened with; chosen the
	// plan the second picker (how to rewind) asks about.
	offer  []turnInfo
	chosen *plan
	// pending is the rewind chosen, waiting for Enter; running the one
	// whose call is out, send the edited message it sends once done.
	pending, running *plan
	send             *edited
	// snaps is each file as the agent left it after its last change seen
	// live, and the turn of that change.
	snaps map[string]fileSnap
}

// New returns a rewind with nothing chosen.
func New(env act.Env, opts Options) *Rewind {
	return &Rewind{env: env, opts: opts}
}

// Esc is Esc on an empty composer with no turn running: it cancels the
// rewind chosen; else the second Esc within escTwice of the first opens
// the rewind picker (the first says so).
func (r *Rewind) Esc() {
	if r.pending != nil {
		r.cancel("rewind cancelled")
		return
	}
	now := r.env.Clock.Now()
	if r.escAt.IsZero() || now.Sub(r.escAt) > escTwice {
		r.escAt = now
		if r.blocked() == "" && len(editable(r.turns())) > 0 {
			r.env.Out.Notice(act.NoticeInfo, "esc again to edit an earlier message")
		}
		return
	}
	r.escAt = time.Time{}
	r.env.Out.Clear(act.NoticeInfo) // the "esc again" hint
	r.openPicker()
}

// EscEsc is two Escs in one read (tmux, a slow link: they arrive as one
// key) on an empty composer with no turn running: as Esc twice.
func (r *Rewind) EscEsc() {
	r.escAt = r.env.Clock.Now()
	r.Esc()
}

// Cancel drops the rewind chosen, if any, and says so (the draft was
// cleared).
func (r *Rewind) Cancel() {
	if r.pending != nil {
		r.cancel("rewind cancelled")
	}
}

// Drop forgets the rewind chosen, silently: another thread opened, and a
// rewind is of the thread it was chosen in.
func (r *Rewind) Drop() { r.pending = nil }

// Pending reports whether a rewind is chosen and waits for Enter (Send).
func (r *Rewind) Pending() bool { return r.pending != nil }

// Restarted says the app-server started again: a rewind chosen before is
// dropped, its snapshots with it (they and its turn are of the server
// that went away), and a notice says so.
func (r *Rewind) Restarted() {
	if r.pending == nil {
		return
	}
	r.pending, r.snaps = nil, nil
	r.env.Out.Notice(act.NoticeInfo, "the app-server restarted: the rewind you chose was dropped — esc esc to choose again")
}

// Send is Enter on the draft: while a rewind is chosen, text (hist what
// the history keeps of it) is sent once the rewind is done — checked,
// forked, the files written — and Send reports true (the root empties
// the draft). With no rewind chosen it does nothing and reports false.
func (r *Rewind) Send(text, hist string) bool {
	p := r.pending
	if p == nil {
		return false
	}
	r.send = &edited{text: text, hist: hist}
	r.run(p)
	return true
}

// UndoBlocked says why /undo can't take back the last turn now ("" when
// it can): a rewind's reasons, or no turn to take back.
func (r *Rewind) UndoBlocked() string {
	if why := r.blocked(); why != "" {
		return why
	}
	if len(r.turns()) == 0 {
		return "no turn to undo"
	}
	return ""
}

// Undo is /undo: take back the last turn and its file changes (after
// asking), its message coming back to the draft. It returns why it can't
// now (UndoBlocked; "" when it goes on): the command is then refused.
func (r *Rewind) Undo() (refused string) {
	if why := r.UndoBlocked(); why != "" {
		return why
	}
	turns := r.turns()
	r.choose(turns, len(turns)-1, true)
	return ""
}

// Apply takes the intents that are the rewind's (the choices of its
// pickers; the turn machine's RunRewind and DropRewind) and reports
// whether i was one.
func (r *Rewind) Apply(i act.Intent) bool {
	switch i := i.(type) {
	case act.RewindPicked:
		turns := r.offer
		r.offer = nil
		if i.Turn >= 0 && i.Turn < len(turns) {
			r.choose(turns, i.Turn, false)
		}
	case act.RewindChosen:
		p := r.chosen
		r.chosen = nil
		if p == nil {
			return true
		}
		p.code = p.code || i.Code
		if p.undo {
			if why := r.blocked(); why != "" { // the server may have gone while the picker was open
				r.env.Out.Notice(act.NoticeInfo, why)
				return true
			}
			r.run(p)
		} else {
			r.start(p)
		}
	case act.RunRewind: // the turn machine's Enter, with a rewind chosen
		r.Send(i.Text, i.Hist)
	case act.DropRewind:
		r.Drop()
	default:
		return false
	}
	return true
}

// Folded takes an item the fold changed (nil: none): a file change of
// the thread that completed has its files read back as the agent left
// them (act.SnapFiles). A shared session's viewer reads none: it never
// rewinds.
func (r *Rewind) Folded(it *thread.Item) {
	if it == nil || it.Kind != thread.FileChange || !it.Done || it.Status != "completed" || r.env.Role.Shared() {
		return
	}
	files := append([]thread.FileDiff(nil), it.Files...)
	r.env.Out.Call(act.ToRewind, act.SnapFiles{Turn: it.Key.Turn, Files: files})
}

// Result takes what a call of the rewind's came back with (act.Done's
// Msg): a file change's snapshots, or a rewind's outcome.
func (r *Rewind) Result(msg any) {
	switch msg := msg.(type) {
	case act.FilesSnapped:
		r.onSnap(msg)
	case act.ThreadRewound:
		r.onDone(msg)
	}
}

// blocked says why a rewind can't start now ("" when it can).
func (r *Rewind) blocked() string {
	f := r.opts.World.Facts()
	switch {
	case f.AgentShown:
		return "a sub-agent is shown — esc back to the thread to rewind it"
	case r.env.Role.Shared():
		return "rewind switches the thread, which a shared session can't do"
	case !f.Ready:
		return "rewind needs a running app-server"
	case f.Busy:
		return "rewind can't start while a turn is running"
	case f.Asking:
		return "answer the waiting request first"
	}
	return ""
}

// turnInfo is one turn of the thread as the rewind picker shows it.
type turnInfo struct {
	id, prompt string
	commands   int
	files      []thread.FileDiff // the file changes applied, in order
}

// turns lists the thread's turns in order, from the fold.
func (r *Rewind) turns() []turnInfo {
	var out []turnInfo
	at := map[string]int{}
	for _, it := range r.opts.World.Thread().Items() {
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

// editable are the indexes of the turns with a message to edit.
func editable(turns []turnInfo) []int {
	var idx []int
	for i, t := range turns {
		if strings.TrimSpace(t.prompt) != "" {
			idx = append(idx, i)
		}
	}
	return idx
}

// openPicker lists the thread's messages, newest first, each with what
// came after it.
func (r *Rewind) openPicker() {
	if why := r.blocked(); why != "" {
		r.env.Out.Notice(act.NoticeInfo, why)
		return
	}
	turns := r.turns()
	idx := editable(turns)
	if len(idx) == 0 {
		r.env.Out.Notice(act.NoticeInfo, "no message of yours in this thread to go back to")
		return
	}
	var items []act.PickItem
	for k := len(idx) - 1; k >= 0; k-- {
		i := idx[k]
		items = append(items, act.PickItem{Label: thread.Preview(turns[i].prompt, 70), Detail: afterSummary(turns[i:]),
			Choose: act.RewindPicked{Turn: i}, Preview: preview(turns[i:])})
	}
	r.offer = turns
	r.env.Out.Want(act.Pick{Title: "Edit an earlier message", Hint: "enter to edit and send again · esc to cancel", Items: items})
}

func (r *Rewind) cancel(why string) {
	r.pending = nil
	r.env.Out.Notice(act.NoticeInfo, why)
}
