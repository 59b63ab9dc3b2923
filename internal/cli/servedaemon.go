package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

// startServeSession starts the shared session of `tandem serve`. On the
// codex daemon (--daemon, --remote unix://) it first looks for the
// workspace's last shared thread: when the daemon still has it loaded —
// its turn may still be running — the thread is resumed with its whole
// history, so the guests of a restarted serve see the transcript and the
// turn goes on; otherwise, and off the daemon, a new thread starts. The
// thread is remembered for the next serve in the workspace.
func (e *runEnv) startServeSession(ctx context.Context, send func(tea.Msg)) (*backend.Session, error) {
	if !e.cfg.durable() {
		return e.startSession(ctx, nil, send)
	}
	state := e.state() // chat.go: a change that can't be saved is told once
	last := state.LastThread(e.cwd)
	// StartSession bounds each step of the start itself (a slow remote
	// login shell has minutes); the 60 s are for what follows.
	sess, err := backend.StartSession(ctx, e.sessionOptions(send))
	if err != nil {
		return nil, err
	}
	sctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if last != "" && e.resumeShared(sctx, sess, last, send) {
		return sess, nil
	}
	resp, err := e.newThread(sctx, sess, send)
	if err != nil {
		return sess, err
	}
	_ = state.SetLastThread(e.cwd, resp.Thread.ID)
	return sess, nil
}

// resumeShared resumes the shared thread id on sess, with its history,
// when the daemon still has it loaded; it reports whether it did.
func (e *runEnv) resumeShared(ctx context.Context, sess *backend.Session, id string, send func(tea.Msg)) bool {
	t, err := sess.ReadThread(ctx, id)
	if err != nil || t.Status == nil || t.Status.Type == "notLoaded" {
		return false
	}
	resp, err := sess.ResumeThread(ctx, id)
	if err != nil {
		e.log.Warn("serve: resuming the shared thread", "thread", id, "err", err)
		return false
	}
	msg := e.durable(readyMsg(sess, resp))
	msg.History, msg.Older = resp.Thread.Turns, resp.Older
	send(msg)
	what := "its last turn is done"
	if resp.Thread.Active() {
		what = "its turn is still running"
	}
	send(backend.WarningEvent{Message: "the shared thread went on on the codex daemon while tandem serve was away; " + what})
	return true
}

// sayDaemonLeft tells the host that the shared session's agent goes on
// on the daemon, and how to serve it again.
func sayDaemonLeft(stderr io.Writer, sess *backend.Session) {
	if sess == nil || sess.ThreadID() == "" {
		return
	}
	fmt.Fprintln(stderr, "tandem serve: the shared thread stays on the codex daemon (a running turn goes on); `tandem serve --daemon` here serves it again")
}
