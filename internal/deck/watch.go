package deck

import (
	"errors"

	"tandem/backend"
)

// watchOnly is the notice a watcher's deck (Options.ReadOnly) gives for
// an action or an answer, naming what was refused.
func watchOnly(what string) string {
	return "you are watching: only a driver can " + what
}

// errWatched is what refusing a watched request says.
var errWatched = errors.New("a watcher cannot answer a request")

// watched is a request as a watcher's lane knows it (model.State's
// Watched): the inbox lists it as any request, but it cannot be
// answered, only seen. It implements backend.ServerRequest so the inbox
// treats both alike; every answer is refused.
type watched struct{ v backend.RequestView }

// Thread implements backend.ServerRequest.
func (w watched) Thread() string { return w.v.ThreadID }

// ID implements backend.ServerRequest.
func (w watched) ID() backend.RequestID { return w.v.ID }

// Method implements backend.ServerRequest.
func (w watched) Method() string { return w.v.Method }

// Refuse implements backend.ServerRequest: a watcher answers nothing.
func (w watched) Refuse() error { return errWatched }

// Answered implements backend.ServerRequest: false while the lane lists
// it (it goes once a driver answered).
func (w watched) Answered() bool { return false }

// WithReply implements backend.ServerRequest: the same read-only view.
func (w watched) WithReply(backend.ReplyFunc) backend.ServerRequest { return w }

// View implements backend.ServerRequest.
func (w watched) View() backend.RequestView { return w.v }
