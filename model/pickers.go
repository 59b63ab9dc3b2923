package model

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
)

// The slash commands that open the overlay's pickers (model/overlay):
// /model, /approvals and /resume, and what their choices set.

// cmdModel lists the models (`model/list`) and, once one is chosen, its
// reasoning efforts; the choice (act.SetModel) applies from the next
// turn (turn/start model and effort).
func (m *Model) cmdModel(string) tea.Cmd {
	if _, ok := m.needClient("model"); !ok {
		return nil
	}
	current := m.stat.Info().Model
	if m.turn.TurnOptions().Model != "" {
		current = m.turn.TurnOptions().Model
	}
	m.overlay.PickModel(current)
	return nil
}

// cmdApprovals picks an approval policy and sandbox; they apply from the
// next turn (turn/start approvalPolicy and sandboxPolicy).
func (m *Model) cmdApprovals(string) tea.Cmd {
	info := m.stat.Info()
	m.overlay.PickPolicy(info.Approval, info.Sandbox)
	return nil
}

func (m *Model) cmdResume(string) tea.Cmd {
	if _, ok := m.needClient("resume"); !ok {
		return nil
	}
	return m.openResumePicker(false)
}

// openResumePicker opens the overlay's thread picker (model/overlay);
// fresh means no thread is open yet: Esc then starts a new one.
func (m *Model) openResumePicker(fresh bool) tea.Cmd {
	if m.turn.Client() == nil {
		return nil
	}
	m.overlay.PickThread(fresh, m.turn.Durable())
	return nil
}

// openHistorySearch opens Ctrl+R (act.HistorySearch, the composer's): a
// fuzzy search over the workspace's history, newest first, from the
// draft; Enter puts the entry in the composer (act.SetDraft).
func (m *Model) openHistorySearch(h act.HistorySearch) {
	items := make([]act.PickItem, 0, len(h.Entries))
	for i := len(h.Entries) - 1; i >= 0; i-- {
		items = append(items, act.PickItem{Label: strings.ReplaceAll(h.Entries[i], "\n", " ⏎ "), Choose: act.SetDraft{Text: h.Entries[i]}})
	}
	m.out.Want(act.Pick{Title: "History", Hint: "type to search · enter to use · esc to close",
		Empty: "no history in this workspace yet", Query: h.Query, Items: items})
}
