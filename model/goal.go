package model

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/ui"
)

// The thread's goal: /goal (model/commands) sets, shows and clears it
// and hands the answer here (act.SetGoal); `thread/goal/updated` and
// `thread/goal/cleared` keep the status line's goal and its status
// current, whoever changed it (the agent marks it complete).

// goalState is the open thread's goal as last heard of.
type goalState struct {
	goal *backend.ThreadGoal
}

// goalLoadedMsg is the `thread/goal/get` answer for thread, asked when
// the thread opened; its errors are not shown (a server without goals).
type goalLoadedMsg struct {
	thread string
	goal   *backend.ThreadGoal
	err    error
}

// fetchGoal asks for the open thread's goal (the status line's); nil
// without a client or thread.
func (m *Model) fetchGoal() tea.Cmd {
	c := m.client
	if c == nil || !m.ready || c.ThreadID() == "" {
		return nil
	}
	id := c.ThreadID()
	return callCmd(func(ctx context.Context) tea.Msg {
		g, err := c.ReadGoal(ctx)
		return goalLoadedMsg{thread: id, goal: g, err: err}
	})
}

func (m *Model) onGoalLoaded(msg goalLoadedMsg) {
	if msg.err != nil || m.client == nil || m.client.ThreadID() != msg.thread {
		return // a server without goals, or a thread left meanwhile
	}
	m.setGoal(msg.goal)
}

// onGoalEvent follows `thread/goal/updated` and `thread/goal/cleared`. A
// goal that stops being active (complete, blocked, a limit reached) says
// so once.
func (m *Model) onGoalEvent(ev backend.Event) {
	switch e := ev.(type) {
	case backend.GoalUpdatedEvent:
		prev := m.goal.goal
		g := e.Goal
		if g.Status != backend.GoalActive && (prev == nil || prev.Status != g.Status || prev.Objective != g.Objective) {
			m.banner(ui.BannerInfo, "Goal "+goalStatusWords(g.Status)+": "+ui.SanitizeLine(g.Objective), nil)
		}
		m.setGoal(&g)
	case backend.GoalClearedEvent:
		m.setGoal(nil)
	}
}

// goalStatusWords says a goal status in words: "budgetLimited" is
// "stopped at its token budget".
func goalStatusWords(status string) string {
	switch status {
	case backend.GoalComplete:
		return "complete"
	case backend.GoalBudgetLimited:
		return "stopped at its token budget"
	case backend.GoalUsageLimited:
		return "stopped at the usage limit"
	}
	return status
}

// setGoal makes g the thread's goal (nil: none) and the status line's.
func (m *Model) setGoal(g *backend.ThreadGoal) {
	m.goal.goal = g
	goal, status := "", ""
	if g != nil {
		goal, status = g.Objective, g.Status
	}
	m.stat.Apply(act.Settings{Goal: &goal, GoalStatus: &status})
}

// threadExtras is what a thread (newly) open asks for: its goal, and the
// skills of its workspace. The goal of the thread left is forgotten.
func (m *Model) threadExtras() tea.Cmd {
	m.setGoal(nil)
	m.composer.FetchSkills(false) // model/composer: the $ popup's
	return m.fetchGoal()
}
