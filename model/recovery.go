package model

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/lib/redact"
	"tandem/ui"
)

// restartHint names F5 and /restart.
const restartHint = "press F5 or type /restart to restart it and resume this thread"

// recovery is the model's part in surviving failures: a dead or busy
// app-server, a restart in flight, and the turn-timeout watchdog.
type recovery struct {
	// dead is set from ServerExitedEvent until a restart succeeds.
	dead bool
	// restarting is set while Options.Restart runs.
	restarting bool
	// timeoutFor is the start of the turn whose timeout was already
	// offered, so each turn is offered once.
	timeoutFor time.Time
	// noThread is set when the first start failed, so no thread exists
	// for a restart to resume; a restart that succeeds clears it.
	noThread bool
	// warned holds the server-wide warnings (no thread id, such as
	// configWarning) already shown: a restarted server sends them again.
	warned map[string]bool
}

// firstWarning reports whether the server-wide warning text is new, and
// remembers it.
func (r *recovery) firstWarning(text string) bool {
	if r.warned[text] {
		return false
	}
	if r.warned == nil {
		r.warned = map[string]bool{}
	}
	r.warned[text] = true
	return true
}

// restartDoneMsg is the outcome of Options.Restart.
type restartDoneMsg struct {
	info RestartInfo
	err  error
}

// onSessionFailed shows why the app-server could not start and, when a
// restart is possible, the way back: F5 or /restart tries again.
func (m *Model) onSessionFailed(msg SessionFailedMsg) {
	m.recovery.dead = true
	if m.opts.Restart != nil && !m.opts.ReadOnly && msg.Err != nil {
		m.recovery.noThread = true
		m.setNotice(noticeDead, "F5 or /restart to try again")
		text := "could not start codex app-server: " + redact.String(msg.Err.Error()) + " — press F5 or type /restart to try again"
		if p := m.opts.Prompt; p != "" {
			text += "; your prompt “" + ui.Truncate(strings.Join(strings.Fields(p), " "), 40) + "” is kept and sent once it starts"
		}
		m.banner(ui.BannerError, text, nil)
		return
	}
	m.clearNotice()
	m.banner(ui.BannerError, "could not start codex app-server: "+redact.String(msg.Err.Error()), nil)
}

// onRetryNotice shows "server busy, retrying" while a call is being
// retried after -32001 (see backend.Conn.Call) and clears it after.
func (m *Model) onRetryNotice(n backend.RetryNotice) {
	if n.Done {
		m.clearNotice(noticeBusy) // only the busy notice, if it still shows
		return
	}
	m.setNotice(noticeBusy, fmt.Sprintf("server busy, retrying %s in %.1fs (%d/%d)…", n.Method, n.Delay.Seconds(), n.Attempt+1, n.Tries))
}

// onServerExited shows why the app-server is gone: its exit status and
// last stderr lines (redacted), and how to get back. The transcript and the
// composer's draft are kept; a running turn ends; requests of the dead
// server are dropped (nothing can answer them any more).
func (m *Model) onServerExited(e backend.ServerExitedEvent) {
	wasRunning := m.turn.busy()
	m.clearTurn()
	m.ready = false
	m.client = nil
	m.overlay.Drop()
	m.recovery.dead = true
	var detail []string
	for _, l := range backend.MeaningfulStderr(e.Stderr) { // no blank lines, no backtrace frames
		detail = append(detail, redact.String(l))
	}
	if len(detail) > 0 {
		detail = append([]string{"last stderr lines:"}, detail...)
	}
	text := "codex app-server " + redact.String(e.Status)
	if wasRunning {
		text += " during the turn"
	}
	if m.opts.Restart != nil && !m.opts.ReadOnly {
		text += " — " + restartHint
		m.setNotice(noticeDead, "app-server gone — F5 or /restart to resume; your draft is kept")
	} else {
		m.clearNotice()
	}
	m.banner(ui.BannerError, text, detail)
}

// restartServer runs Options.Restart (F5 and /restart): the old server is
// closed, a new one started and the thread resumed; the new session's
// SessionReadyMsg arrives before restartDoneMsg. Requests still waiting
// for an answer are refused first, never accepted.
func (m *Model) restartServer() tea.Cmd {
	if m.opts.Restart == nil || m.opts.ReadOnly {
		m.setNotice(noticeInfo, "/restart is not available here")
		return nil
	}
	if m.recovery.restarting {
		return nil
	}
	if m.canReattach() {
		// The daemon keeps its requests waiting and asks again once the
		// thread is resumed: nothing is refused on the user's behalf.
		if m.client != nil {
			m.detach.turn = m.client.TurnID()
		}
		m.overlay.Drop()
		m.setNotice(noticeStarting, "reconnecting to the codex daemon on "+m.detach.hostName()+"…")
		return m.reattach() // reattach.go
	}
	refuse := m.overlay.RefuseAll()
	m.recovery.restarting = true
	m.ready = false
	m.setNotice(noticeStarting, "restarting codex app-server…")
	restart, last := m.opts.Restart, m.panes.Thread().LastTurn()
	return inOrder(refuse, func() tea.Msg {
		info, err := restart(last)
		return restartDoneMsg{info: info, err: err}
	})
}

func (m *Model) onRestartDone(msg restartDoneMsg) tea.Cmd {
	if m.detach.durable {
		return m.onReattachDone(msg) // reattach.go
	}
	m.recovery.restarting = false
	if msg.err != nil {
		m.recovery.dead = true
		m.clearNotice()
		hint := restartHint
		if m.recovery.noThread {
			hint = "press F5 or type /restart to try again"
		}
		m.banner(ui.BannerError, "restart failed: "+redact.String(msg.err.Error())+" — "+hint, nil)
		return nil
	}
	m.recovery.dead = false
	m.recovery.noThread = false
	m.clearNotice()
	text := "codex app-server restarted"
	if msg.info.ThreadID != "" {
		text += " — resumed thread " + msg.info.ThreadID + "; resend your message if the last turn was cut off"
	}
	m.banner(ui.BannerInfo, text, nil)
	// Prompts queued before the server died go first, in order.
	return m.flushQueue()
}

// checkTurnTimeout offers, once per turn, to interrupt a turn that has run
// longer than Options.TurnTimeout.
func (m *Model) checkTurnTimeout() {
	limit := m.opts.TurnTimeout
	t := &m.turn
	if limit <= 0 || !t.running || t.started.IsZero() || m.recovery.timeoutFor.Equal(t.started) {
		return
	}
	if m.now().Sub(t.started) < limit {
		return
	}
	m.recovery.timeoutFor = t.started
	m.banner(ui.BannerWarning, fmt.Sprintf("this turn has run for over %s — press esc to interrupt it, or keep waiting", limit), nil)
	m.setNotice(noticeTimeout, "turn running for over "+limit.String()+" — esc to interrupt")
}
