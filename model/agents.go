package model

import (
	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
)

// agentSafe are the slash commands that may run while a sub-agent is
// shown: the others act on the thread, so they wait for Esc.
var agentSafe = map[string]bool{"agents": true, "help": true, "quit": true, "copy": true, "status": true}

// cmdAgents is /agents: the sub-agents, live and finished; Enter shows
// one (model/transcript), "back to the thread" returns.
func (m *Model) cmdAgents(string) tea.Cmd {
	m.openAgentsPicker()
	return nil
}

func (m *Model) openAgentsPicker() {
	if m.overlay.HasForm() {
		// The form has the keys: the list would look open while they
		// answered the request.
		m.setNotice(noticeInfo, "a request is waiting — answer it first (ctrl+t shows all of it)")
		return
	}
	if !m.panes.HasAgents() {
		m.setNotice(noticeInfo, "no sub-agents in this thread yet")
		return
	}
	var items []act.PickItem
	for _, a := range m.panes.Agents() {
		items = append(items, act.PickItem{Label: a.Name, Detail: a.Detail, Choose: act.ShowAgent{ID: a.ID}})
	}
	m.out.Want(act.Pick{Title: "Sub-agents", Hint: "enter to open · esc to close", Items: items})
}
