package model

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
)

// /goal [TEXT | clear]: the command's parsing; the goal's calls and the
// status line's goal are the turn machine's (model/turn: act.Goal).

// parseGoal splits /goal's arguments: "" shows the goal, "clear" clears
// it, anything else is the objective to set.
func parseGoal(args string) (action, objective string) {
	args = strings.TrimSpace(args)
	switch strings.ToLower(args) {
	case "":
		return act.GoalShow, ""
	case "clear":
		return act.GoalClear, ""
	}
	return act.GoalSet, args
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
	m.out.Want(act.Goal{Action: action, Objective: objective})
	return nil
}
