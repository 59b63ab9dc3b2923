package model

import (
	"tandem/backend"
	"tandem/model/act"
	"tandem/model/composer"
	"tandem/model/turn"
)

// The turn machine (model/turn) is the session's client, the turns, the
// thread's lifecycle and recovery. The root builds it, routes to it the
// events about turns (events.go), its results and timers (model.go), and
// the intents others ask of it (apply.go), and reads it (Running,
// Queued, …).

// newTurns builds m's turn machine.
func newTurns(m *Model) *turn.Turns {
	return turn.New(m.env, turn.Options{Prompt: m.opts.Prompt, Model: m.opts.Status.Model, State: m.opts.State,
		Workspace: m.opts.Workspace, Restart: m.opts.Restart, TurnTimeout: m.opts.TurnTimeout, UnresponsiveAfter: m.opts.UnresponsiveAfter, Now: m.opts.Now,
		Keys: m.keys, World: turnWorld{m}})
}

// turnWorld is what the turn machine reads of the model (turn.World).
type turnWorld struct{ m *Model }

func (w turnWorld) Draft() string                     { return w.m.composer.Value() }
func (w turnWorld) HasImage(s string) bool            { return w.m.composer.HasImage(s) }
func (w turnWorld) Expand(s string) string            { return w.m.composer.Expand(s) }
func (w turnWorld) HistEntry(raw, text string) string { return w.m.composer.HistEntry(raw, text) }
func (w turnWorld) LargeAsPaste(s string) string      { return w.m.composer.LargeAsPaste(s) }
func (w turnWorld) ThreadCwd() string                 { return w.m.panes.Cwd() }
func (w turnWorld) LastTurn() string                  { return w.m.panes.Thread().LastTurn() }
func (w turnWorld) AgentShown() bool                  { return w.m.panes.AgentShown() }
func (w turnWorld) Inline() bool                      { return w.m.panes.Inline() }
func (w turnWorld) EmptyTranscript() bool             { return w.m.panes.Empty() }
func (w turnWorld) Peer() string                      { return w.m.stat.Info().Peer }
func (w turnWorld) RewindPending() bool               { return w.m.rewind.Pending() }

func (w turnWorld) Submission() act.Submit { return w.m.composer.Submission() }

func (w turnWorld) SkillRefs(text string) []backend.SkillRef { return w.m.composer.SkillRefs(text) }

func (w turnWorld) Resolve(s string) (string, []turn.Image) {
	text, ims := w.m.composer.Resolve(s)
	return text, turnImages(ims)
}

func (w turnWorld) StripImages(s string) (string, []turn.Image) {
	text, ims := w.m.composer.StripImages(s)
	return text, turnImages(ims)
}

// turnImages are the composer's images as the turn machine sends them.
func turnImages(ims []composer.Image) []turn.Image {
	var out []turn.Image
	for _, im := range ims {
		out = append(out, turn.Image{Local: im.Local, Server: im.Server, Shown: im.Shown})
	}
	return out
}
