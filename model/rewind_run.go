package model

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/rewind"
	"tandem/model/act"
	"tandem/thread"
	"tandem/ui"
)

// Doing a chosen rewind (rewind.go): verify, fork, write the files, send
// the edited message; and reading how the agent left each file it changed.

// runRewind does the plan: verify the files (when the code goes back),
// fork before the turn and write the files; onRewindDone then sends the
// edited message (rewind.send) on the fork. A refusal changes nothing.
func (m *Model) runRewind(plan *rewindPlan) tea.Cmd {
	c := m.turn.Client()
	m.rewind.pending = nil
	m.out.Want(act.Switching{On: true}) // model/turn: turns wait
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
	}) // the edited message (rewind.send) is sent by onRewindDone
}

// rewindText is the prompt waiting for its rewind to finish.
type rewindText struct{ text, hist string }

// onRewindDone switches to the fork and sends the edited message; a
// refusal or failure keeps the draft and says why.
func (m *Model) onRewindDone(msg rewindDoneMsg) tea.Cmd {
	m.out.Want(act.Switching{On: false}) // model/turn
	m.clearNotice(noticeInfo, noticeHeld)
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
		if send := m.rewind.send; send != nil {
			m.out.Want(act.RestoreDraft{Text: send.text}) // the message is never lost
			m.rewind.pending = plan                       // Enter tries again
			m.setNotice(noticeInfo, "enter tries the rewind again · esc on an empty input cancels it")
		}
		m.rewind.send = nil
		return nil
	}
	send := m.rewind.send
	m.rewind.send = nil
	// model/turn opens the fork; what follows is said after it, in order.
	m.out.Want(act.OpenThread{Response: msg.resp, How: act.HowRewound, Note: m.rewoundNote(plan.turn)})
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
		m.out.Banner(ui.BannerError, head, lines)
		if send != nil {
			m.out.Want(act.RestoreDraft{Text: send.text}) // not sent: the code is not as chosen
			m.out.Notice(noticeInfo, "your message was not sent: the files were not rewound — send it to go on anyway")
		}
		return nil
	case plan.code:
		detail := []string{plural(msg.files, "file") + " put back as before"}
		if plan.commands > 0 {
			detail = append(detail, "commands ran in those turns: their effects are not rewound")
		}
		m.out.Banner(ui.BannerInfo, "Code rewound", detail)
	}
	// The files taken back are no longer as those turns left them.
	for _, c := range plan.changes {
		delete(m.rewind.snaps, c.Path)
		delete(m.rewind.snaps, c.MovePath)
	}
	if plan.undo {
		m.out.Want(act.SetDraft{Text: plan.prompt})
		return nil
	}
	if send != nil {
		m.out.Want(act.AddHistory{Entry: send.hist})
		m.out.Want(act.Send{Text: send.text}) // model/turn
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
			return fmt.Sprintf("Rewound to “%s” — %s left behind on thread %s (/resume)", thread.Preview(t.prompt, 50), plural(len(turns)-i, "turn"), shortID(m.panes.Thread().ThreadID()))
		}
	}
	return "Rewound to an earlier message (a fork of the thread)"
}

// snapCmd reads how the agent left the files of a completed change.
func (m *Model) snapCmd(it *thread.Item) tea.Cmd {
	c := m.turn.Client()
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
