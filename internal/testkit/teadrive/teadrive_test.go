package teadrive

import (
	"testing"
	"time"

	"charm.land/bubbles/v2/cursor"
	tea "charm.land/bubbletea/v2"
)

type slowMsg struct{}

// A command slower than wait (a loaded machine) is waited for and its
// message delivered; a timer that does not fire within wait (an hour's
// tick, a cursor blink) is abandoned, so Drive returns.
func TestDriveWaitsForCommandsNotTimers(t *testing.T) {
	c := cursor.New()
	c.SetMode(cursor.CursorBlink)
	slow := func() tea.Msg { time.Sleep(50 * time.Millisecond); return slowMsg{} }
	var got []tea.Msg
	update := func(msg tea.Msg) tea.Cmd { got = append(got, msg); return nil }
	tick := tea.Tick(time.Hour, func(time.Time) tea.Msg { return "tick" })
	if err := Drive(update, time.Millisecond, nil, tick, c.Blink(), slow); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != (slowMsg{}) {
		t.Fatalf("delivered %v; want the slow command's message only", got)
	}
}

func TestIsTimer(t *testing.T) {
	c := cursor.New()
	c.SetMode(cursor.CursorBlink)
	tests := []struct {
		name string
		cmd  tea.Cmd
		want bool
	}{
		{"tea.Tick", tea.Tick(time.Second, nil), true},
		{"tea.Every", tea.Every(time.Second, nil), true},
		{"cursor blink", c.Blink(), true},
		{"a command", func() tea.Msg { return nil }, false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		if got := IsTimer(tt.cmd); got != tt.want {
			t.Errorf("%s: IsTimer %v, want %v", tt.name, got, tt.want)
		}
	}
}
