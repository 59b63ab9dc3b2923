package model

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/hub"
)

// A shared session's transcript says who did what (#17).
func TestSharedTranscriptNamesTheDriver(t *testing.T) {
	user := func(id, text string) backend.Event {
		e := backend.ItemCompletedEvent{Item: backend.Item{Type: "userMessage", ID: id, Content: []backend.UserContent{{Type: "text", Text: text}}}}
		e.TurnID = "turn-1"
		return e
	}
	tests := []struct {
		name string
		msgs []tea.Msg
		want []string
		not  []string
	}{
		{"a prompt takes its driver's name",
			[]tea.Msg{hub.ActionEvent{Who: "alice", Text: "fix the build"}, user("u1", "fix the build")},
			[]string{"▌ alice\n▌ fix the build"}, nil},
		{"two drivers at once, each named",
			[]tea.Msg{hub.ActionEvent{Who: "alice", Text: "one"}, hub.ActionEvent{Who: "bob", Text: "two"}, user("u2", "two"), user("u1", "one")},
			[]string{"▌ bob\n▌ two", "▌ alice\n▌ one"}, nil},
		{"a message nobody is noted for has no name",
			[]tea.Msg{hub.ActionEvent{Who: "alice", Text: "other"}, user("u1", "typed in codex's TUI")},
			[]string{"▌ typed in codex's TUI"}, []string{"alice"}},
		{"an interrupt",
			[]tea.Msg{hub.ActionEvent{Who: "carol", Kind: hub.ActionInterrupt}},
			[]string{"carol interrupted the turn"}, nil},
		{"a !command",
			[]tea.Msg{hub.ActionEvent{Who: "dan", Text: "!ls"}},
			[]string{"dan ran !ls"}, nil},
		{"an answer",
			[]tea.Msg{backend.RequestResolvedEvent{RequestID: backend.RequestID("7"), By: "erin", Method: backend.MethodFileChangeApproval, Answer: "declined"}},
			[]string{"erin declined the file change"}, nil},
		{"the server's own resolution names nobody",
			[]tea.Msg{backend.RequestResolvedEvent{RequestID: backend.RequestID("7")}},
			nil, []string{"the request"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(Options{NoColor: true, Shared: true})
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 30})
			m.Update(SessionReadyMsg{Client: newFake(), Model: "mock-model"})
			for _, msg := range tt.msgs {
				m.Update(msg)
			}
			v := viewText(m)
			for _, w := range tt.want {
				if !strings.Contains(squashRight(v), w) {
					t.Errorf("missing %q in\n%s", w, v)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(v, n) {
					t.Errorf("has %q:\n%s", n, v)
				}
			}
		})
	}
}

// squashRight drops trailing spaces of every line.
func squashRight(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
