package turn

import (
	"slices"
	"testing"

	"tandem/backend"
	"tandem/model/act"
	"tandem/sessions"
)

// codex's "could not find bubblewrap" comes at every start; it is shown
// once per machine (the state directory), while any other server-wide
// warning is shown at each start. Without a state store it is shown.
func TestAdvisoryWarningOncePerMachine(t *testing.T) {
	bwrap := backend.WarningEvent{Message: "Codex could not find bubblewrap on PATH. Install bubblewrap with your OS package manager. Codex will use the bundled bubblewrap in the meantime."}
	other := backend.WarningEvent{Message: "unknown config key foo"}
	dir := t.TempDir()
	runs := []struct {
		name  string
		state *sessions.Store
		want  []string
	}{
		{"first run", sessions.Open(dir), []string{bwrap.Message, other.Message}},
		{"second run", sessions.Open(dir), []string{other.Message}},
		{"third run", sessions.Open(dir), []string{other.Message}},
		{"no state", nil, []string{bwrap.Message, other.Message}},
	}
	for _, run := range runs {
		r := ready(t, act.Role{}, Options{State: run.state})
		r.tt.OnEvent(bwrap)
		r.tt.OnEvent(other)
		if got := banners(r.take()); !slices.Equal(got, run.want) {
			t.Errorf("%s: banners %q, want %q", run.name, got, run.want)
		}
	}
}
