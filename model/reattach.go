package model

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/lib/redact"
	"tandem/ui"
)

// detachState is the model's part in a durable session (the app-server
// daemon, SessionReadyMsg.Durable): when the link drops the agent keeps
// working on the daemon, and the model re-attaches by itself with
// backoff (F5 forces an attempt), through Options.Restart, which resumes
// the thread; the history it brings is merged (mergeHistory).
type detachState struct {
	// durable and host are the session's (SessionReadyMsg).
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

// canReattach reports whether a lost link is re-attached by this model:
// a durable session of a model that may restart it.
func (m *Model) canReattach() bool {
	return m.detach.durable && m.opts.Restart != nil && !m.opts.ReadOnly
}

// onDetached handles the loss of the link to the daemon: the agent keeps
// working there, so the running turn, the draft and the queue stay; a
// message still streaming gets a gap mark; the requests shown are
// dropped unanswered (the daemon asks again once the thread is resumed),
// and the first re-attach is scheduled. Why the link went is logged by
// the session, not shown: it is always "the connection ended".
func (m *Model) onDetached(e backend.ServerExitedEvent) tea.Cmd {
	if m.client != nil {
		m.detach.turn = m.client.TurnID()
	}
	if e.Host != "" {
		m.detach.host = e.Host
	}
	m.ready = false
	m.client = nil
	m.overlay.Drop()
	m.recovery.dead = true // F5 re-attaches at once
	m.detach.detached = true
	m.detach.attempts = 0
	m.detach.lastErr = ""
	m.clearNotice(noticeStarting, noticeDead, noticeSteering, noticeInterrupting, noticeInfo)
	// What streams from here on follows a gap: the rest of a message
	// still streaming is not sent again (its whole text comes once it
	// completes).
	m.panes.MarkGaps()
	text := "lost the link to the codex daemon on " + m.detach.hostName()
	if m.turn.running {
		text += " — the turn goes on there"
	}
	m.banner(ui.BannerWarning, text+"; reconnecting by itself (F5 now)", nil)
	return m.scheduleReattach()
}

func (d *detachState) hostName() string {
	if d.host == "" {
		return "its host"
	}
	return d.host
}

// scheduleReattach plans the next attempt after its backoff delay.
func (m *Model) scheduleReattach() tea.Cmd {
	d := &m.detach
	d.seq++
	d.next = reattachDelay(d.attempts)
	seq := d.seq
	return tea.Tick(d.next, func(time.Time) tea.Msg { return reattachTickMsg{seq: seq} })
}

// onReattachTick runs the scheduled attempt, unless it is stale or one
// runs already.
func (m *Model) onReattachTick(msg reattachTickMsg) tea.Cmd {
	if msg.seq != m.detach.seq || !m.detach.detached || m.recovery.restarting {
		return nil
	}
	return m.reattach()
}

// reattach runs Options.Restart now: a new connection to the daemon that
// resumes the thread. Nothing is refused: the daemon's requests wait for
// their answer, and come again.
func (m *Model) reattach() tea.Cmd {
	m.detach.seq++ // a scheduled attempt is now stale
	m.recovery.restarting = true
	m.ready = false
	restart, last := m.opts.Restart, m.panes.Thread().LastTurn()
	return func() tea.Msg {
		info, err := restart(last)
		return restartDoneMsg{info: info, err: err}
	}
}

// onReattachDone is onRestartDone of a durable session: a failure plans
// the next attempt; a success says so and sends what was queued.
func (m *Model) onReattachDone(msg restartDoneMsg) tea.Cmd {
	m.recovery.restarting = false
	d := &m.detach
	if msg.err != nil {
		if !d.detached { // F5 on a live link whose re-attach failed
			d.detached = true
			m.recovery.dead = true
		}
		d.attempts++
		why := redact.String(oneLine(msg.err))
		if why != d.lastErr { // a new reason is told once, not every attempt
			m.banner(ui.BannerQuiet, "re-attach failed: "+why, nil)
		}
		d.lastErr = why
		return m.scheduleReattach()
	}
	wasDetached := d.detached
	d.detached, d.attempts, d.lastErr, d.turn = false, 0, "", ""
	m.recovery.dead = false
	m.recovery.noThread = false
	m.clearNotice(noticeStarting, noticeDead)
	text := "re-attached to the codex daemon on " + d.hostName()
	if msg.info.ThreadID != "" {
		text += " — thread " + shortID(msg.info.ThreadID)
	}
	if wasDetached {
		text += "; what happened meanwhile is shown above"
	}
	m.banner(ui.BannerInfo, text, nil)
	return m.flushQueue()
}

// detachNotice is the status line while the link is down.
func (m *Model) detachNotice() string {
	d := &m.detach
	if !d.detached {
		return ""
	}
	s := "disconnected — the agent keeps working on " + d.hostName()
	switch {
	case m.recovery.restarting:
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
// running, or finished while away). The user's own prompts of the turn that ran
// when the link dropped were drawn when sent, so they are not drawn
// again.
func (m *Model) mergeHistory(turns []backend.Turn) tea.Cmd {
	last := backend.Turn{}
	if n := len(turns); n > 0 {
		last = turns[n-1]
	}
	dropped := m.detach.turn
	if dropped == "" && m.turn.running {
		dropped = last.ID // the turn started before its id was known
	}
	m.panes.Merge(turns, dropped, m.opts.Shared) // the user's prompts of dropped were drawn when sent
	if last.Status == backend.TurnInProgress {
		return m.followTurn()
	}
	m.panes.EndGaps()
	if m.turn.running && last.ID != "" {
		m.endTurn(last)
		switch last.Status {
		case backend.TurnCompleted:
			m.banner(ui.BannerInfo, "the turn finished while tandem was away", nil)
		case backend.TurnInterrupted:
			m.banner(ui.BannerWarning, "the turn ended while tandem was away, interrupted — did the daemon restart?", nil)
		default:
			m.banner(ui.BannerWarning, "the turn ended while tandem was away ("+last.Status+")", nil)
		}
	}
	return nil
}

// resumedRunning follows a thread resumed while its turn still runs on the
// server (the daemon, after tandem left it): the turn shows as running,
// its messages stream on, and esc interrupts it.
func (m *Model) resumedRunning(t backend.Thread) tea.Cmd {
	if t.RunningTurn() == "" {
		return nil
	}
	m.banner(ui.BannerInfo, "its turn is still running — what it streams from now on follows", nil)
	return m.followTurn()
}
