package teatest

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

// The `/` popup above the composer: every command with its description.
func TestGoldenSlashPopup(t *testing.T) {
	u := newScreen(t)
	u.TM.Type("/")
	golden(t, u, "more · tab completes")
}

// Typing filters the popup fuzzily.
func TestGoldenSlashPopupFiltered(t *testing.T) {
	u := newScreen(t)
	// Three keys at once are a paste burst: Type waits for its end.
	u.Type("/re")
	golden(t, u, "› /re ") // the composer line: the filter has seen all of "/re"
}

// Enter on a prefix runs nothing: the draft and the popup stay, and the
// status line names the commands it matches.
func TestGoldenSlashPrefixRefused(t *testing.T) {
	u := newScreen(t)
	u.Type("/st")
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	golden(t, u, "type the whole name, or Tab to complete")
}

// /stop during a turn asks first, above the composer; the draft stays.
func TestGoldenStopAsksMidTurn(t *testing.T) {
	u := newScreen(t)
	u.Submit("go on")
	for _, ev := range turnEvents(backend.Item{ID: "msg-1"}, []string{"Working on it."}) {
		u.TM.Send(ev)
	}
	u.Type("/stop")
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	golden(t, u, "Enter again to confirm")
}
