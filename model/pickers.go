package model

import (
	"strings"

	"tandem/model/act"
)

// The history search (Ctrl+R) as the root opens it in the overlay's
// picker (model/overlay).

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
