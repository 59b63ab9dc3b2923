package e2e

// End-to-end tests of issue #2 against the real codex app-server and the
// scripted mock provider: streaming, approvals, questions, interrupt.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

const markdownAnswer = "# Release notes\n\nWhat changed:\n\n- faster **streaming**\n- inline `approvals`\n\n| area | status |\n|------|--------|\n| chat | done |\n| ssh | next |\n\n```go\nfmt.Println(\"tandem\")\n```\n\nThat is all."

// (a) a streamed answer arrives in order and renders as Markdown.
func TestStreamedAnswerArrivesInOrderAndRenders(t *testing.T) {
	e := NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text(markdownAnswer)}, Usage: mockapi.Usage{InputTokens: 1000, OutputTokens: 80}})
	s, ch := e.Session(t, "never", "workspace-write")
	if _, err := s.StartTurn(ctxT(t), backend.TurnInput{Text: "notes please"}); err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	var deltas int
	done := Await[backend.TurnCompletedEvent](t, ch, Patience, func(v any) {
		if d, ok := v.(backend.AgentMessageDeltaEvent); ok {
			got.WriteString(d.Delta)
			deltas++
		}
	})
	if done.Turn.Status != backend.TurnCompleted {
		t.Fatalf("turn ended %q", done.Turn.Status)
	}
	if got.String() != markdownAnswer || deltas < 10 {
		t.Fatalf("deltas (%d) joined to %q, want the scripted answer", deltas, got.String())
	}

	// The same stream through the TUI renders Markdown, not markup.
	e2 := NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text(markdownAnswer)}})
	u := NewTUI(t, model.Options{}, 100, 30)
	u.Connect(t, e2, "never", "workspace-write")
	u.Submit("notes please")
	screen := u.WaitScreen(t, Patience, "the rendered answer", Contains("That is all.", "Release notes", "fmt.Println"))
	for _, markup := range []string{"# Release", "**streaming**", "|------|", "```"} {
		if strings.Contains(screen, markup) {
			t.Errorf("raw Markdown %q on screen:\n%s", markup, screen)
		}
	}
	if !strings.Contains(screen, "• faster streaming") || !strings.Contains(screen, "│") {
		t.Errorf("list or table not rendered:\n%s", screen)
	}
}

// approvalScript scripts one exec_command that writes a file, then a final
// answer.
func approvalScript() []mockapi.Response {
	return []mockapi.Response{
		{Items: []mockapi.Item{mockapi.ExecCommand("echo printed-by-command && echo tandem > made.txt")}},
		{Items: []mockapi.Item{mockapi.Text("All done.")}},
	}
}

// (b) an accepted command approval runs the command.
func TestAcceptedApprovalRunsCommand(t *testing.T) {
	e := NewEnv(t, approvalScript()...)
	u := NewTUI(t, model.Options{FormGrace: 50 * time.Millisecond}, 100, 30)
	u.Connect(t, e, "untrusted", "workspace-write")
	u.Submit("make the file")
	u.WaitScreen(t, Patience, "the approval form", Contains("Run this command?", "made.txt"))
	time.Sleep(150 * time.Millisecond) // the form takes keys after its grace period
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	screen := u.WaitScreen(t, Patience, "the command output and answer", Contains("printed-by-command", "All done."))
	if _, err := os.Stat(filepath.Join(e.Dir, "made.txt")); err != nil {
		t.Fatalf("accepted command did not write its file: %v\n%s", err, screen)
	}
	if strings.Contains(screen, "Run this command?") {
		t.Fatalf("form still shown after answering:\n%s", screen)
	}
}

// (c) a declined command approval does not run.
func TestDeclinedApprovalDoesNotRun(t *testing.T) {
	e := NewEnv(t, approvalScript()...)
	u := NewTUI(t, model.Options{FormGrace: 50 * time.Millisecond}, 100, 30)
	u.Connect(t, e, "untrusted", "workspace-write")
	u.Submit("make the file")
	u.WaitScreen(t, Patience, "the approval form", Contains("Run this command?"))
	time.Sleep(150 * time.Millisecond)
	// The last choice is always a "No".
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnd})
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	u.WaitScreen(t, Patience, "the turn to end", func(s string) bool {
		return !strings.Contains(s, "Run this command?") && !strings.Contains(s, "esc to interrupt")
	})
	if _, err := os.Stat(filepath.Join(e.Dir, "made.txt")); !os.IsNotExist(err) {
		t.Fatalf("declined command ran: made.txt exists (err=%v)", err)
	}
}

