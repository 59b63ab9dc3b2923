package model

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

const (
	greetV1   = "#!/bin/sh\necho \"Hello\"\n"
	greetV2   = "#!/bin/sh\necho \"Ahoy\"\n"
	greetDiff = "@@ -1,2 +1,2 @@\n #!/bin/sh\n-echo \"Hello\"\n+echo \"Ahoy\"\n"
)

func user(id, text string) backend.Item {
	return backend.Item{Type: "userMessage", ID: id, Content: []backend.UserContent{{Type: "text", Text: text}}}
}

// threeTurns: "first" (an answer), "second" (edits greet.sh and runs a
// command), "third" (creates notes.md).
func threeTurns() []backend.Turn {
	return []backend.Turn{
		{ID: "turn-1", Status: "completed", Items: []backend.Item{user("u1", "first"), {Type: "agentMessage", ID: "a1", Text: "one"}}},
		{ID: "turn-2", Status: "completed", Items: []backend.Item{user("u2", "second"),
			{Type: "fileChange", ID: "f2", Status: "completed", Changes: []backend.FileChange{{Path: "/w/greet.sh", Kind: backend.PatchChangeKind{Type: "update"}, Diff: greetDiff}}},
			{Type: "commandExecution", ID: "c2", Command: "sh greet.sh", Status: "completed"}}},
		{ID: "turn-3", Status: "completed", Items: []backend.Item{user("u3", "third"),
			{Type: "fileChange", ID: "f3", Status: "completed", Changes: []backend.FileChange{{Path: "/w/notes.md", Kind: backend.PatchChangeKind{Type: "add"}, Diff: "# notes\n"}}}}},
	}
}

