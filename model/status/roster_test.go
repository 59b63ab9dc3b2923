package status

import (
	"fmt"
	"testing"

	"tandem/internal/hub"
)

// The status line names up to rosterShown of the connected, drivers
// first, and counts the rest, however many watch.
func TestRosterLine(t *testing.T) {
	p := func(name string, r hub.Role) hub.Participant { return hub.Participant{Name: name, Role: r} }
	cases := []struct {
		present []hub.Participant
		want    string
	}{
		{nil, ""},
		{[]hub.Participant{p("wat", hub.Watcher), p("alice", hub.Driver)}, "alice (driver), wat (watcher)"},
		{[]hub.Participant{p("a", hub.Watcher), p("b", hub.Watcher), p("c", hub.Watcher), p("d", hub.Driver)}, "d (driver), a (watcher), b (watcher), c (watcher)"},
	}
	many := []hub.Participant{p("w0", hub.Watcher)}
	for i := 1; i < 99; i++ {
		many = append(many, p(fmt.Sprintf("w%d", i), hub.Watcher))
	}
	many = append(many, p("alice", hub.Driver))
	cases = append(cases, struct {
		present []hub.Participant
		want    string
	}{many, "alice (driver), w0 (watcher), w1 (watcher), +97 more"})
	for _, tc := range cases {
		if got := rosterLine(tc.present); got != tc.want {
			t.Errorf("%d present: %q, want %q", len(tc.present), got, tc.want)
		}
	}
}
