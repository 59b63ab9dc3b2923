package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// exitStatus is an error that only sets tandem's exit status: Execute
// prints nothing for it and exits with code. A signal that ended tandem
// gives 128 + its number, as shells report it: 129 after SIGHUP (the
// terminal closed), 130 after SIGINT, 143 after SIGTERM.
type exitStatus struct {
	code int
	sig  os.Signal
}

// Error implements error.
func (e *exitStatus) Error() string {
	if e.sig != nil {
		return fmt.Sprintf("ended by %v (exit status %d)", e.sig, e.code)
	}
	return fmt.Sprintf("exit status %d", e.code)
}

// signalCatcher records the first of the signals it was made for; a
// command asks it, once everything is shut down, for the exit status
// that signal implies.
type signalCatcher struct {
	ch   chan os.Signal
	once sync.Once
	mu   sync.Mutex
	got  os.Signal
	// orExit: a second signal before Stop (stopped closes) ends the
	// process (catchSignalsOrExit).
	orExit  bool
	stopped chan struct{}
}

// catchSignals catches sigs (instead of their default action) until ctx
// ends or Stop: the first one is noted (Status) and do runs with it, on
// a goroutine of its own.
func catchSignals(ctx context.Context, do func(os.Signal), sigs ...os.Signal) *signalCatcher {
	return catch(ctx, &signalCatcher{}, do, sigs)
}

// catchSignalsOrExit is catchSignals where a second signal, while the
// first one's shutdown hangs (a read that no context reaches), ends the
// process at once with the first one's status: for commands with no
// terminal to restore (tandem exec).
func catchSignalsOrExit(ctx context.Context, do func(os.Signal), sigs ...os.Signal) *signalCatcher {
	return catch(ctx, &signalCatcher{orExit: true}, do, sigs)
}

// exitNow ends the process with the noted signal's status.
func (c *signalCatcher) exitNow() {
	var st *exitStatus
	if errors.As(c.Status(), &st) {
		fmt.Fprintf(os.Stderr, "tandem: %v\n", st)
		os.Exit(st.code)
	}
	os.Exit(1)
}

func catch(ctx context.Context, c *signalCatcher, do func(os.Signal), sigs []os.Signal) *signalCatcher {
	c.ch, c.stopped = make(chan os.Signal, 1), make(chan struct{})
	signal.Notify(c.ch, sigs...)
	go func() {
		select {
		case s := <-c.ch:
			c.Note(s)
			do(s)
		case <-ctx.Done():
			return
		}
		if c.orExit { // until Stop: do may well have ended ctx
			select {
			case <-c.ch:
				c.exitNow()
			case <-c.stopped:
			}
		}
	}()
	return c
}

// Note records sig as the signal that ended the command (the first one
// noted wins).
func (c *signalCatcher) Note(sig os.Signal) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.got == nil {
		c.got = sig
	}
}

// Stop stops catching.
func (c *signalCatcher) Stop() {
	c.once.Do(func() {
		signal.Stop(c.ch)
		close(c.stopped)
	})
}

// Status returns the exit status error for the noted signal: nil when
// none was noted, or when it is in clean (signals that end the command
// the normal way, such as SIGINT for serve's Ctrl+C).
func (c *signalCatcher) Status(clean ...os.Signal) error {
	c.mu.Lock()
	sig := c.got
	c.mu.Unlock()
	if sig == nil {
		return nil
	}
	for _, s := range clean {
		if s == sig {
			return nil
		}
	}
	return signalExit(sig)
}

// signalExit is the exitStatus for a process ended by sig: 128 + its
// number (1 when sig is not a syscall.Signal).
func signalExit(sig os.Signal) error {
	if n, ok := sig.(syscall.Signal); ok {
		return &exitStatus{code: 128 + int(n), sig: sig}
	}
	return &exitStatus{code: 1, sig: sig}
}
