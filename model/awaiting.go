package model

import (
	"strconv"

	"tandem/backend"
	"tandem/ui"
)

// syncAwaiting labels a command cell "awaiting approval" while its
// `item/commandExecution/requestApproval` is pending and unanswered, and
// drops the label once it is answered, resolved or dropped. It runs after
// every Update; pending holds at most a few requests.
func (m *Model) syncAwaiting() {
	var want map[string]bool
	for _, r := range m.pending {
		if ca, ok := r.(*backend.CommandApprovalRequest); ok && !ca.Answered() && ca.Params.ItemID != "" {
			if want == nil {
				want = map[string]bool{}
			}
			want[ca.Params.ItemID] = true
		}
	}
	for id, c := range m.awaiting {
		if !want[id] || m.items[id] != ui.Cell(c) {
			c.SetAwaitingApproval(false)
			delete(m.awaiting, id)
		}
	}
	for id := range want {
		c, ok := m.items[id].(*ui.CommandCell)
		if !ok || m.awaiting[id] == c {
			continue
		}
		c.SetAwaitingApproval(true)
		if m.awaiting == nil {
			m.awaiting = map[string]*ui.CommandCell{}
		}
		m.awaiting[id] = c
	}
}

// elicitationUnknownText words the notice for an elicitation tandem cannot
// show: one of an unknown mode, or one missing its server name or mode.
func elicitationUnknownText(server, mode string) string {
	who := server
	if who == "" {
		who = "an MCP server (unnamed)"
	}
	if mode == "" {
		return who + " sent an elicitation without a mode; declined"
	}
	return who + " sent an elicitation of unknown mode " + strconv.Quote(mode) + "; declined"
}
