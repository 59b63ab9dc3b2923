package turn

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/thread"
	"tandem/ui"
)

// The turn's truth comes from the server. A turn/start or turn/steer
// whose answer never came (the call gave up waiting, or the connection
// ended while it waited: backend.MaybeSent) is not called failed: the
// server may have carried it out. The turn machine asks the server —
// `thread/read` with the thread's turns (act.ReadTurns), or the turn's
// own turn/started, whichever comes first — and only when the thread has
// no such turn (or steer) does the prompt come back with "could not
// start". Until the server says, the prompt is neither resent nor given
// back; a server that does not answer is named on the status line
// (silence) and F5 kills and restarts it, after which the new server is
// asked.

// check is a turn/start or turn/steer the server has not answered yet.
type check struct {
	// steer marks a turn/steer of turn; else a turn/start on thread
	// after before (the newest turn known when it was sent, "" none).
	steer          bool
	thread, before string
	turn           string
	// sent is the input's text as sent (what the thread's userMessage
	// holds); draft the text given back when the server says no.
	sent, draft string
	// asking is set while a read is in flight; seq tells the retry timer
	// still wanted; refused counts the answered reads that said no.
	asking  bool
	seq     int
	refused int
}

// checkRefusals is how many answered reads without the turn or steer
// (or refused: the thread's turns cannot be listed yet) mean it did not
// happen.
const checkRefusals = 2

// checkRetry is the wait before asking again a server that did not say
// (its read failed or timed out).
const checkRetry = 5 * time.Second

// checkTickMsg is checkRetry's timer for the check seq.
type checkTickMsg struct{ seq int }

func (checkTickMsg) turnMsg() {}

// Checking reports whether a turn/start or turn/steer waits for the
// server to say whether it happened.
func (t *Turns) Checking() bool { return t.t.check != nil }

// sentAt records what a turn/start carries, for a check: the thread, the
// newest turn known, the input's text.
func (t *Turns) sentAt(text string) {
	t.t.sent, t.t.before, t.t.thread, t.t.confirmed = text, t.w.LastTurn(), "", false
	if t.client != nil {
		t.t.thread = t.client.ThreadID()
	}
}

// beginCheck asks the server what became of c.
func (t *Turns) beginCheck(c *check) {
	t.t.check = c
	what := "turn/start — asking it whether the turn started…"
	if c.steer {
		what = "turn/steer — asking it whether your message reached the turn…"
	}
	t.notice(act.NoticeChecking, "codex did not answer "+what)
	t.askCheck()
}

// askCheck sends the check's read, unless one is in flight or there is
// no server to ask yet (OnReady asks again).
func (t *Turns) askCheck() {
	c := t.t.check
	if c == nil || c.asking || t.client == nil || !t.ready {
		return
	}
	c.asking = true
	t.out().Call(act.ToTurn, act.ReadTurns{Thread: c.thread})
}

func (t *Turns) onCheckTick(msg checkTickMsg) {
	if c := t.t.check; c != nil && msg.seq == c.seq {
		t.askCheck()
	}
}

// onTurnsRead takes the server's word on the check: the turn (or the
// steer) is there, or it is not. A "no" is asked again once after
// checkRetry before it counts (what the server just did may not be
// written yet: a fresh thread's turns cannot be listed, -32601, until its
// first turn is on disk); a read with no answer is asked again and again,
// never a "no".
func (t *Turns) onTurnsRead(r act.TurnsRead) {
	c := t.t.check
	if c == nil || r.Thread != c.thread {
		return
	}
	c.asking = false
	var tu backend.Turn
	yes := false
	if r.Err == nil {
		if c.steer {
			yes = steered(r.Turns, c.turn, c.sent)
		} else {
			tu, yes = started(r.Turns, c.before, c.sent)
		}
	}
	if !yes && (backend.MaybeSent(r.Err) || c.refused+1 < checkRefusals) {
		if !backend.MaybeSent(r.Err) {
			c.refused++
		}
		c.seq++
		seq := c.seq
		t.notice(act.NoticeChecking, "codex has not said whether it got your message — asking again (F5 restarts it if it is stuck)")
		t.out().Cmd(t.env.Clock.After(checkRetry, func(time.Time) tea.Msg { return checkTickMsg{seq: seq} }))
		return
	}
	t.t.check = nil
	t.out().Clear(act.NoticeChecking)
	switch {
	case c.steer:
		t.steerChecked(c, yes)
	case yes:
		t.followChecked(tu)
		t.flushQueue()
	default:
		t.startRefused(c.draft, "codex did not answer turn/start, and the thread has no such turn")
		t.flushQueue()
	}
}

// followChecked follows tu, the turn the server did start: still running,
// it is this viewer's running turn; ended (its server went away
// meanwhile), its items are merged and it ends as it did.
func (t *Turns) followChecked(tu backend.Turn) {
	if tu.Status == backend.TurnInProgress {
		if !t.t.running {
			t.t.running = true
			t.t.started = t.now()
		}
		t.out().Want(act.StartFrames{})
		return
	}
	t.out().Want(act.MergeHistory{Turns: []backend.Turn{tu}, Dropped: tu.ID, Shared: t.shared()})
	t.out().Want(act.EndOpen{Turn: tu.ID, Status: thread.StatusInterrupted})
	if t.t.running {
		t.endTurn(tu)
		return
	}
	t.banner(ui.BannerWarning, "the turn had started; it ended "+tu.Status+" when codex app-server went away", nil)
}

