package model

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/model/commands"
)

// The slash commands (model/commands) are the table, Enter on a draft
// that reads as a command, /stop's question and each command's handler.
// The root builds them, hands them Enter on the draft (turn.go), the keys
// while a question waits (keys.go) and the answers to their calls
// (model.go), draws the question (view.go), and carries out their intents
// (applyCommands).

// newCommands builds m's slash commands.
func newCommands(m *Model) *commands.Commands {
	env := m.env
	env.Clock = graceClock(m.opts.GraceNow) // a question's grace is a form's
	return commands.New(env, commands.Options{Keys: m.keys, Grace: m.opts.FormGrace, Quiet: m.opts.FormQuiet,
		Workspace: m.opts.Workspace, World: commandsWorld{m}})
}

// commandsWorld is what the slash commands read of the model
// (commands.World).
type commandsWorld struct{ m *Model }

func (w commandsWorld) Turn() commands.Turn {
	t := &w.m.turn
	return commands.Turn{Running: t.running, Busy: t.busy(), Switching: t.switching, Seq: t.seq}
}

func (w commandsWorld) Server() commands.Server {
	m := w.m
	s := commands.Server{Online: m.client != nil, Durable: m.detach.durable, Detached: m.detach.detached}
	if c := m.client; c != nil {
		s.Ready = m.ready
		s.ThreadID, s.Version = c.ThreadID(), serverVersion(c.UserAgent())
	}
	return s
}

func (w commandsWorld) Status() commands.Status {
	return commands.Status{Info: w.m.statusInfo(), Next: w.m.turn.overrides, Effort: w.m.turn.effort}
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

// UndoBlocked: a rewind's reasons (rewind.go), or no turn to take back.
func (w commandsWorld) UndoBlocked() string {
	if why := w.m.rewindBlocked(); why != "" {
		return why
	}
	if len(w.m.turns()) == 0 {
		return "no turn to undo"
	}
	return ""
}

// applyCommands carries out an intent of the slash commands' (act's
// intents_commands.go); ok is false for any other. Each goes to the root
// code that does the work until its component takes it.
func (m *Model) applyCommands(i act.Intent) (cmd tea.Cmd, ok bool) {
	c := m.client
	switch i := i.(type) {
	// The commands that ask for these need a client: c is set.
	case act.NewThread:
		if c != nil {
			m.turn.switching = true
			return newThreadCmd(c, ""), true // threads.go
		}
	case act.ForkThread:
		if c != nil {
			m.turn.switching = true
			return forkCmd(c, c.ThreadID()), true // threads.go
		}
	case act.ArchiveThread:
		if c != nil {
			m.turn.switching = true
			return archiveCmd(c), true
		}
	case act.StartReview:
		if c != nil {
			m.beginTurn() // turn.go
			return tea.Batch(reviewCmd(c), m.startTick(), m.stat.SpinTick), true
		}
	case act.SendPrompt:
		return m.submitShown(i.Shown, i.Text), true // turn.go
	case act.Stop:
		return m.stopTurn(), true // leave.go
	case act.Restart:
		return m.restartServer(), true // recovery.go
	case act.SetGoal:
		m.setGoal(i.Goal) // goal.go
	case act.TogglePlan:
		return m.switchCollab("plan"), true // collab.go
	case act.Undo:
		if turns := m.turns(); len(turns) > 0 { // rewind.go
			m.chooseRewind(turns, len(turns)-1, true)
		}
	case act.PickModel:
		m.overlay.PickModel(i.Current) // model/overlay
	case act.PickPolicy:
		m.overlay.PickPolicy(i.Approval, i.Sandbox)
	case act.PickThread:
		return m.openResumePicker(false), true // pickers.go
	case act.CheckAccount:
		m.overlay.CheckAccount()
	case act.Echo:
		m.panes.Echo(i.Cell) // model/transcript
	case act.ClosePopup:
		m.composer.ClosePopup() // model/composer
	case act.ReopenPopup:
		m.composer.ReopenPopup()
	default:
		return nil, false
	}
	return nil, true
}

// archiveCmd archives the open thread and starts a new one (/archive).
func archiveCmd(c backend.Client) tea.Cmd {
	id := c.ThreadID()
	return callCmd(func(ctx context.Context) tea.Msg {
		if err := c.ArchiveThread(ctx); err != nil {
			return threadSwitchedMsg{err: fmt.Errorf("thread/archive: %w", err)}
		}
		resp, err := c.StartThread(ctx)
		return threadSwitchedMsg{resp: resp, how: "new", notice: "Archived thread " + shortID(id) + "; this is a new thread", err: err}
	})
}

// reviewCmd starts a review of the uncommitted changes (/review) as a
// turn; its answer is the turn's start.
func reviewCmd(c backend.Client) tea.Cmd {
	return callCmd(func(ctx context.Context) tea.Msg {
		err := c.Review(ctx, backend.ReviewTarget{Type: "uncommittedChanges"})
		if err != nil {
			err = fmt.Errorf("review/start: %w", err)
		}
		return turnStartResult{err: err}
	})
}
