package act

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

// Action is one call to the app-server: its parameters and what run does
// with the client. Only this package declares actions (calls_*.go): it
// is the one place the model talks to backend.Client.
type Action interface {
	run(ctx context.Context, c backend.Client) tea.Msg
}

// timed is an action with a deadline of its own (callTimeout otherwise).
type timed interface{ timeout() time.Duration }

// callTimeout is a call's deadline unless the action says otherwise.
const callTimeout = 60 * time.Second

// Request is an action and the component its result goes back to.
type Request struct {
	For Owner
	Do  Action
}

// Done is an action's result, for the component that asked.
type Done struct {
	For Owner
	Msg tea.Msg
}

// Run returns the command that performs r on c within its deadline and
// reports the result as Done. c must not be nil (the root asks only
// with a client).
func Run(c backend.Client, r Request) tea.Cmd {
	d := callTimeout
	if t, ok := r.Do.(timed); ok {
		d = t.timeout()
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		defer cancel()
		return Done{For: r.For, Msg: r.Do.run(ctx, c)}
	}
}
