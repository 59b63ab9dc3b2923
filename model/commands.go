package model

import (
	"tandem/model/commands"
	"tandem/thread"
)

// The slash commands (model/commands) are the table, Enter on a draft
// that reads as a command, /stop's question and each command's handler.
// The root builds them, hands them Enter on the draft (apply.go: act.Submit),
// the keys while a question waits (keys.go) and the answers to their
// calls (model.go), draws the question (view.go), and carries out the
// intents no component takes (apply.go). What they ask of the turn
// machine (a thread, a turn, /goal, /plan, /stop) model/turn takes.

// newCommands builds m's slash commands.
func newCommands(m *Model) *commands.Commands {
	return commands.New(m.env, commands.Options{Keys: m.keys, Grace: m.opts.FormGrace, Quiet: m.opts.FormQuiet,
		Workspace: m.opts.Workspace, Suspend: m.opts.Suspend, FindThreads: m.opts.FindThreads, World: commandsWorld{m}})
}

// commandsWorld is what the slash commands read of the model
// (commands.World).
type commandsWorld struct{ m *Model }

func (w commandsWorld) Turn() commands.Turn {
	t := w.m.turn
	return commands.Turn{Running: t.Running(), Busy: t.Busy(), Switching: t.Switching(), Seq: t.Seq()}
}

func (w commandsWorld) Server() commands.Server {
	t := w.m.turn
	s := commands.Server{Online: t.Client() != nil, Durable: t.Durable(), Detached: t.Detached()}
	if c := t.Client(); c != nil {
		s.Ready = t.Ready()
		s.ThreadID, s.Version = c.ThreadID(), serverVersion(c.UserAgent())
	}
	return s
}

func (w commandsWorld) Status() commands.Status {
	return commands.Status{Info: w.m.statusInfo(), Next: w.m.turn.TurnOptions(), Effort: w.m.turn.Effort()}
}

func (w commandsWorld) Draft() string          { return w.m.composer.Value() }
func (w commandsWorld) Expand(s string) string { return w.m.composer.Expand(s) }
func (w commandsWorld) Covered() bool {
	m := w.m
	return m.overlay.HasKeys() || m.panes.PagerOpen() || m.overlay.Open()
}
func (w commandsWorld) FormShown() bool  { return w.m.overlay.HasForm() }
func (w commandsWorld) AgentShown() bool { return w.m.panes.AgentShown() }
func (w commandsWorld) Agents() []commands.Agent {
	if !w.m.panes.HasAgents() {
		return nil
	}
	var out []commands.Agent
	for _, a := range w.m.panes.Agents() { // with "back to the thread" while one is shown
		out = append(out, commands.Agent{ID: a.ID, Name: a.Name, Detail: a.Detail})
	}
	return out
}
func (w commandsWorld) ThreadCwd() string             { return w.m.panes.Cwd() }
func (w commandsWorld) Diff() string                  { return w.m.panes.Thread().Diff }
func (w commandsWorld) LastAnswer() string            { return w.m.panes.LastAnswer() }
func (w commandsWorld) McpStartup() map[string]string { return w.m.stat.McpStartup() }
func (w commandsWorld) UndoBlocked() string           { return w.m.rewind.UndoBlocked() } // model/rewind

// Recap lists the thread's turns from its fold, each with the user's
// message that began it, and the turn newest when it opened (panes).
func (w commandsWorld) Recap() commands.Recap {
	r := commands.Recap{OpenedAt: w.m.panes.OpenedAt()}
	at := map[string]int{} // turn id → its index in r.Turns
	for _, it := range w.m.panes.Thread().Items() {
		id := it.Key.Turn
		if id == "" {
			continue
		}
		i, ok := at[id]
		if !ok {
			i, at[id] = len(r.Turns), len(r.Turns)
			r.Turns = append(r.Turns, commands.TurnRef{ID: id})
		}
		if t := &r.Turns[i]; it.Kind == thread.User && t.Prompt == "" {
			t.Prompt = it.Text()
		}
	}
	return r
}
