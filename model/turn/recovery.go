package turn

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/lib/redact"
	"tandem/model/act"
	"tandem/thread"
	"tandem/ui"
)

// restartHint names F5 and /restart.
const restartHint = "press F5 or type /restart to restart it and resume this thread"

// recovery is the turn machine's part in surviving failures: a dead or
// busy app-server, a restart in flight, and the turn-timeout watchdog.
type recovery struct {
	// dead is set from ServerExitedEvent until a restart succeeds.
	dead bool
	// restarting is set while Options.Restart runs; asked from Restart
	// until the restarted session's ready message came (a shared
	// session's, which says who restarted it: restartedBy) or the
	// restart failed.
	restarting bool
	asked      bool
	// timeoutFor is the start of the turn whose timeout was already
	// offered, so each turn is offered once.
	timeoutFor time.Time
	// noThread is set when the first start failed, so no thread exists
	// for a restart to resume; a restart that succeeds clears it.
	noThread bool
	// silent is how long the server has owed an answer and said nothing,
	// as the last frame measured it (0: it answers; truth.go).
	silent time.Duration
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

func (restartDoneMsg) turnMsg() {}

// OnFailed shows why what could not start ("": the app-server; the
// command center says "the thread") and, when a restart is possible, the
// way back: F5 or /restart tries again.
func (t *Turns) OnFailed(err error, what string) {
	if what == "" {
		what = "codex app-server"
	}
	t.rec.dead = true
	t.failure = "could not start " + what
	if err != nil {
		t.failure += ": " + redact.String(err.Error())
	}
	if t.opts.Restart != nil && !t.env.Role.Watches() && err != nil {
		t.rec.noThread = true
		t.notice(act.NoticeDead, "F5 or /restart to try again")
		text := "could not start " + what + ": " + redact.String(err.Error()) + " — press F5 or type /restart to try again"
		if p := t.opts.Prompt; p != "" {
			text += "; your prompt “" + ui.Truncate(strings.Join(strings.Fields(p), " "), 40) + "” is kept and sent once it starts"
		}
		t.banner(ui.BannerError, text, nil)
		return
	}
	t.out().Clear()
	t.banner(ui.BannerError, "could not start "+what+": "+redact.String(err.Error()), nil)
}

// OnRetry shows "server busy, retrying" while a call is being retried
// after -32001 (see backend.Conn.Call) and clears it after.
func (t *Turns) OnRetry(n backend.RetryNotice) {
	if n.Done {
		t.out().Clear(act.NoticeBusy) // only the busy notice, if it still shows
		return
	}
	t.notice(act.NoticeBusy, fmt.Sprintf("server busy, retrying %s in %.1fs (%d/%d)…", n.Method, n.Delay.Seconds(), n.Attempt+1, n.Tries))
}

// onServerExited shows why the app-server is gone: its exit status and
// last stderr lines (redacted), and how to get back. The transcript and
// the composer's draft are kept; a running turn ends; requests of the
// dead server are dropped (nothing can answer them any more).
func (t *Turns) onServerExited(e backend.ServerExitedEvent) {
	wasRunning := t.t.running
	t.clearTurn()
	t.ready = false
	t.client = nil
	t.rec.silent = 0
	t.out().Want(act.DropRequests{})
	// What ran (or waited for its approval) will never complete.
	t.out().Want(act.EndOpen{Status: thread.StatusUnknown, All: true})
	t.rec.dead = true
	var detail []string
	for _, l := range backend.MeaningfulStderr(e.Stderr) { // no blank lines, no backtrace frames
		detail = append(detail, redact.String(ansi.Strip(l))) // codex colours its log lines
	}
	if len(detail) > 0 {
		detail = append([]string{"last stderr lines:"}, detail...)
	}
	text := "codex app-server " + redact.String(e.Status)
	if wasRunning {
		text += " during the turn"
	}
	t.failure = text
	if t.opts.Restart != nil && !t.env.Role.Watches() {
		text += " — " + restartHint
		t.notice(act.NoticeDead, "app-server gone — F5 or /restart to resume; your draft is kept")
	} else {
		t.out().Clear()
	}
	t.banner(ui.BannerError, text, detail)
}

// Restart runs Options.Restart (F5 and /restart): the old server is
// closed, a new one started and the thread resumed; the new session's
// SessionReady arrives before the restart's outcome. Requests still
// waiting for an answer are refused first, never accepted. A durable
// session re-attaches instead, at once.
func (t *Turns) Restart() {
	if t.opts.Restart == nil || t.env.Role.Watches() {
		t.notice(act.NoticeInfo, "/restart is not available here")
		return
	}
	if t.rec.restarting {
		return
	}
	if t.canReattach() {
		// The daemon keeps its requests waiting and asks again once the
		// thread is resumed: nothing is refused on the user's behalf.
		if t.client != nil {
			t.detach.turn = t.client.TurnID()
		}
		t.out().Want(act.DropRequests{})
		t.notice(act.NoticeStarting, "reconnecting to the codex daemon on "+t.detach.hostName()+"…")
		t.reattach() // reattach.go
		return
	}
	restart, last := t.opts.Restart, t.w.LastTurn()
	t.out().Want(act.RefuseRequests{Then: func() tea.Msg {
		info, err := restart(last)
		return restartDoneMsg{info: info, err: err}
	}})
	t.rec.restarting = true
	t.rec.asked = true
	t.ready = false
	t.rec.silent = 0
	if t.t.running {
		// The old server goes, and its turn with it (a check of a
		// turn/start stays: the new server is asked).
		t.clearTurn()
		t.out().Want(act.ClearHeader{})
	}
	t.out().Want(act.EndOpen{Status: thread.StatusInterrupted, All: true})
	t.notice(act.NoticeStarting, "restarting codex app-server…")
}

func (t *Turns) onRestartDone(msg restartDoneMsg) {
	if t.detach.durable {
		t.onReattachDone(msg) // reattach.go
		return
	}
	t.rec.restarting = false
	if msg.err != nil {
		t.rec.asked = false
		t.rec.dead = true
		t.out().Clear()
		hint := restartHint
		if t.rec.noThread {
			hint = "press F5 or type /restart to try again"
		}
		t.banner(ui.BannerError, "restart failed: "+redact.String(msg.err.Error())+" — "+hint, nil)
		return
	}
	t.rec.dead = false
	t.rec.noThread = false
	t.out().Clear()
	text := "codex app-server restarted"
	switch {
	case msg.info.NewThread:
		text += " — the thread had no turn yet — a new thread was started"
	case msg.info.ThreadID != "":
		text += " — resumed thread " + msg.info.ThreadID + "; resend your message if the last turn was cut off"
	}
	t.banner(ui.BannerInfo, text, nil)
	t.askCheck() // truth.go: the new server says what became of a turn/start
	// Prompts queued before the server died go first, in order.
	t.flushQueue()
}

// restartedBy takes a shared session's restart (SessionReady.RestartedBy)
// that another driver asked for, or this viewer itself: a viewer that
// asked nothing gets its session back (if it saw the server die) with a
// line saying who restarted it; one that asked says so when its restart
// returns (onRestartDone), which may come before this ready message or
// after it. Either way, prompts queued meanwhile go now.
func (t *Turns) restartedBy(msg SessionReady) {
	if t.rec.asked {
		t.rec.asked = false
	} else {
		t.rec.dead = false
		t.rec.noThread = false
		text := "codex app-server restarted by " + msg.RestartedBy
		switch {
		case msg.NewThread:
			text += " — the thread had no turn yet — a new thread was started"
		case msg.ThreadID != "":
			text += " — the thread continues"
		}
		t.banner(ui.BannerInfo, text, nil)
	}
	t.flushQueue()
}

// CheckTimeout measures the server's silence (truth.go) and offers, once
// per turn, to interrupt a turn that has run longer than
// Options.TurnTimeout (the root asks on every frame tick).
func (t *Turns) CheckTimeout() {
	t.checkSilence()
	limit := t.opts.TurnTimeout
	s := &t.t
	if limit <= 0 || !s.running || s.started.IsZero() || t.rec.timeoutFor.Equal(s.started) {
		return
	}
	if t.now().Sub(s.started) < limit {
		return
	}
	t.rec.timeoutFor = s.started
	t.banner(ui.BannerWarning, fmt.Sprintf("this turn has run for over %s — press esc to interrupt it, or keep waiting", limit), nil)
	t.notice(act.NoticeTimeout, "turn running for over "+limit.String()+" — esc to interrupt")
}
