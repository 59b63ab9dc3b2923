package teatest

import "testing"

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