// (d) an ask_user_question answer reaches the mock in function_call_output.
func TestAskUserQuestionAnswerReachesModel(t *testing.T) {
	args := `{"title":"Setup","questions":[` +
		`{"id":"lang","question":"Which language?","options":[{"label":"Go","value":"go"},{"label":"Rust","value":"rust"}]},` +
		`{"id":"name","question":"Project name?","placeholder":"my-app","required":true}]}`
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.CallID("call_q1", backend.AskUserQuestionName, args)}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Thanks for answering.")}},
	)
	u := NewTUI(t, model.Options{FormGrace: 50 * time.Millisecond}, 100, 30)
	u.Connect(t, e, "never", "workspace-write")
	u.Submit("set it up")
	u.WaitScreen(t, Patience, "the question form", Contains("Which language?"))
	time.Sleep(150 * time.Millisecond)
	u.Key(tea.KeyPressMsg{Code: tea.KeyDown}) // Rust
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	u.WaitScreen(t, Patience, "the second question", Contains("Project name?"))
	time.Sleep(100 * time.Millisecond) // huh focuses the next group's field asynchronously
	u.TM.Type("hello-tandem")
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	u.WaitScreen(t, Patience, "the final answer", Contains("Thanks for answering."))
	reqs, err := e.Mock.WaitRequests(2, Patience)
	if err != nil {
		t.Fatal(err)
	}
	out := reqs[1].FunctionCallOutputs()["call_q1"]
	var answers map[string][]string
	if err := json.Unmarshal([]byte(out), &answers); err != nil {
		t.Fatalf("function_call_output %q is not the answers JSON: %v", out, err)
	}
	if got := answers["lang"]; len(got) != 1 || got[0] != "rust" {
		t.Errorf("lang = %v, want [rust]", got)
	}
	if got := answers["name"]; len(got) != 1 || got[0] != "hello-tandem" {
		t.Errorf("name = %v, want [hello-tandem]", got)
	}
}

// (e) Esc during a slow stream ends the turn interrupted (how soon is
// BenchmarkEscInterrupt's).
func TestEscInterruptsSlowStream(t *testing.T) {
	long := strings.Repeat("slow words keep coming ", 400)
	e := NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text(long)}, ChunkDelay: 20 * time.Millisecond})
	u := NewTUI(t, model.Options{}, 100, 30)
	u.Connect(t, e, "never", "workspace-write")
	u.Submit("talk slowly")
	u.WaitScreen(t, Patience, "streaming to start", Contains("slow words", "esc to interrupt"))
	u.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
	u.WaitScreen(t, Patience, "the interrupted banner", Contains("Turn interrupted"))
	if s := u.Screen(t); strings.Contains(s, "esc to interrupt") {
		t.Fatalf("still running after interrupt:\n%s", s)
	}
}

// (f) An answer cut by Esc is drawn as Markdown, as a completed one is,
// and ends with a dim "(cut)": the server never completes its item, so the
// fold cuts it when the turn completes interrupted.
func TestEscCutAnswerIsMarkdownWithMark(t *testing.T) {
	long := "## Cut heading\n\n" + strings.Repeat("a **strong** word, ", 400)
	e := NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text(long)}, ChunkDelay: 20 * time.Millisecond})
	u := NewTUI(t, model.Options{}, 100, 30)
	u.Connect(t, e, "never", "workspace-write")
	u.Submit("talk slowly")
	// Streaming, the open paragraph is plain text: its ** shows.
	u.WaitScreen(t, Patience, "the raw paragraph streaming", Contains("a **strong** word", "esc to interrupt"))
	u.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
	s := u.WaitScreen(t, Patience, "the interrupted banner", Contains("Turn interrupted"))
	// Where the cut falls is the stream's pace: an emphasis it leaves
	// open ("a **s") stays as typed, as glamour leaves it; a closed one
	// must not.
	if strings.Contains(s, "**strong**") || !strings.Contains(s, "a strong word") {
		t.Fatalf("the cut answer is not drawn as Markdown:\n%s", s)
	}
	if !strings.Contains(s, "(cut)") {
		t.Fatalf("the cut answer has no (cut) mark:\n%s", s)
	}
}
