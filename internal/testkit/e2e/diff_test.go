package e2e

// What you approve is what runs: a file-change approval from the real
// app-server shows every line of the change, whatever it starts with,
// and the true counts; declined, nothing is written.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

const (
	// hostilePatch adds tool.py with a line that starts "++" (and others
	// that look like a diff's) and removes schema.sql's "--" line.
	hostilePatch = "*** Begin Patch\n" +
		"*** Add File: tool.py\n+print(1)\n+++__import__('os').system('touch PWNED')\n+--- a/x\n+@@ -1 +1 @@\n" +
		"*** Update File: schema.sql\n@@\n create table t;\n--- SECURITY: keep the audit trigger\n create trigger audit;\n" +
		"*** End Patch\n"
	schemaSQL = "create table t;\n-- SECURITY: keep the audit trigger\ncreate trigger audit;\n"
)

func TestFileChangeApprovalShowsHostileLinesAndDeclines(t *testing.T) {
	e := NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.ApplyPatch(hostilePatch)}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Left as they were.")}})
	schema := filepath.Join(e.Dir, "schema.sql")
	if err := os.WriteFile(schema, []byte(schemaSQL), 0o644); err != nil {
		t.Fatal(err)
	}
	ch := make(chan any, 100000)
	s := e.ReadySession(t, "untrusted", "workspace-write", nil, func(v any) { ch <- v })
	m := model.New(model.Options{NoColor: true, FormGrace: time.Millisecond})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	feed := func(v any) {
		_, cmd := m.Update(v)
		driveModel(t, m, cmd)
	}
	// The session's start is folded, its commands (the status line's
	// ticks) left alone: events are folded inside Update.
	m.Update(Await[model.SessionReadyMsg](t, ch, Patience, nil))
	fold := func(v any) { m.Update(v) }
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	if _, err := s.StartTurn(ctx, backend.TurnInput{Text: "add the tool"}); err != nil {
		t.Fatal(err)
	}
	// The item (with the change's diff) comes first; the model folds it.
	req := Await[*backend.FileChangeApprovalRequest](t, ch, Patience, fold)
	feed(req)
	v := ansi.Strip(m.View().Content)
	// The approval's window, not the transcript's cell: from its first
	// file's header (codex sends the files sorted).
	i := strings.Index(v, "update schema.sql (+0 −1)")
	if i < 0 {
		t.Fatalf("the approval lacks the updated file's true counts:\n%s", v)
	}
	v = v[i:]
	for _, want := range []string{
		"Apply these changes?",
		"add tool.py (+4 −0)",
		"2 +++__import__('os').system('touch PWNED')", "3 +--- a/x", "4 +@@ -1 +1 @@",
		"update schema.sql (+0 −1)",
		"2 --- SECURITY: keep the audit trigger", "2  create trigger audit;",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("the approval lacks %q:\n%s", want, v)
		}
	}
	// "No, continue without applying": the third choice.
	for _, k := range []tea.KeyPressMsg{{Code: tea.KeyDown}, {Code: tea.KeyDown}, {Code: tea.KeyEnter}} {
		feed(k)
	}
	if !req.Answered() {
		t.Fatalf("the form did not answer:\n%s", ansi.Strip(m.View().Content))
	}
	Await[backend.TurnCompletedEvent](t, ch, Patience, nil)
	if _, err := os.Stat(filepath.Join(e.Dir, "tool.py")); !os.IsNotExist(err) {
		t.Errorf("declined, yet tool.py exists (%v)", err)
	}
	if b, err := os.ReadFile(schema); err != nil || string(b) != schemaSQL {
		t.Errorf("declined, yet schema.sql is %q (%v)", b, err)
	}
	if _, err := os.Stat(filepath.Join(e.Dir, "PWNED")); !os.IsNotExist(err) {
		t.Errorf("PWNED exists (%v)", err)
	}
}

// A yes to a change longer than its window answers only once every line
// has been on screen: the real server's approval waits (its note says how
// much is left) until the user has paged to the end, then the change is
// applied exactly as shown.
func TestFileChangeApprovalYesWaitsForTheWholeDiff(t *testing.T) {
	var patch, want strings.Builder
	patch.WriteString("*** Begin Patch\n*** Add File: long.txt\n")
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&patch, "+line %d\n", i)
		fmt.Fprintf(&want, "line %d\n", i)
	}
	patch.WriteString("+rm -rf / # the last line\n*** End Patch\n")
	want.WriteString("rm -rf / # the last line\n")
	e := NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.ApplyPatch(patch.String())}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Written.")}})
	ch := make(chan any, 100000)
	s := e.ReadySession(t, "untrusted", "workspace-write", nil, func(v any) { ch <- v })
	m := model.New(model.Options{NoColor: true, FormGrace: time.Millisecond})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	feed := func(v any) {
		_, cmd := m.Update(v)
		driveModel(t, m, cmd)
	}
	m.Update(Await[model.SessionReadyMsg](t, ch, Patience, nil))
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	if _, err := s.StartTurn(ctx, backend.TurnInput{Text: "write long.txt"}); err != nil {
		t.Fatal(err)
	}
	req := Await[*backend.FileChangeApprovalRequest](t, ch, Patience, func(v any) { m.Update(v) })
	feed(req)
	feed(tea.KeyPressMsg{Code: tea.KeyEnter}) // "Yes, apply them", with most of it below
	if v := ansi.Strip(m.View().Content); req.Answered() || !strings.Contains(v, "read all of it first") {
		t.Fatalf("a yes answered with the diff unread (answered %v):\n%s", req.Answered(), v)
	}
	for i := 0; i < 20 && strings.Contains(ansi.Strip(m.View().Content), "more lines below"); i++ {
		feed(tea.KeyPressMsg{Code: tea.KeyPgDown})
	}
	feed(tea.KeyPressMsg{Code: tea.KeyEnter})
	if !req.Answered() {
		t.Fatalf("read to its end, the yes did not answer:\n%s", ansi.Strip(m.View().Content))
	}
	Await[backend.TurnCompletedEvent](t, ch, Patience, nil)
	if b, err := os.ReadFile(filepath.Join(e.Dir, "long.txt")); err != nil || string(b) != want.String() {
		t.Errorf("long.txt is %q (%v); want the 61 lines shown", b, err)
	}
}
