package model

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/redact"
	"tandem/ui"
)

// RestartInfo describes a restarted session: the thread resumed with
// `thread/resume` ("" when a new thread was started instead).
type RestartInfo struct {
	ThreadID string
}

// restartKey restarts a dead app-server; restartHint names it and /restart.
const (
	restartKey  = "f5"
	restartHint = "press F5 or type /restart to restart it and resume this thread"
)

// recoveryState is the model's part in surviving failures: a dead or busy
// app-server, a restart in flight, and the turn-timeout watchdog.
type recoveryState struct {
	// dead is set from ServerExitedEvent until a restart succeeds.
	dead bool
	// restarting is set while Options.Restart runs.
	restarting bool
	// timeoutFor is the turnStarted of the turn whose timeout was already
	// offered, so each turn is offered once.
	timeoutFor time.Time
	// busy is set while a call waits to retry after -32001.
	busy bool
	// noThread is set when the first start failed, so no thread exists
	// for a restart to resume; a restart that succeeds clears it.
	noThread bool
	// warned holds the server-wide warnings (no thread id, such as
	// configWarning) already shown: a restarted server sends them again.
	warned map[string]bool
}

// restartDoneMsg is the outcome of Options.Restart.
type restartDoneMsg struct {
	info RestartInfo
	err  error
}

// recoverUpdate runs first in Update. It handles F5 while the server is
// dead, retry notices and restart results (done = true), and watches
// ticks for the turn timeout without consuming them.
// (SessionFailedMsg is Update's: onSessionFailed.)
func (m *Model) recoverUpdate(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if msg.String() == restartKey && m.rec.dead && !m.opts.ReadOnly {
			return m.restartServer(), true
		}
	case backend.RetryNotice:
		m.onRetryNotice(msg)
		return nil, true
	case restartDoneMsg:
		return m.onRestartDone(msg), true
	case InfoMsg:
		m.onInfo(msg) // info.go
		return nil, true
	case tickMsg:
		m.checkTurnTimeout()
	}
	return nil, false
}

// onSessionFailed shows why the app-server could not start and, when a
// restart is possible, the way back: F5 or /restart tries again.
func (m *Model) onSessionFailed(msg SessionFailedMsg) {
	if m.opts.Restart != nil && !m.opts.ReadOnly && msg.Err != nil {
		m.rec.dead = true
		m.rec.noThread = true
		m.status.Notice = "F5 or /restart to try again"
		text := "could not start codex app-server: " + redact.String(msg.Err.Error()) + " — press F5 or type /restart to try again"
		if p := m.opts.Prompt; p != "" {
			text += "; your prompt “" + ui.Truncate(strings.Join(strings.Fields(p), " "), 40) + "” is kept and sent once it starts"
		}
		m.banner(ui.BannerError, text, nil)
		return
	}
	m.rec.dead = true
	m.status.Notice = ""
	m.banner(ui.BannerError, "could not start codex app-server: "+redact.String(msg.Err.Error()), nil)
}

// onRetryNotice shows "server busy, retrying" while a call is being
// retried after -32001 (see backend.Conn.Call) and clears it after.
func (m *Model) onRetryNotice(n backend.RetryNotice) {
	if n.Done {
		if m.rec.busy {
			m.rec.busy = false
			if strings.HasPrefix(m.status.Notice, "server busy") {
				m.status.Notice = ""
			}
		}
		return
	}
	m.rec.busy = true
	m.status.Notice = fmt.Sprintf("server busy, retrying %s in %.1fs (%d/%d)…", n.Method, n.Delay.Seconds(), n.Attempt+1, n.Tries)
}

// onServerExited shows why the app-server is gone: its exit status and
// last stderr lines (redacted), and how to get back. The transcript and the
// composer's draft are kept; a running turn ends; requests of the dead
// server are dropped (nothing can answer them any more).
func (m *Model) onServerExited(e backend.ServerExitedEvent) {
	wasRunning := m.running || m.startingTurn
	m.clearTurn()
	m.ready = false
	m.driver = nil
	m.pending = nil
	m.closeForm()
	m.rec.dead = true
	m.rec.busy = false
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
		m.status.Notice = "app-server gone — F5 or /restart to resume; your draft is kept"
	} else {
		m.status.Notice = ""
	}
	m.banner(ui.BannerError, text, detail)
}

// restartServer runs Options.Restart (F5 and /restart): the old server is
// closed, a new one started and the thread resumed; the new session's
// SessionReadyMsg arrives before restartDoneMsg. Requests still waiting
// for an answer are refused first, never accepted.
func (m *Model) restartServer() tea.Cmd {
	if m.opts.Restart == nil || m.opts.ReadOnly {
		m.status.Notice = "/restart is not available here"
		return nil
	}
	if m.rec.restarting {
		return nil
	}
	m.refuseAll()
	m.rec.restarting = true
	m.ready = false
	m.status.Notice = "restarting codex app-server…"
	restart := m.opts.Restart
	return func() tea.Msg {
		info, err := restart()
		return restartDoneMsg{info: info, err: err}
	}
}

func (m *Model) onRestartDone(msg restartDoneMsg) tea.Cmd {
	m.rec.restarting = false
	if msg.err != nil {
		m.rec.dead = true
		m.status.Notice = ""
		hint := restartHint
		if m.rec.noThread {
			hint = "press F5 or type /restart to try again"
		}
		m.banner(ui.BannerError, "restart failed: "+redact.String(msg.err.Error())+" — "+hint, nil)
		return nil
	}
	m.rec.dead = false
	m.rec.noThread = false
	m.status.Notice = ""
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
	if limit <= 0 || !m.running || m.turnStarted.IsZero() || m.rec.timeoutFor.Equal(m.turnStarted) {
		return
	}
	if m.now().Sub(m.turnStarted) < limit {
		return
	}
	m.rec.timeoutFor = m.turnStarted
	m.banner(ui.BannerWarning, fmt.Sprintf("this turn has run for over %s — press esc to interrupt it, or keep waiting", limit), nil)
	m.status.Notice = "turn running for over " + limit.String() + " — esc to interrupt"
}

// ServerDead reports whether the app-server exited and was not restarted.
func (m *Model) ServerDead() bool { return m.rec.dead }
