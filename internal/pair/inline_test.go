package pair

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/hub"
)

// serve --attach --no-alt-screen runs the host's own view inline; an SSH
// guest's view keeps the alternate screen whatever the host chose, and
// without the flag the host's does too.
func TestHostViewInlineGuestsAltScreen(t *testing.T) {
	tests := []struct {
		name   string
		inline bool // Options.HostNoAltScreen
		guest  bool
		alt    bool
	}{
		{"host, --no-alt-screen", true, false, false},
		{"guest of a --no-alt-screen host", true, true, true},
		{"host, default", false, false, true},
		{"guest, default", false, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(Options{HostNoAltScreen: tt.inline}).newModel("host", hub.Driver, tt.guest)
			defer m.Close()
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
			if got := m.View().AltScreen; got != tt.alt {
				t.Errorf("alt screen %v, want %v", got, tt.alt)
			}
		})
	}
}
