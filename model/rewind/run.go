package rewind

import (
	"errors"
	"fmt"

	"tandem/model/act"
	"tandem/thread"
	"tandem/ui"

	revert "tandem/internal/rewind"
)

// Choosing and doing a rewind: what it takes back, the message it puts in
// the draft, the call (check, fork, write) and what its outcome asks for;
// and how the agent left each file it changed.

// plan is a chosen rewind: fork thread before turn, and when code is set
// take back the file changes of that turn and every later one.
type plan struct {
	thread, turn, prompt string
	code                 bool
	changes              []thread.FileDiff
	expect               map[string]revert.Snapshot
	commands             int
	dropped              int // turns dropped
	undo                 bool
}

// edited is the message waiting for its rewind to finish: text to send,
// hist what the history keeps of it.
type edited struct{ text, hist string }

// fileSnap is a file as the agent left it, and the turn of that change.
type fileSnap struct {
	turn string
	snap revert.Snapshot
}

// choose sets up the rewind to turns[i]: with file changes among the
// dropped turns it asks first whether to take the code back too; undo
// (/undo) asks only that, and runs at once.
func (r *Rewind) choose(turns []turnInfo, i int, undo bool) {
	p := &plan{thread: r.opts.World.Facts().Thread, turn: turns[i].id, prompt: turns[i].prompt, dropped: len(turns) - i, undo: undo}
	for _, t := range turns[i:] {
		p.changes = append(p.changes, t.files...)
		p.commands += t.commands
	}
	dropped := map[string]bool{}
	for _, t := range turns[i:] {
		dropped[t.id] = true
	}
	p.expect = map[string]revert.Snapshot{}
	for path, s := range r.snaps {
		if dropped[s.turn] {
			p.expect[path] = s.snap
		}
	}
	if len(p.changes) == 0 {
		if undo {
			r.env.Out.Notice(act.NoticeInfo, "the last turn changed no files: nothing to take back")
			return
		}
		r.start(p)
		return
	}
	summary := codeSummary(p, r.rel)
	code := act.RewindChosen{Code: true}
	var items []act.PickItem
	if undo {
		items = []act.PickItem{
			{Label: "Undo the last turn and its file changes", Detail: "its message comes back for editing", Choose: code},
			{Label: "Cancel"},
		}
	} else {
		items = []act.PickItem{
			{Label: "Rewind conversation only", Detail: "the files stay as they are", Choose: act.RewindChosen{}},
			{Label: "Rewind conversation and code", Detail: "take back the agent's file changes", Choose: code},
			{Label: "Cancel"},
		}
	}
	for i := range items {
		items[i].Preview = summary
	}
	r.chosen = p
	r.env.Out.Want(act.Pick{Title: "Rewind to “" + thread.Preview(p.prompt, 50) + "”", Hint: "enter to choose · esc to cancel", Items: items})
}

// start puts the chosen message in the draft; Enter sends it (Send).
func (r *Rewind) start(p *plan) {
	r.pending = p
	r.env.Out.Want(act.SetDraft{Text: p.prompt}) // model/composer
	what := "the conversation"
	if p.code {
		what = "the conversation and the code"
	}
	r.env.Out.Notice(act.NoticeInfo, "edit and press enter to rewind "+what+" to here · esc on an empty input cancels")
}

// run does the plan: verify the files (when the code goes back), fork
// before the turn and write the files (act.RewindThread); onDone then
// sends the edited message (r.send) on the fork. A refusal changes
// nothing.
func (r *Rewind) run(p *plan) {
	r.pending, r.running = nil, p
	out := r.env.Out
	out.Want(act.Switching{On: true}) // prompts wait, as while a thread opens
	out.Notice(act.NoticeInfo, "rewinding…")
	out.Call(act.ToRewind, act.RewindThread{Thread: p.thread, Turn: p.turn, Code: p.code, Changes: p.changes, Expect: p.expect})
}

