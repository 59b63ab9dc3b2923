// Package teadrive runs Bubble Tea commands the way a program would, for
// tests that drive a model without a terminal. It imports only Bubble Tea
// and bubbles (whose cursor blink it recognises), so both a model's own
// tests and the e2e tests can use it.
package teadrive

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"time"

	"charm.land/bubbles/v2/cursor"
	tea "charm.land/bubbletea/v2"
)

// MaxSteps is how many commands Drive runs before it gives up.
const MaxSteps = 300

// Patience is how long Drive waits for a command that is not a timer
// before it reports a hang (ErrHung). It catches hangs only: no command
// that answers is ever dropped for being slow.
var Patience = 3 * time.Minute

// ErrTooManySteps is returned by Drive after MaxSteps commands.
var ErrTooManySteps = errors.New("too many steps")

// ErrHung is returned by Drive when a command that is not a timer yields
// nothing within Patience.
var ErrHung = errors.New("a command did not finish")

// timers are the code addresses of the closures Bubble Tea's and bubbles'
// timers return: tea.Tick, tea.Every and a cursor's blink. Every command
// such a constructor returns shares its closure's code, so a command is
// told to be a timer by construction, whatever its duration.
var timers = func() map[uintptr]bool {
	c := cursor.New()
	c.SetMode(cursor.CursorBlink)
	m := map[uintptr]bool{}
	for _, cmd := range []tea.Cmd{
		tea.Tick(time.Hour, nil),
		tea.Every(time.Hour, nil),
		c.Blink(),
	} {
		m[reflect.ValueOf(cmd).Pointer()] = true
	}
	return m
}()

// IsTimer reports whether cmd is a timer: a tea.Tick, a tea.Every or a
// cursor's blink (the model's act.Clock timers are tea.Tick).
func IsTimer(cmd tea.Cmd) bool { return cmd != nil && timers[reflect.ValueOf(cmd).Pointer()] }

// Drive runs cmds one at a time, in order, and feeds each message they
// yield to update, queueing the command update returns. A tea.BatchMsg is
// expanded into its commands; nil, tea.RawMsg and any message skip reports
// (skip may be nil) are dropped.
//
// A timer (IsTimer: cursor blinks, frame ticks, the clock's timers) whose
// message does not arrive within wait is abandoned, so Drive never waits
// for a blink. Any other command — a client call, a form's next field —
// is waited for however slow the machine is; only one that yields nothing
// within Patience fails Drive (ErrHung). It returns ErrTooManySteps once
// more than MaxSteps commands ran.
func Drive(update func(tea.Msg) tea.Cmd, wait time.Duration, skip func(tea.Msg) bool, cmds ...tea.Cmd) error {
	queue := append([]tea.Cmd(nil), cmds...)
	for steps := 0; len(queue) > 0; steps++ {
		if steps > MaxSteps {
			return ErrTooManySteps
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		limit := Patience
		if IsTimer(c) {
			limit = wait
		}
		ch := make(chan tea.Msg, 1)
		go func() { ch <- c() }()
		var msg tea.Msg
		t := time.NewTimer(limit)
		select {
		case msg = <-ch:
			t.Stop()
		case <-t.C:
			if limit == Patience {
				return fmt.Errorf("%w in %v: %s", ErrHung, limit, name(c))
			}
			continue
		}
		switch msg := msg.(type) {
		case nil, tea.RawMsg:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			if skip == nil || !skip(msg) {
				queue = append(queue, update(msg))
			}
		}
	}
	return nil
}

// name is cmd's function's name, for ErrHung.
func name(cmd tea.Cmd) string {
	if f := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()); f != nil {
		return f.Name()
	}
	return "?"
}
