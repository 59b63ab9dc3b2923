package cli

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/sys/unix"

	"tandem/model"
)

// Job control: Ctrl+Z (keys' "suspend") asks Bubble Tea to suspend, which
// gives the terminal back as it found it and stops tandem's process group
// with SIGTSTP; SIGCONT (fg) takes the terminal back (raw mode, the
// alternate screen) and redraws all of it. A SIGTSTP from outside
// (kill -TSTP) must take the same path, or tandem stops with the terminal
// still raw and comes back with it cooked. tstpRouter catches SIGTSTP
// while tandem runs and hands it to the model as model.SuspendMsg.
//
// Once caught, SIGTSTP can't be given its default action back: the Go
// runtime keeps its handler after signal.Stop and then ignores the
// signal. So while Bubble Tea suspends (between tea.SuspendMsg and
// tea.ResumeMsg) the router answers Bubble Tea's own SIGTSTP by stopping
// the process group with SIGSTOP, which is what the default action does.

// jobControl reports whether a shell with job control would resume a
// stopped tandem: SIGTSTP was not ignored when tandem started, and
// tandem's process group is not its session's first (a job of an
// interactive shell has its own group in the shell's session; a command
// that tmux or `sh -c` started shares the session leader's group, which
// nobody would continue — the kernel even drops SIGTSTP to such an
// orphaned group, and Bubble Tea's suspend would wait for ever).
func jobControl() bool {
	if signal.Ignored(syscall.SIGTSTP) {
		return false
	}
	sid, err := unix.Getsid(0)
	return err == nil && unix.Getpgrp() != sid
}

// tstpRouter routes an outside SIGTSTP into a program as
// model.SuspendMsg. Use newTSTPRouter; Filter goes into the program's
// filter (programFilter), Start starts it once the program is made, Stop
// ends it.
type tstpRouter struct {
	ch         chan os.Signal
	suspending atomic.Bool // between tea.SuspendMsg and tea.ResumeMsg
	stop       chan struct{}
	once       sync.Once
}

// newTSTPRouter returns a router, or nil (a valid, idle router) when
// SIGTSTP was ignored at start: then nothing stops tandem, and the model
// (Options.Suspend unset: jobControl) does not try.
func newTSTPRouter() *tstpRouter {
	if signal.Ignored(syscall.SIGTSTP) {
		return nil
	}
	return &tstpRouter{ch: make(chan os.Signal, 1), stop: make(chan struct{})}
}

// Start catches SIGTSTP until ctx ends or Stop: outside a suspend each
// one is sent as model.SuspendMsg with send (a tea.Program's Send); during
// one, it is Bubble Tea's, and the process group stops (SIGSTOP).
func (r *tstpRouter) Start(ctx context.Context, send func(tea.Msg)) {
	if r == nil {
		return
	}
	signal.Notify(r.ch, syscall.SIGTSTP)
	go func() {
		for {
			select {
			case <-r.ch:
				if r.suspending.Load() {
					_ = unix.Kill(0, unix.SIGSTOP) // SIGTSTP's default action, on the whole job
					continue
				}
				send(model.SuspendMsg{})
			case <-ctx.Done():
				r.Stop()
				return
			case <-r.stop:
				return
			}
		}
	}()
}

// Filter notes Bubble Tea's suspend: from tea.SuspendMsg (the event loop
// then sends SIGTSTP to the process group) to tea.ResumeMsg. It passes
// every message on.
func (r *tstpRouter) Filter(msg tea.Msg) tea.Msg {
	if r == nil {
		return msg
	}
	switch msg.(type) {
	case tea.SuspendMsg:
		r.suspending.Store(true)
	case tea.ResumeMsg:
		r.suspending.Store(false)
	}
	return msg
}

// Stop stops catching SIGTSTP (the runtime then ignores it: tandem is
// on its way out).
func (r *tstpRouter) Stop() {
	if r == nil {
		return
	}
	r.once.Do(func() {
		signal.Stop(r.ch)
		close(r.stop)
	})
}

// serveTSTPRefused is what tandem serve says of a SIGTSTP it refused.
const serveTSTPRefused = "SIGTSTP refused: stopping tandem serve would freeze every guest — Ctrl+C ends the session"

// refuseTSTP catches SIGTSTP until ctx ends, calling say for each one:
// tandem serve does not stop (the guests' links run in its process).
func refuseTSTP(ctx context.Context, say func()) {
	if signal.Ignored(syscall.SIGTSTP) {
		return
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTSTP)
	defer signal.Stop(ch)
	for {
		select {
		case <-ch:
			say()
		case <-ctx.Done():
			return
		}
	}
}