// onDone switches to the fork and sends the edited message; a refusal or
// failure keeps the draft and says why.
func (r *Rewind) onDone(msg act.ThreadRewound) {
	p := r.running
	if p == nil {
		return
	}
	r.running = nil
	out := r.env.Out
	out.Want(act.Switching{On: false})
	out.Clear(act.NoticeInfo, act.NoticeHeld)
	send := r.send
	r.send = nil
	if !msg.Forked {
		var ce *revert.ConflictError
		if errors.As(msg.Err, &ce) {
			var lines []string
			for _, x := range ce.Conflicts {
				lines = append(lines, r.rel(x.Path)+": "+x.Why)
			}
			out.Banner(ui.BannerError, "nothing was rewound: files changed since the agent edited them", lines)
		} else {
			out.Banner(ui.BannerError, "could not rewind: "+act.OneLine(msg.Err), nil)
		}
		if send != nil {
			out.Want(act.RestoreDraft{Text: send.text}) // the message is never lost
			r.pending = p                               // Enter tries again
			out.Notice(act.NoticeInfo, "enter tries the rewind again · esc on an empty input cancels it")
		}
		return
	}
	out.Want(act.OpenThread{Response: msg.Response, How: act.HowRewound, Note: r.Note(p.turn)})
	switch {
	case p.code && msg.Err != nil:
		// The fork happened, the files did not all go back: say exactly
		// what is where, and don't go on as if the code were rewound.
		var ae *revert.ApplyError
		lines := []string{msg.Err.Error()}
		head := "the conversation was rewound, but the files were not: nothing was changed"
		if errors.As(msg.Err, &ae) {
			lines = []string{"writing " + r.rel(ae.Path) + " failed: " + act.OneLine(ae.Err)}
			if n := len(ae.NotPutBack); n > 0 {
				head = fmt.Sprintf("the conversation was rewound, and %s of the code too before writing failed — the rest is as the agent left it", plural(n, "file"))
				for i, path := range ae.NotPutBack {
					if i == 8 {
						lines = append(lines, fmt.Sprintf("… and %d more", n-i))
						break
					}
					lines = append(lines, "rewound: "+r.rel(path))
				}
			}
		}
		out.Banner(ui.BannerError, head, lines)
		if send != nil {
			out.Want(act.RestoreDraft{Text: send.text}) // not sent: the code is not as chosen
			out.Notice(act.NoticeInfo, "your message was not sent: the files were not rewound — send it to go on anyway")
		}
		return
	case p.code:
		detail := []string{plural(msg.Files, "file") + " put back as before"}
		if p.commands > 0 {
			detail = append(detail, "commands ran in those turns: their effects are not rewound")
		}
		out.Banner(ui.BannerInfo, "Code rewound", detail)
	}
	// The files taken back are no longer as those turns left them.
	for _, c := range p.changes {
		delete(r.snaps, c.Path)
		delete(r.snaps, c.MovePath)
	}
	if p.undo {
		out.Want(act.SetDraft{Text: p.prompt})
		return
	}
	if send != nil {
		out.Want(act.AddHistory{Entry: send.hist})
		out.Want(act.Send{Text: send.text})
	}
}

// Note is the transcript's marker for a rewind to before turn: the
// message it rewound to and what was left behind, from the thread as it
// is before the switch to the fork.
func (r *Rewind) Note(before string) string {
	turns := r.turns()
	for i, t := range turns {
		if t.id == before {
			return fmt.Sprintf("Rewound to “%s” — %s left behind on thread %s (/resume)", thread.Preview(t.prompt, 50), plural(len(turns)-i, "turn"), act.ShortID(r.opts.World.Thread().ThreadID()))
		}
	}
	return "Rewound to an earlier message (a fork of the thread)"
}

// onSnap records how the agent left the files of a change.
func (r *Rewind) onSnap(msg act.FilesSnapped) {
	if r.snaps == nil {
		r.snaps = map[string]fileSnap{}
	}
	for path, s := range msg.Snaps {
		r.snaps[path] = fileSnap{turn: msg.Turn, snap: s}
	}
}
