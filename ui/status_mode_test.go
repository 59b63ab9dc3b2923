package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The plan-mode badge leads the left side; the goal leads the right one,
// its objective cut to 32 cells (wide characters counted as two), and the
// line still fits its width.
func TestStatusLineModeAndGoal(t *testing.T) {
	st := NewStyles(true)
	base := StatusInfo{Model: "gpt-test", Cwd: "~/src/tandem"}
	cases := []struct {
		name      string
		s         StatusInfo
		width     int
		prefix    string
		contains  []string
		forbidden []string
	}{
		{"plan badge", StatusInfo{Model: "gpt-test", Mode: "plan"}, 80, "[plan mode]", []string{"gpt-test"}, nil},
		{"no badge by default", base, 80, "", []string{"gpt-test"}, []string{"mode]"}},
		{"goal first on the right", StatusInfo{Model: "gpt-test", Goal: "make the tests pass", GoalStatus: "active"}, 80, "",
			[]string{"◎ goal: make the tests pass (active) · gpt-test"}, nil},
		{"long goal cut", StatusInfo{Goal: strings.Repeat("refactor ", 10), GoalStatus: "complete"}, 100, "",
			[]string{"◎ goal: refactor refactor refactor refa… (complete)"}, nil},
		{"wide goal cut by cells", StatusInfo{Goal: strings.Repeat("目標", 20), GoalStatus: "paused"}, 100, "",
			[]string{"(paused)"}, nil},
		{"badge and running turn", StatusInfo{Mode: "plan", Running: true, Spinner: "⣾", Goal: "x", GoalStatus: "active", Model: "m"}, 60,
			"[plan mode]  ⣾ Working 0s", []string{"◎ goal: x"}, nil},
		{"narrow: badge kept, right cut", StatusInfo{Mode: "plan", Goal: "ship it", GoalStatus: "active", Model: "gpt-test", Cwd: "~/src/tandem"}, 30,
			"[plan mode]", nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			line := ansi.Strip(StatusLine(st, tc.s, tc.width))
			if w := ansi.StringWidth(line); w > tc.width {
				t.Fatalf("width %d > %d: %q", w, tc.width, line)
			}
			if !strings.HasPrefix(strings.TrimLeft(line, " "), tc.prefix) || tc.prefix == "" && !strings.HasPrefix(line, " ") {
				t.Errorf("line %q does not start with %q", line, tc.prefix)
			}
			for _, c := range tc.contains {
				if !strings.Contains(line, c) {
					t.Errorf("line %q lacks %q", line, c)
				}
			}
			for _, c := range tc.forbidden {
				if strings.Contains(line, c) {
					t.Errorf("line %q has %q", line, c)
				}
			}
		})
	}
	if l := GoalLabel(strings.Repeat("目", 40), "active"); ansi.StringWidth(l) > len("◎ goal: ")+32+len(" (active)") {
		t.Errorf("goal label too wide: %q", l)
	}
}
