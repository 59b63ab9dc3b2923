package model

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
)

// The overlay's pickers (model/overlay) as the root opens them and takes
// their choices: /model's choice (act.SetModel), the resume picker, the
// history search.

// setModel makes model and effort the overrides for the next turns.
func (m *Model) setModel(model, effort string) {
	m.turn.overrides.Model, m.turn.overrides.Effort = model, effort
	m.stat.Apply(act.Settings{Model: &model})
	if effort != "" {
		m.turn.effort = effort
	}
	m.setNotice(noticeInfo, "model "+model+effortSuffix(effort)+" from the next turn")
}

func effortSuffix(e string) string {
	if e == "" {
		return ""
	}
	return " (" + e + ")"
}

// openResumePicker opens the overlay's thread picker (model/overlay);
// fresh means no thread is open yet: Esc then starts a new one.
func (m *Model) openResumePicker(fresh bool) tea.Cmd {
	if m.client == nil {
		return nil
	}
	m.overlay.PickThread(fresh, m.detach.durable)
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
