package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"tandem/thread"
)

// A command, a file change and a tool call that will never complete
// (thread.State.EndOpen) say how they ended, never "running" or
// "Editing".
func TestEndedCellsSayHow(t *testing.T) {
	for _, tc := range []struct {
		status, command, edit, tool string
	}{
		{thread.StatusInterrupted, "(interrupted)", "Interrupted edit of a.txt", "search (interrupted)"},
		{thread.StatusUnknown, "(outcome unknown: codex app-server went away)", "Edit (outcome unknown) of a.txt", "search (outcome unknown)"},
	} {
		cmd := &CommandCell{Item: &thread.Item{Kind: thread.Command, Command: "make", Status: tc.status}}
		edit := &FileChangeCell{Item: &thread.Item{Kind: thread.FileChange, Status: tc.status, Files: []thread.FileDiff{{Path: "a.txt", Kind: "update", Diff: "@@ -1 +1 @@\n-x\n+y\n"}}}}
		tool := &ToolCell{Item: &thread.Item{Kind: thread.Tool, Title: "search", Status: tc.status}}
		for _, c := range []struct {
			cell Cell
			want string
		}{{cmd, tc.command}, {edit, tc.edit}, {tool, tc.tool}} {
			got := ansi.Strip(strings.Join(c.cell.Render(testCtx(), 80), "\n"))
			if !strings.Contains(got, c.want) || strings.Contains(got, "running") || strings.Contains(got, "Editing") {
				t.Errorf("%s: %q; want %q", tc.status, got, c.want)
			}
		}
		if cmd.Live() {
			t.Errorf("%s: the command cell is still live", tc.status)
		}
	}
}
