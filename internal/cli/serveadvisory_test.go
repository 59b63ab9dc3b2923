package cli

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/sessions"
)

// TestServeShowsAnAdvisoryOncePerMachine: codex's bubblewrap note, which
// it repeats at every start, reaches the shared session the first time
// only (as in the chat); other warnings always do.
func TestServeShowsAnAdvisoryOncePerMachine(t *testing.T) {
	st := sessions.Open(t.TempDir())
	bwrap := backend.WarningEvent{Message: "Codex could not find bubblewrap on PATH. Codex will use the bundled bubblewrap in the meantime."}
	other := backend.WarningEvent{Message: "the config has an unknown key"}
	if !bwrap.Advisory() || other.Advisory() {
		t.Fatalf("Advisory: bubblewrap %v, other %v", bwrap.Advisory(), other.Advisory())
	}
	var got []tea.Msg
	for start := 0; start < 3; start++ { // three serve sessions on one machine
		send := onceAdvisories(st, func(m tea.Msg) { got = append(got, m) })
		send(bwrap)
		send(other)
	}
	var n, m int
	for _, g := range got {
		switch g {
		case tea.Msg(bwrap):
			n++
		case tea.Msg(other):
			m++
		}
	}
	if n != 1 || m != 3 {
		t.Fatalf("published the bubblewrap note %d times (want 1), the other warning %d (want 3)", n, m)
	}
}
