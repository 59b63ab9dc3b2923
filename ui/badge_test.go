package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A thread without a sandbox carries a badge on the status line's left,
// in words (NO_COLOR keeps it), ahead of everything and never cut.
func TestDangerBadge(t *testing.T) {
	cases := []struct {
		approval, sandbox, want string
	}{
		{"never", "danger-full-access", "YOLO"},
		{"on-request", "danger-full-access", "NO SANDBOX"},
		{"never (next turn)", "danger-full-access (next turn)", "YOLO"},
		{"never", "workspace-write", ""},
		{"never", "read-only", ""},
		{"", "", ""},
	}
	for _, c := range cases {
		if got := DangerBadge(c.approval, c.sandbox); got != c.want {
			t.Errorf("DangerBadge(%q, %q) = %q, want %q", c.approval, c.sandbox, got, c.want)
		}
	}
	st := NewStyles(true)
	for _, w := range []int{120, 40, 12} {
		s := StatusInfo{Model: "gpt-test", Cwd: "~/src/tandem", Approval: "never", Sandbox: "danger-full-access", Running: true, Spinner: "⣾"}
		line := ansi.Strip(StatusLine(st, s, w))
		if !strings.HasPrefix(line, " YOLO ") {
			t.Errorf("width %d: %q does not start with the badge", w, line)
		}
		if ansi.StringWidth(line) > w {
			t.Errorf("width %d: %q is too wide", w, line)
		}
	}
	if line := ansi.Strip(StatusLine(st, StatusInfo{Approval: "on-request", Sandbox: "workspace-write"}, 80)); strings.Contains(line, "YOLO") || strings.Contains(line, "NO SANDBOX") {
		t.Errorf("a sandboxed thread got a badge: %q", line)
	}
}