func rewindModel(t *testing.T, files map[string]string) (*Model, *fakeDriver) {
	t.Helper()
	f := newFake()
	f.threads["t-first"] = backend.Thread{ID: "t-first", Turns: threeTurns()}
	f.files = files
	m := New(Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	_, cmd := m.Update(SessionReadyMsg{Client: f, ThreadID: "t-first", Model: "mock-model", Cwd: "~/w", ThreadCwd: "/w", History: threeTurns()})
	settle(t, m, cmd)
	return m, f
}

func after() map[string]string {
	return map[string]string{"/w/greet.sh": greetV2, "/w/notes.md": "# notes\n"}
}

// Esc Esc, pick the second message, take the code back too, edit, send:
// the fork is cut before turn 2, the files are as before turn 2, and the
// edited message starts the fork's next turn.
func TestRewindConversationAndCode(t *testing.T) {
	m, f := rewindModel(t, after())
	press(t, m, tea.KeyEscape, 0)
	if v := viewText(m); !strings.Contains(v, "esc again to edit an earlier message") {
		t.Fatalf("no hint after one Esc:\n%s", v)
	}
	press(t, m, tea.KeyEscape, 0)
	v := viewText(m)
	for _, want := range []string{"Edit an earlier message", "third", "second", "first", "1 turn · 1 file changed", "2 turns · 1 command · 2 files changed"} {
		if !strings.Contains(v, want) {
			t.Fatalf("picker lacks %q:\n%s", want, v)
		}
	}
	press(t, m, tea.KeyDown, 0) // "second"
	press(t, m, tea.KeyEnter, 0)
	v = viewText(m)
	for _, want := range []string{"Rewind to “second”", "Rewind conversation only", "Rewind conversation and code", "2 files changed in 2 turns:", "greet.sh  +1 −1", "notes.md  created → removed", "1 command ran: their effects are not rewound"} {
		if !strings.Contains(v, want) {
			t.Fatalf("choice lacks %q:\n%s", want, v)
		}
	}
	press(t, m, tea.KeyDown, 0)
	press(t, m, tea.KeyEnter, 0)
	if got := m.composer.Value(); got != "second" {
		t.Fatalf("composer %q; want the message to edit", got)
	}
	if strings.Contains(strings.Join(f.called(), ","), "fork") {
		t.Fatal("forked before the message was sent")
	}
	typeText(t, m, " again")
	press(t, m, tea.KeyEnter, 0)
	calls := strings.Join(f.called(), ",")
	if !strings.Contains(calls, "thread/fork") || !strings.Contains(calls, "turn/start") {
		t.Fatalf("calls %s", calls)
	}
	if got := f.params["thread/fork"]; got != [2]string{"t-first", "turn-2"} {
		t.Errorf("forked %v; want before turn-2 of t-first", got)
	}
	if strings.Index(calls, "fs/readFile") > strings.Index(calls, "thread/fork") || strings.Index(calls, "thread/fork") > strings.Index(calls, "fs/writeFile") {
		t.Errorf("order %s: read and check, fork, then write", calls)
	}
	if want := map[string]string{"/w/greet.sh": greetV1}; !maps.Equal(f.files, want) {
		t.Errorf("files %q; want %q", f.files, want)
	}
	if len(f.turns) != 1 || f.turns[0] != "second again" {
		t.Errorf("turns sent %q; want the edited message", f.turns)
	}
	v = viewText(m)
	for _, want := range []string{"Rewound to “second”", "2 turns left behind on thread t-first", "2 files put back", "first"} {
		if !strings.Contains(v, want) {
			t.Errorf("transcript lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "third") {
		t.Errorf("the dropped turn is still drawn:\n%s", v)
	}
}

// A file edited by hand since: nothing is written, nothing forked, and
// the edited message stays in the composer.
func TestRewindRefusesEditedFile(t *testing.T) {
	files := after()
	files["/w/greet.sh"] = "#!/bin/sh\necho \"Mine\"\n"
	m, f := rewindModel(t, maps.Clone(files))
	press(t, m, tea.KeyEscape, 0)
	press(t, m, tea.KeyEscape, 0)
	press(t, m, tea.KeyDown, 0)
	press(t, m, tea.KeyEnter, 0)
	press(t, m, tea.KeyDown, 0)
	press(t, m, tea.KeyEnter, 0) // conversation and code
	typeText(t, m, "!")
	press(t, m, tea.KeyEnter, 0)
	calls := strings.Join(f.called(), ",")
	if strings.Contains(calls, "thread/fork") || strings.Contains(calls, "fs/writeFile") || strings.Contains(calls, "fs/remove") || strings.Contains(calls, "turn/start") {
		t.Fatalf("a refused rewind did %s", calls)
	}
	if !maps.Equal(f.files, files) {
		t.Errorf("files changed: %q", f.files)
	}
	if got := m.composer.Value(); got != "second!" {
		t.Errorf("composer %q; the edited message must stay", got)
	}
	if v := viewText(m); !strings.Contains(v, "nothing was rewound") || !strings.Contains(v, "greet.sh: edited since") {
		t.Errorf("no refusal naming the file:\n%s", v)
	}
}

// Conversation only: the files stay, the fork is cut.
func TestRewindConversationOnly(t *testing.T) {
	m, f := rewindModel(t, after())
	press(t, m, tea.KeyEscape, 0)
	press(t, m, tea.KeyEscape, 0)
	press(t, m, tea.KeyEnter, 0) // "third"
	press(t, m, tea.KeyEnter, 0) // conversation only
	press(t, m, tea.KeyEnter, 0)
	if got := f.params["thread/fork"]; got != [2]string{"t-first", "turn-3"} {
		t.Errorf("forked %v", got)
	}
	if !maps.Equal(f.files, after()) {
		t.Errorf("files changed: %q", f.files)
	}
}

// Esc on the picker changes nothing; /undo takes the last turn back.
func TestUndoAndCancel(t *testing.T) {
	m, f := rewindModel(t, after())
	press(t, m, tea.KeyEscape, 0)
	press(t, m, tea.KeyEscape, 0)
	press(t, m, tea.KeyEscape, 0) // closes the picker
	if strings.Contains(viewText(m), "Edit an earlier message") || strings.Contains(strings.Join(f.called(), ","), "fork") {
		t.Fatalf("esc left the picker or called %v", f.called())
	}
	typeText(t, m, "/undo")
	press(t, m, tea.KeyEnter, 0)
	if v := viewText(m); !strings.Contains(v, "Undo the last turn and its file changes") || !strings.Contains(v, "notes.md  created → removed") {
		t.Fatalf("no undo choice:\n%s", v)
	}
	press(t, m, tea.KeyEnter, 0)
	if got := f.params["thread/fork"]; got != [2]string{"t-first", "turn-3"} {
		t.Errorf("forked %v", got)
	}
	if want := map[string]string{"/w/greet.sh": greetV2}; !maps.Equal(f.files, want) {
		t.Errorf("files %q; want notes.md gone", f.files)
	}
	if got := m.composer.Value(); got != "third" {
		t.Errorf("composer %q; the undone message comes back", got)
	}
	if len(f.turns) != 0 {
		t.Errorf("undo sent %q", f.turns)
	}
}

func TestUndoWithoutFileChanges(t *testing.T) {
	f := newFake()
	turns := threeTurns()[:1]
	f.threads["t-first"] = backend.Thread{ID: "t-first", Turns: turns}
	m := New(Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	_, cmd := m.Update(SessionReadyMsg{Client: f, ThreadID: "t-first", Model: "mock-model", History: turns})
	settle(t, m, cmd)
	typeText(t, m, "/undo")
	press(t, m, tea.KeyEnter, 0)
	if v := viewText(m); !strings.Contains(v, "the last turn changed no files: nothing to take back") {
		t.Errorf("no notice:\n%s", v)
	}
	if strings.Contains(strings.Join(f.called(), ","), "fork") {
		t.Error("forked")
	}
}

// Two Escs in one read arrive as alt+esc: the picker opens all the same.
func TestAltEscOpensRewind(t *testing.T) {
	m, _ := rewindModel(t, after())
	press(t, m, tea.KeyEscape, tea.ModAlt)
	if v := viewText(m); !strings.Contains(v, "Edit an earlier message") {
		t.Fatalf("alt+esc did not open the picker:\n%s", v)
	}
}

// A failed write after the fork: the draft comes back unsent, and the
// banner says which file failed.
func TestRewindWriteFailureKeepsDraft(t *testing.T) {
	m, f := rewindModel(t, after())
	f.errs["fs/writeFile"] = nil
	fw := &failWrites{fakeDriver: f}
	// The session's client fails every write from now on (a session on
	// the same thread, as after a restart).
	m.Update(SessionReadyMsg{Client: fw, ThreadID: "t-first", Model: "mock-model", Cwd: "~/w", ThreadCwd: "/w"})
	press(t, m, tea.KeyEscape, 0)
	press(t, m, tea.KeyEscape, 0)
	press(t, m, tea.KeyDown, 0)
	press(t, m, tea.KeyEnter, 0)
	press(t, m, tea.KeyDown, 0)
	press(t, m, tea.KeyEnter, 0)
	press(t, m, tea.KeyEnter, 0)
	if len(f.turns) != 0 {
		t.Fatalf("sent %q although the files were not rewound", f.turns)
	}
	if got := m.composer.Value(); got != "second" {
		t.Errorf("composer %q; the message should be back", got)
	}
	if v := viewText(m); !strings.Contains(v, "writing greet.sh failed: disk full") {
		t.Errorf("no failure naming the file:\n%s", v)
	}
}

// failWrites fails every fs/writeFile.
type failWrites struct{ *fakeDriver }

func (failWrites) WriteFile(context.Context, string, []byte) error { return errors.New("disk full") }

// The root's seams with the rewind (model/rewind): a file change folded
// live is read back as the agent left it (events.go → act.SnapFiles →
// act.Done for the rewind), so an edit since, even outside the lines it
// changed, refuses the rewind.
func TestRewindSnapshotOfALiveChange(t *testing.T) {
	var lines []string
	for i := 1; i <= 12; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	left := strings.Replace(strings.Join(lines, "\n")+"\n", "line 5", "LINE FIVE", 1)
	files := after()
	files["/w/big.txt"] = left
	m, f := rewindModel(t, files)
	const th = `"threadId":"t-first","turnId":"turn-4"`
	for _, ev := range []backend.Event{
		notif(t, "turn/started", `{"threadId":"t-first","turn":{"id":"turn-4","items":[],"status":"inProgress"}}`),
		notif(t, "item/completed", `{`+th+`,"item":{"type":"userMessage","id":"u4","content":[{"type":"text","text":"fourth"}]}}`),
		notif(t, "item/completed", `{`+th+`,"item":{"type":"fileChange","id":"f4","status":"completed","changes":[{"path":"/w/big.txt","kind":{"type":"update"},"diff":"@@ -4,3 +4,3 @@\n line 4\n-line 5\n+LINE FIVE\n line 6\n"}]}}`),
		notif(t, "turn/completed", `{"threadId":"t-first","turn":{"id":"turn-4","items":[],"status":"completed"}}`),
	} {
		_, cmd := m.Update(ev)
		settle(t, m, cmd)
	}
	if !slices.Contains(f.called(), "fs/readFile") {
		t.Fatalf("the live change was not read back: %v", f.called())
	}
	mine := strings.Replace(left, "line 12", "line twelve (mine)", 1)
	f.files["/w/big.txt"] = mine
	press(t, m, tea.KeyEscape, tea.ModAlt)
	press(t, m, tea.KeyEnter, 0) // "fourth"
	press(t, m, tea.KeyDown, 0)
	press(t, m, tea.KeyEnter, 0) // conversation and code
	press(t, m, tea.KeyEnter, 0)
	if v := viewText(m); !strings.Contains(v, "nothing was rewound") || !strings.Contains(v, "big.txt: edited since") {
		t.Errorf("no refusal naming the file:\n%s", v)
	}
	if f.files["/w/big.txt"] != mine || slices.Contains(f.called(), "thread/fork") {
		t.Errorf("a refused rewind changed the file or forked: %v", f.called())
	}
}

// A rewind chosen goes with Ctrl+C's discard of its draft, a thread
// switch, or a restart: Enter then sends the message on the thread as
// it is.
func TestChosenRewindGoes(t *testing.T) {
	tests := []struct {
		name   string
		drop   func(t *testing.T, m *Model, f *fakeDriver)
		notice string
	}{
		{"ctrl+c", func(t *testing.T, m *Model, _ *fakeDriver) {
			press(t, m, 'c', tea.ModCtrl)
			typeText(t, m, "second")
		}, "rewind cancelled"},
		{"thread switch", func(t *testing.T, m *Model, _ *fakeDriver) {
			_, cmd := m.Update(ThreadOpenedMsg{Response: backend.ThreadResponse{Thread: backend.Thread{ID: "t-first", Turns: threeTurns()}}, How: "resumed"})
			settle(t, m, cmd)
		}, ""},
		{"restart", func(t *testing.T, m *Model, f *fakeDriver) {
			_, cmd := m.Update(SessionReadyMsg{Client: f, ThreadID: "t-first", Model: "mock-model", Cwd: "~/w", ThreadCwd: "/w"})
			settle(t, m, cmd)
		}, "the app-server restarted: the rewind you chose was dropped — esc esc to choose again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, f := rewindModel(t, after())
			press(t, m, tea.KeyEscape, tea.ModAlt)
			press(t, m, tea.KeyDown, 0)
			press(t, m, tea.KeyEnter, 0) // "second"
			press(t, m, tea.KeyEnter, 0) // conversation only
			if got := m.composer.Value(); got != "second" {
				t.Fatalf("composer %q", got)
			}
			tt.drop(t, m, f)
			if tt.notice != "" && !strings.Contains(noticeText(m), tt.notice) {
				t.Errorf("notice %q; want %q", noticeText(m), tt.notice)
			}
			press(t, m, tea.KeyEnter, 0)
			if slices.Contains(f.called(), "thread/fork") || len(f.turns) != 1 || f.turns[0] != "second" {
				t.Errorf("calls %v, turns %q; want the message sent without a rewind", f.called(), f.turns)
			}
		})
	}
}
