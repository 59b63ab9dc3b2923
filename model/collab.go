package model

import (
	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
)

// cmdPlan is /plan: plan mode on, or off again (model/turn: the
// collaboration modes).
func (m *Model) cmdPlan(string) tea.Cmd {
	m.out.Want(act.SwitchMode{Plan: true})
	return nil
}
