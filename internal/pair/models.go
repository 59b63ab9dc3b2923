package pair

import (
	"os"

	"tandem/internal/deck"
	"tandem/internal/hub"
	"tandem/model"
)

// Each viewer's models: one per thread, shared transcript, read-only for
// watchers.

// newModel returns the model of the viewer name: shared transcript,
// read-only for watchers; guest is set for SSH clients
// (model.Options.Guest: nothing runs on the host for them), not for the
// host's own terminal. A driver may restart the app-server for everyone
// (Options.Restart).
func (ps *Server) newModel(name string, role hub.Role, guest bool) *model.Model {
	return ps.modelOf(role, guest, ps.restartFor(FirstLane, name, role))
}

// restartFor is lane id's model.Options.Restart for viewer name: drivers
// may restart the app-server for everyone and rejoin the lane's thread
// (nil for watchers, or without Options.Restart — Options.RestartLane
// past the first lane).
func (ps *Server) restartFor(id deck.LaneID, name string, role hub.Role) func(string) (model.RestartInfo, error) {
	if role != hub.Driver || (id == FirstLane && ps.restartFn == nil) || (id != FirstLane && ps.laneFn == nil) {
		return nil
	}
	return func(lastTurn string) (model.RestartInfo, error) { return ps.restartLane(id, name, lastTurn) }
}

// modelOf is one lane's model for a viewer of role (see newModel).
func (ps *Server) modelOf(role hub.Role, guest bool, restart func(string) (model.RestartInfo, error)) *model.Model {
	return model.New(model.Options{
		Restart:  restart,
		Dark:     true,
		NoColor:  os.Getenv("NO_COLOR") != "",
		Status:   ps.status,
		ReadOnly: role == hub.Watcher,
		Shared:   true,
		Guest:    guest,
		// The host's own view may run inline; a guest's terminal is
		// theirs, and it keeps the alternate screen.
		NoAltScreen: !guest && ps.hostInline,
		Keys:        ps.keyMap,
	})
}
