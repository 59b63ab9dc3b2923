package turn

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/lib/redact"
	"tandem/model/act"
	"tandem/ui"
)

// detachState is the turn machine's part in a durable session (the
// app-server daemon, SessionReady.Durable): when the link drops the agent
// keeps working on the daemon, and the session re-attaches by itself
// with backoff (F5 forces an attempt), through Options.Restart, which
// resumes the thread; the history it brings is merged (mergeHistory).
type detachState struct {
	// durable and host are the session's (SessionReady).
	durable bool
	host    string
	// detached is set from the link's loss until a re-attach succeeds.
	detached bool
	// attempts counts the failed re-attaches since the link dropped; next
	// is the wait before the coming one.
	attempts int
	next     time.Duration
	// seq tells the scheduled attempt that is still wanted: F5, and a
	// new schedule, make earlier ones stale.
	seq int
	// turn is the turn that ran when the link dropped ("" when none ran,
	// or its id was not known yet).
	turn string
	// lastErr is the last failed attempt's reason (told once per reason).
	lastErr string
}

// reattachTickMsg is the scheduled re-attach attempt seq.
type reattachTickMsg struct{ seq int }

func (reattachTickMsg) turnMsg() {}

// reattachDelays are the waits before each re-attach attempt; the last
// repeats.
var reattachDelays = []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 15 * time.Second, 30 * time.Second}

// reattachDelay is the wait before attempt n (0 is the first).
func reattachDelay(n int) time.Duration {
	if n >= len(reattachDelays) {
		n = len(reattachDelays) - 1
	}
	return reattachDelays[max(n, 0)]
}

// Durable reports whether the session is on the daemon (it outlives
// tandem): quitting leaves its turn running and its requests waiting.
func (t *Turns) Durable() bool { return t.detach.durable }

// Host is the machine the daemon runs on ("" when not known).
func (t *Turns) Host() string { return t.detach.host }

// Detached reports whether the link to the daemon is down.
func (t *Turns) Detached() bool { return t.detach.detached }

// canReattach reports whether a lost link is re-attached by this model:
// a durable session of a model that may restart it.
func (t *Turns) canReattach() bool {
	return t.detach.durable && t.opts.Restart != nil && !t.env.Role.Watches()
}

// onDetached handles the loss of the link to the daemon: the agent keeps
// working there, so the running turn, the draft and the queue stay; a
// message still streaming gets a gap mark; the requests shown are
// dropped unanswered (the daemon asks again once the thread is resumed),
// and the first re-attach is scheduled. Why the link went is logged by
// the session, not shown: it is always "the connection ended".
func (t *Turns) onDetached(e backend.ServerExitedEvent) {
	if t.client != nil {
		t.detach.turn = t.client.TurnID()
	}
	if e.Host != "" {
		t.detach.host = e.Host
	}
	t.ready = false
	t.client = nil
	t.out().Want(act.DropRequests{})
	t.rec.dead = true // F5 re-attaches at once
	t.detach.detached = true
	t.detach.attempts = 0
	t.detach.lastErr = ""
	t.out().Clear(act.NoticeStarting, act.NoticeDead, act.NoticeSteering, act.NoticeInterrupting, act.NoticeInfo)
	// What streams from here on follows a gap: the rest of a message
	// still streaming is not sent again (its whole text comes once it
	// completes).
	t.out().Want(act.MarkGaps{})
	text := "lost the link to the codex daemon on " + t.detach.hostName()
	if t.t.running {
		text += " — the turn goes on there"
	}
	t.banner(ui.BannerWarning, text+"; reconnecting by itself (F5 now)", nil)
	t.scheduleReattach()
}

func (d *detachState) hostName() string {
	if d.host == "" {
		return "its host"
	}
	return d.host
}

// scheduleReattach plans the next attempt after its backoff delay.
func (t *Turns) scheduleReattach() {
	d := &t.detach
	d.seq++
	d.next = reattachDelay(d.attempts)
	seq := d.seq
	t.out().Cmd(t.env.Clock.After(d.next, func(time.Time) tea.Msg { return reattachTickMsg{seq: seq} }))
}

// onReattachTick runs the scheduled attempt, unless it is stale or one
// runs already.
func (t *Turns) onReattachTick(msg reattachTickMsg) {
	if msg.seq != t.detach.seq || !t.detach.detached || t.rec.restarting {
		return
	}
	t.reattach()
}

