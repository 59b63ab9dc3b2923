package model

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/ui"
)

// The thread's goal: /goal TEXT sets it (`thread/goal/set`), /goal shows
// it (`thread/goal/get`), /goal clear clears it (`thread/goal/clear`);
// `thread/goal/updated` and `thread/goal/cleared` keep the status line's
// goal and its status current, whoever changed it (the agent marks it
// complete).

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

// goalResultMsg is the outcome of a /goal command: the banner, and the
// goal it leaves (nil: none), unless err says it failed.
type goalResultMsg struct {
	title string
	lines []string
	err   error
	goal  *backend.ThreadGoal
}

// goalUsage is /goal's usage line.
const goalUsage = "/goal shows the thread's goal · /goal TEXT sets it · /goal clear clears it"

// parseGoal splits /goal's arguments: "" shows the goal, "clear" clears
// it, anything else is the objective to set.
func parseGoal(args string) (action, objective string) {
	args = strings.TrimSpace(args)
	switch strings.ToLower(args) {
	case "":
		return "show", ""
	case "clear":
		return "clear", ""
	}
	return "set", args
}

// cmdGoal is /goal [TEXT | clear].
func (m *Model) cmdGoal(args string) tea.Cmd {
	c, ok := m.needClient("goal")
	if !ok {
		return nil
	}
	if c.ThreadID() == "" {
		m.setNotice(noticeInfo, "/goal needs an open thread")
		return nil
	}
	action, objective := parseGoal(args)
	return callCmd(func(ctx context.Context) tea.Msg {
		switch action {
		case "clear":
			cleared, err := c.ClearGoal(ctx)
			if err != nil {
				return goalResultMsg{err: err} // backend names the method
			}
			if !cleared {
				return goalResultMsg{title: "No goal to clear"}
			}
			return goalResultMsg{title: "Goal cleared"}
		case "set":
			g, err := c.SetGoal(ctx, objective)
			if err != nil {
				return goalResultMsg{err: err} // backend names the method
			}
			return goalResultMsg{title: "Goal set: " + g.Objective, goal: &g,
				lines: []string{"codex works towards it across turns until it is complete; /goal shows it, /goal clear clears it"}}
		}
		g, err := c.ReadGoal(ctx)
		if err != nil {
			return goalResultMsg{err: err} // backend names the method
		}
		if g == nil {
			return goalResultMsg{title: "No goal for this thread", lines: []string{goalUsage}}
		}
		return goalResultMsg{title: "Goal: " + g.Objective, lines: goalLines(*g), goal: g}
	})
}

// goalLines are /goal's details of g.
func goalLines(g backend.ThreadGoal) []string {
	used := fmt.Sprintf("used:    %d tokens", g.TokensUsed)
	if g.TokenBudget != nil {
		used += fmt.Sprintf(" of a budget of %d", *g.TokenBudget)
	}
	used += ", " + ui.FormatDuration(time.Duration(g.TimeUsedSeconds)*time.Second)
	return []string{"status:  " + g.Status, used}
}

func (m *Model) onGoalResult(msg goalResultMsg) {
	if msg.err != nil {
		line := oneLine(msg.err)
		if backend.Unsupported(msg.err) { // said plainly, the server's words after
			first, _, _ := strings.Cut(msg.err.Error(), "\n")
			line = "goals are not available on this server (" + first + ")"
		}
		m.banner(ui.BannerError, "/goal: "+ui.SanitizeLine(line), nil)
		return
	}
	m.setGoal(msg.goal)
	m.banner(ui.BannerInfo, ui.SanitizeLine(msg.title), msg.lines)
	m.panes.Follow()
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