// startRefused ends a turn that did not start (why) and gives its prompt
// back to an empty draft.
func (t *Turns) startRefused(prompt, why string) {
	t.clearTurn()
	t.banner(ui.BannerError, "could not start the turn: "+why, nil)
	// The prompt is never lost, and lines queued behind it are not sent
	// ahead of it: all of them come back, the prompt first, ahead of
	// anything typed since.
	texts := t.takeQueued(func(queued) bool { return true })
	if prompt != "" {
		texts = append([]string{prompt}, texts...)
	}
	switch {
	case len(texts) == 0:
	case len(texts) == 1 && strings.TrimSpace(t.w.Draft()) == "":
		t.out().Want(act.SetDraft{Text: texts[0]}) // a large one comes back as a placeholder
	default:
		t.out().Want(act.RestoreDraft{Text: strings.Join(texts, "\n")})
		if len(texts) > 1 {
			t.notice(act.NoticeInfo, "the turn did not start — your message and the ones queued after it are back in the composer")
		}
	}
}

// steerChecked ends a steer check: delivered, it is drawn as sent; not,
// its text comes back.
func (t *Turns) steerChecked(c *check, delivered bool) {
	if delivered {
		t.onSteered(act.Steered{Text: c.draft})
		return
	}
	t.banner(ui.BannerError, "could not steer the turn: codex did not answer turn/steer, and the turn has no such message", nil)
	// The lines queued to steer after it come back with it, in order:
	// none is sent ahead of it.
	texts := append([]string{c.draft}, t.takeQueued(func(q queued) bool { return q.until == waitStart })...)
	t.out().Want(act.RestoreDraft{Text: strings.Join(texts, "\n")})
}

// confirmStart takes turn/started while a turn/start's answer is awaited
// or being checked: the server started it.
func (t *Turns) confirmStart() {
	t.t.confirmed = true
	if c := t.t.check; c != nil && !c.steer {
		t.t.check = nil
		t.out().Clear(act.NoticeChecking)
	}
}

// started finds, among the thread's turns after before, the one whose
// user message is text, or one still running that has no item yet (a
// turn just started lists none: its user message is not written yet).
func started(turns []backend.Turn, before, text string) (backend.Turn, bool) {
	for i := len(turns) - 1; i >= 0; i-- {
		tu := turns[i]
		if before != "" && tu.ID == before {
			break
		}
		if len(tu.Items) == 0 && tu.Status == backend.TurnInProgress {
			return tu, true
		}
		for _, it := range tu.Items {
			if it.Type == "userMessage" && strings.TrimSpace(it.UserText()) == strings.TrimSpace(text) {
				return tu, true
			}
		}
	}
	return backend.Turn{}, false
}

// steered reports whether turn holds text as a user message after its
// first (the prompt that started it).
func steered(turns []backend.Turn, turn, text string) bool {
	for _, tu := range turns {
		if tu.ID != turn {
			continue
		}
		first := true
		for _, it := range tu.Items {
			if it.Type != "userMessage" {
				continue
			}
			if !first && strings.TrimSpace(it.UserText()) == strings.TrimSpace(text) {
				return true
			}
			first = false
		}
	}
	return false
}

// silence is how long the server has owed an answer and said nothing, as
// last measured (0: it answers, or the check is off).
func (t *Turns) silence() time.Duration {
	limit, c := t.opts.UnresponsiveAfter, t.client
	if limit <= 0 || c == nil || !t.ready {
		return 0
	}
	since := c.Unanswered()
	if since.IsZero() {
		return 0
	}
	if d := t.env.Clock.Now().Sub(since); d >= limit {
		return d
	}
	return 0
}

// checkSilence measures the server's silence (on each frame tick, while
// a turn runs): the status line shows it from Options.UnresponsiveAfter
// on.
func (t *Turns) checkSilence() { t.rec.silent = t.silence() }

// SilenceNotice is the status line while a turn runs (or is started or
// checked) and the server has not answered for Options.UnresponsiveAfter
// ("" while it answers).
func (t *Turns) SilenceNotice() string {
	d := t.rec.silent
	if d <= 0 || t.client == nil || !t.t.busy() {
		return "" // measured on the frames of a turn: stale without one
	}
	s := fmt.Sprintf("codex has not answered for %d s", int(d.Seconds()))
	if t.opts.Restart != nil && !t.env.Role.Watches() {
		s += " — F5 kills and restarts it"
	}
	return s
}

// F5 restarts the app-server when there is a reason to: it is gone, the
// link to the daemon is down, or it has not answered for
// Options.UnresponsiveAfter (the session's owner then kills its process
// group). Otherwise it says why not.
func (t *Turns) F5() {
	switch {
	case t.opts.Restart == nil || t.env.Role.Watches():
		t.notice(act.NoticeInfo, "F5 restarts codex app-server — not available here")
	case t.rec.restarting:
		t.notice(act.NoticeInfo, "codex app-server is restarting already…")
	case t.rec.dead || t.detach.detached:
		t.Restart()
	case t.client == nil || !t.ready:
		t.notice(act.NoticeInfo, "codex app-server is starting — F5 restarts it if it stops answering")
	default:
		if d := t.silence(); d > 0 {
			t.rec.silent = d
			t.Restart()
			t.notice(act.NoticeStarting, fmt.Sprintf("codex had not answered for %d s — killing it and restarting…", int(d.Seconds())))
			return
		}
		when := "once it is gone"
		if limit := t.opts.UnresponsiveAfter; limit > 0 {
			when += fmt.Sprintf(" or silent for %d s", int(limit.Seconds()))
		}
		t.notice(act.NoticeInfo, "codex app-server is answering — F5 restarts it "+when+"; /restart restarts it now")
	}
}
