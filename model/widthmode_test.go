package model

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
)

// The transcript measures text as the renderer will: code point by code
// point until the terminal reports Unicode core mode (2027), by cluster
// from then on. An answer line with 👩‍💻 that fits by cluster but not as
// a terminal without the mode draws it (48 cells in 40) is wrapped there,
// and not once the mode is reported.
func TestTranscriptMeasuresAsTheRenderer(t *testing.T) {
	text := strings.Repeat("👩‍💻", 12) + " end"
	cases := []struct {
		name     string
		report   bool
		oneLine  bool // the answer is drawn on one row
		maxWidth func(string) int
	}{
		{"no mode 2027 (tmux, xterm)", false, false, ansi.StringWidthWc},
		{"mode 2027 reported", true, true, ansi.StringWidth},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := New(Options{NoColor: true})
			m.Update(tea.WindowSizeMsg{Width: 40, Height: 20})
			if tc.report {
				m.Update(tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeReset})
			}
			m.Update(SessionReadyMsg{Client: nopDriver{}, Model: "mock-model"})
			m.Update(backend.ItemCompletedEvent{Item: backend.Item{Type: "agentMessage", ID: "a", Text: text}})
			screen := m.View().Content
			rows := 0
			for _, l := range strings.Split(screen, "\n") {
				if w := tc.maxWidth(l); w > 40 {
					t.Errorf("a row %d cells wide as drawn: %q", w, ansi.Strip(l))
				}
				if strings.Contains(l, "👩‍💻") {
					rows++
				}
			}
			if one := rows == 1; one != tc.oneLine {
				t.Errorf("the answer on one row: %v, want %v:\n%s", one, tc.oneLine, ansi.Strip(screen))
			}
		})
	}
}
