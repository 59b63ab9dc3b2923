package model

import (
	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
	"tandem/model/overlay"
	"tandem/thread"
)

// The overlay (model/overlay) is the server requests' queue and forms,
// the pickers and the login form. The root builds it, asks it first for
// keys (keys.go), draws what it returns (view.go), and carries out its
// intents (applyOverlay).

// newOverlay builds m's overlay.
func newOverlay(m *Model) *overlay.Overlay {
	return overlay.New(m.env, overlay.Options{Keys: m.keys, Grace: m.opts.FormGrace, Quiet: m.opts.FormQuiet,
		Now: m.opts.Now, Workspace: m.opts.Workspace, World: overlayWorld{m}})
}

// overlayWorld is what the overlay reads of the model (overlay.World).
type overlayWorld struct{ m *Model }

// Room: a form lies above the rule, the composer and the status line.
func (w overlayWorld) Room() overlay.Room {
	m := w.m
	return overlay.Room{Width: max(20, m.width), Height: m.height, Below: m.composer.Height() + 2}
}
func (w overlayWorld) Draft() string                    { return w.m.composer.Value() }
func (w overlayWorld) ThreadOf(id string) *thread.State { return w.m.panes.ThreadOf(id) }
func (w overlayWorld) ThreadCwd() string                { return w.m.panes.Cwd() }
func (w overlayWorld) AskerOf(id string) string         { return w.m.panes.AskerOf(id) }
func (w overlayWorld) Drivers() string                  { return w.m.stat.Drivers() }

// applyOverlay carries out an intent of the overlay's (act's
// intents_overlay.go); ok is false for any other.
func (m *Model) applyOverlay(i act.Intent) (cmd tea.Cmd, ok bool) {
	switch i := i.(type) {
	case act.Pick:
		m.overlay.Pick(i) // model/overlay
	case act.ShowAgent:
		m.panes.ShowAgent(i.ID)
	case act.Quit:
		return m.Quit(), true
	case act.RequestNotify:
		return m.stat.RequestWaits(i.Summary, m.stat.Label(m.panes.Name(), m.panes.Thread()), m.live()), true // model/status
	case act.Follow:
		m.panes.Follow()
	default:
		return nil, false
	}
	return nil, true
}

// syncAwaiting labels a command cell "awaiting approval" while its
// `item/commandExecution/requestApproval` is pending and unanswered, and
// drops the label once it is answered, resolved or dropped. It runs after
// every Update; the overlay holds at most a few requests.
func (m *Model) syncAwaiting() {
	var items []*thread.Item
	for _, r := range m.overlay.Awaiting() {
		if it := m.panes.Thread().Find(r.Turn, r.Item); it != nil {
			items = append(items, it)
		}
	}
	m.panes.Awaiting(items) // model/transcript
}
