package teatest

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/testkit/e2e"
	"tandem/model"
)

func userItem(id, text string) backend.Item {
	return backend.Item{Type: "userMessage", ID: id, Content: []backend.UserContent{{Type: "text", Text: text}}}
}

func fileChange(id, path, kind, diff string) backend.Item {
	return backend.Item{Type: "fileChange", ID: id, Status: "completed", Changes: []backend.FileChange{{Path: path, Kind: backend.PatchChangeKind{Type: kind}, Diff: diff}}}
}

// rewindScreen is a 100×30 TUI on a thread of three turns: an answer; a
// script edited and a command run; a file created and one deleted.
func rewindScreen(t *testing.T) *e2e.TUI {
	t.Helper()
	u := e2e.NewFrozenTUI(t, model.Options{Now: func() time.Time { return epoch }}, 100, 30)
	history := []backend.Turn{
		{ID: "t1", Status: "completed", Items: []backend.Item{userItem("u1", "Explain the build"), {Type: "agentMessage", ID: "a1", Text: "It uses Go modules."}}},
		{ID: "t2", Status: "completed", Items: []backend.Item{userItem("u2", "Make greet.sh say ahoy"),
			fileChange("f2", "/w/greet.sh", "update", "@@ -1,2 +1,3 @@\n #!/bin/sh\n-echo hello\n+echo ahoy\n+echo matey\n"),
			{Type: "commandExecution", ID: "c2", Command: "sh greet.sh", Status: "completed"}}},
		{ID: "t3", Status: "completed", Items: []backend.Item{userItem("u3", "Add notes and drop the old readme"),
			fileChange("f3", "/w/NOTES.md", "add", "# Notes\n\nfirst\n"),
			fileChange("f4", "/w/OLD.md", "delete", "old\n")}},
	}
	u.TM.Send(model.SessionReadyMsg{Client: threadDriver{}, ThreadID: "thread-1", Model: "gpt-test", Cwd: "~/w", ThreadCwd: "/w", Approval: "on-request", Sandbox: "workspace-write", Peer: "local", History: history})
	return u
}

// threadDriver is a fakeDriver with a thread.
type threadDriver struct{ fakeDriver }

func (threadDriver) ThreadID() string { return "thread-1" }

// Esc Esc: the thread's messages, newest first, each with what came
// after it, and the highlighted one shown whole.
func TestGoldenRewindPicker(t *testing.T) {
	u := rewindScreen(t)
	u.WaitScreen(t, e2e.Patience, "the history", e2e.Contains("Add notes and drop the old readme"))
	u.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
	u.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
	golden(t, u, "rewinding leaves behind")
}

// Picking a message whose turns changed files: the three choices, and
// what taking the code back would do.
func TestGoldenRewindCodeSummary(t *testing.T) {
	u := rewindScreen(t)
	u.WaitScreen(t, e2e.Patience, "the history", e2e.Contains("Add notes and drop the old readme"))
	u.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
	u.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
	u.WaitScreen(t, e2e.Patience, "the picker", e2e.Contains("Edit an earlier message"))
	u.Key(tea.KeyPressMsg{Code: tea.KeyDown})
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	golden(t, u, "their effects are not rewound")
}
