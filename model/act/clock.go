package act

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Clock is the one clock every timer of the model reads (Env.Clock;
// model.Options.Clock): key timing, the forms' grace, Esc Esc, the quit
// window, frame ticks, retries and re-attaches.
type Clock interface {
	// Now is the time.
	Now() time.Time
	// After is the command that delivers f's message once d has passed.
	After(d time.Duration, f func(time.Time) tea.Msg) tea.Cmd
}

// RealClock is the wall clock, with Bubble Tea's timers.
type RealClock struct{}

// Now implements Clock.
func (RealClock) Now() time.Time { return time.Now() }

// After implements Clock with tea.Tick.
func (RealClock) After(d time.Duration, f func(time.Time) tea.Msg) tea.Cmd { return tea.Tick(d, f) }

// FuncClock is a clock that reads the time from a function (a pinned or
// stepped clock, for model.Options.Clock), with Bubble Tea's timers.
type FuncClock func() time.Time

// Now implements Clock.
func (f FuncClock) Now() time.Time { return f() }

// After implements Clock with tea.Tick.
func (FuncClock) After(d time.Duration, f func(time.Time) tea.Msg) tea.Cmd { return tea.Tick(d, f) }
