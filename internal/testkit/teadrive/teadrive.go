// Package teadrive runs Bubble Tea commands the way a program would, for
// tests that drive a model without a terminal. It imports only Bubble Tea,
// so both a model's own tests and the e2e tests can use it.
package teadrive

import (
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"
)

// MaxSteps is how many commands Drive runs before it gives up.
const MaxSteps = 300

// ErrTooManySteps is returned by Drive after MaxSteps commands.
var ErrTooManySteps = errors.New("too many steps")

// Drive runs cmds one at a time, in order, and feeds each message they
// yield to update, queueing the command update returns. A tea.BatchMsg is
// expanded into its commands; nil, tea.RawMsg and any message skip reports
// (skip may be nil) are dropped. A command that yields nothing within wait
// (cursor blinks, frame ticks) is abandoned, so Drive never blocks for
// long. It returns ErrTooManySteps once more than MaxSteps commands ran.
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
		ch := make(chan tea.Msg, 1)
		go func() { ch <- c() }()
		var msg tea.Msg
		select {
		case msg = <-ch:
		case <-time.After(wait):
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