// reattach runs Options.Restart now: a new connection to the daemon that
// resumes the thread. Nothing is refused: the daemon's requests wait for
// their answer, and come again.
func (t *Turns) reattach() {
	t.detach.seq++ // a scheduled attempt is now stale
	t.rec.restarting = true
	t.ready = false
	restart, last := t.opts.Restart, t.w.LastTurn()
	t.out().Cmd(func() tea.Msg {
		info, err := restart(last)
		return restartDoneMsg{info: info, err: err}
	})
}

// onReattachDone is onRestartDone of a durable session: a failure plans
// the next attempt; a success says so and sends what was queued.
func (t *Turns) onReattachDone(msg restartDoneMsg) {
	t.rec.restarting = false
	d := &t.detach
	if msg.err != nil {
		if !d.detached { // F5 on a live link whose re-attach failed
			d.detached = true
			t.rec.dead = true
		}
		d.attempts++
		why := redact.String(act.OneLine(msg.err))
		if why != d.lastErr { // a new reason is told once, not every attempt
			t.banner(ui.BannerQuiet, "re-attach failed: "+why, nil)
		}
		d.lastErr = why
		t.scheduleReattach()
		return
	}
	wasDetached := d.detached
	d.detached, d.attempts, d.lastErr, d.turn = false, 0, "", ""
	t.rec.dead = false
	t.rec.noThread = false
	t.out().Clear(act.NoticeStarting, act.NoticeDead)
	text := "re-attached to the codex daemon on " + d.hostName()
	if msg.info.ThreadID != "" {
		text += " — thread " + act.ShortID(msg.info.ThreadID)
	}
	if wasDetached {
		text += "; what happened meanwhile is shown above"
	}
	t.banner(ui.BannerInfo, text, nil)
	t.flushQueue()
}

// DetachNotice is the status line while the link to the daemon is down
// ("" while it is up).
func (t *Turns) DetachNotice() string {
	d := &t.detach
	if !d.detached {
		return ""
	}
	s := "disconnected — the agent keeps working on " + d.hostName()
	switch {
	case t.rec.restarting:
		s += " · reconnecting…"
	case d.attempts > 0:
		s += fmt.Sprintf(" · retry %d in %s (F5 now)", d.attempts+1, d.next)
	default:
		s += fmt.Sprintf(" · retry in %s (F5 now)", d.next)
	}
	return s
}

// mergeHistory folds the resumed thread's turns into the transcript of a
// re-attach: items already shown are completed in place (a message cut
// by the drop loses its gap mark), items that completed while away are
// added, and the turn state follows the thread's last turn (still
// running, or finished while away). The user's own prompts of the turn
// that ran when the link dropped were drawn when sent, so they are not
// drawn again.
func (t *Turns) mergeHistory(turns []backend.Turn) {
	last := backend.Turn{}
	if n := len(turns); n > 0 {
		last = turns[n-1]
	}
	dropped := t.detach.turn
	if dropped == "" && t.t.running {
		dropped = last.ID // the turn started before its id was known
	}
	t.out().Want(act.MergeHistory{Turns: turns, Dropped: dropped, Shared: t.shared()})
	if last.Status == backend.TurnInProgress {
		t.followTurn()
		return
	}
	t.out().Want(act.EndGaps{})
	if t.t.running && last.ID != "" {
		t.endTurn(last)
		switch last.Status {
		case backend.TurnCompleted:
			t.banner(ui.BannerInfo, "the turn finished while tandem was away", nil)
		case backend.TurnInterrupted:
			t.banner(ui.BannerWarning, "the turn ended while tandem was away, interrupted — did the daemon restart?", nil)
		default:
			t.banner(ui.BannerWarning, "the turn ended while tandem was away ("+last.Status+")", nil)
		}
	}
}

// resumedRunning follows a thread resumed while its turn still runs on
// the server (the daemon, after tandem left it): the turn shows as
// running, its messages stream on, and esc interrupts it.
func (t *Turns) resumedRunning(th backend.Thread) {
	if th.RunningTurn() == "" {
		return
	}
	t.banner(ui.BannerInfo, "its turn is still running — what it streams from now on follows", nil)
	t.followTurn()
}
