package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
	"tandem/model"
	"tandem/sessions"
)

// connectResume starts a session on e's app-server feeding u and hands it
// to the model with a resume request instead of a fresh thread (what
// `tandem resume` does).
func connectResume(t testing.TB, u *TUI, e *Env, req *model.ResumeRequest) *backend.Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	s, err := backend.StartSession(ctx, backend.SessionOptions{
		Transport:      e.Transport(),
		ClientVersion:  "test",
		Cwd:            e.Dir,
		ApprovalPolicy: "never",
		Sandbox:        "workspace-write",
		Sink:           func(msg any) { u.TM.Send(msg) },
	})
	if err != nil {
		t.Fatalf("starting session: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	u.Session = s
	u.TM.Send(model.SessionReadyMsg{Client: s, Peer: s.Describe(), Resume: req})
	return s
}

// Resuming after the app-server restarted shows the thread's history, and
// the thread's real rollout has no unfinished tool calls.
func TestResumeAfterRestartShowsHistory(t *testing.T) {
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand("echo rollout-check")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("The answer is forty-two.")}},
	)
	state := sessions.Open(t.TempDir())
	opts := model.Options{State: state, Workspace: e.Dir}

	u1 := NewTUI(t, opts, 100, 30)
	u1.Connect(t, e, "never", "workspace-write")
	u1.Submit("what is the answer?")
	u1.WaitScreen(t, Patience, "the answer", func(s string) bool {
		return strings.Contains(s, "The answer is forty-two.") && !strings.Contains(s, "esc to interrupt")
	})
	first := u1.Session.ThreadID()
	if got := state.LastThread(e.Dir); got != first {
		t.Fatalf("last thread remembered = %q, want %q", got, first)
	}
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	th, err := u1.Session.ReadThread(ctx, first)
	if err != nil || th.Path == nil {
		t.Fatalf("thread/read: %v (path %v)", err, th.Path)
	}
	// The rollout scan on codex's own file: the exec call has its output.
	raw, err := os.ReadFile(*th.Path)
	if err != nil || !strings.Contains(string(raw), `"type":"function_call"`) || !strings.Contains(string(raw), `"type":"function_call_output"`) {
		t.Fatalf("rollout %s lacks the exec call and its output (err %v)", *th.Path, err)
	}
	if pending, err := sessions.UnfinishedToolCalls(*th.Path); err != nil || len(pending) != 0 {
		t.Fatalf("finished rollout reported pending calls %+v (err %v)", pending, err)
	}
	// Cut the rollout after the call (as a crash would) and the scan finds it.
	cut := ""
	for _, l := range strings.SplitAfter(string(raw), "\n") {
		if strings.Contains(l, `"type":"function_call_output"`) {
			break
		}
		cut += l
	}
	cutPath := t.TempDir() + "/cut.jsonl"
	if err := os.WriteFile(cutPath, []byte(cut), 0o600); err != nil {
		t.Fatal(err)
	}
	if pending, err := sessions.UnfinishedToolCalls(cutPath); err != nil || len(pending) != 1 || pending[0].Name != "exec_command" {
		t.Fatalf("cut rollout: pending %+v (err %v)", pending, err)
	}
	_ = u1.Session.Close()

	// A new app-server on the same CODEX_HOME: `tandem resume --last`.
	u2 := NewTUI(t, opts, 100, 30)
	connectResume(t, u2, e, &model.ResumeRequest{Last: true})
	u2.WaitScreen(t, Patience, "the resumed history", Contains("what is the answer?", "The answer is forty-two.", "Resumed thread"))
	if got := u2.Session.ThreadID(); got != first {
		t.Fatalf("resumed thread %q, want %q", got, first)
	}
	_ = u2.Session.Close()

	// And the picker (`tandem resume`) lists it with its preview.
	u3 := NewTUI(t, model.Options{Workspace: e.Dir}, 110, 35)
	s3 := connectResume(t, u3, e, &model.ResumeRequest{})
	u3.WaitScreen(t, Patience, "the resume picker", Contains("Resume a thread", "what is the answer?", "this workspace"))
	u3.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	u3.WaitScreen(t, Patience, "the picked thread", Contains("The answer is forty-two.", "Resumed thread"))
	if got := s3.ThreadID(); got != first {
		t.Fatalf("picked thread %q, want %q", got, first)
	}
}

// A resume of an unknown thread shows a notice and starts a new thread,
// once.
func TestResumeUnknownThreadStartsNew(t *testing.T) {
	e := NewEnv(t)
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 100, 30)
	s := connectResume(t, u, e, &model.ResumeRequest{ID: "019a0000-0000-7000-8000-00000000dead"})
	u.WaitScreen(t, Patience, "the fallback notice", Contains("could not resume thread", "started a new thread"))
	if s.ThreadID() == "" || strings.HasSuffix(s.ThreadID(), "dead") {
		t.Fatalf("no new thread: %q", s.ThreadID())
	}
}

// /fork copies the thread into a new one that keeps the history.
func TestForkKeepsHistory(t *testing.T) {
	e := NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("Original answer.")}})
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 100, 30)
	u.Connect(t, e, "never", "workspace-write")
	u.Submit("original question")
	u.WaitScreen(t, Patience, "the answer", func(s string) bool {
		return strings.Contains(s, "Original answer.") && !strings.Contains(s, "esc to interrupt")
	})
	orig := u.Session.ThreadID()
	u.Submit("/fork")
	u.WaitScreen(t, Patience, "the fork", Contains("Forked into thread", "original question", "Original answer."))
	forked := u.Session.ThreadID()
	if forked == orig || forked == "" {
		t.Fatalf("fork kept thread %q", forked)
	}
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	th, err := u.Session.ReadThreadTurns(ctx, forked)
	if err != nil {
		t.Fatal(err)
	}
	if len(th.Turns) != 1 {
		t.Fatalf("forked thread has %d turns, want 1", len(th.Turns))
	}
}

// /model lists the server's catalog (model/list) and the chosen model and
// effort reach the provider with the next turn.
func TestModelCommandAgainstModelList(t *testing.T) {
	e := NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("ok")}})
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 100, 30)
	u.Connect(t, e, "never", "workspace-write")
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	models, err := u.Session.ListModels(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(models) != 1 || models[0].Model != mockapi.DefaultModel {
		t.Fatalf("model/list = %+v", models)
	}
	efforts := models[0].SupportedReasoningEfforts
	u.Submit("/model")
	// The picker opens at once (loading); wait for model/list's entry.
	u.WaitScreen(t, Patience, "the model picker", Contains("enter to choose", "("+mockapi.DefaultModel+") ✓"))
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	want := models[0].DefaultReasoningEffort
	if len(efforts) > 1 {
		u.WaitScreen(t, Patience, "the effort picker", Contains("Reasoning effort for "+mockapi.DefaultModel))
		// Choose the first effort that isn't the default.
		idx := slices.IndexFunc(efforts, func(o backend.ReasoningEffortOption) bool { return o.ReasoningEffort != want })
		def := slices.IndexFunc(efforts, func(o backend.ReasoningEffortOption) bool { return o.ReasoningEffort == want })
		for i := def; i > idx; i-- {
			u.Key(tea.KeyPressMsg{Code: tea.KeyUp})
		}
		for i := def; i < idx; i++ {
			u.Key(tea.KeyPressMsg{Code: tea.KeyDown})
		}
		want = efforts[idx].ReasoningEffort
		u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	}
	u.WaitScreen(t, Patience, "the model notice", Contains("from the next turn"))
	u.Submit("hello")
	reqs, err := e.Mock.WaitRequests(1, Patience)
	if err != nil {
		t.Fatal(err)
	}
	if got := reqs[0].Model(); got != mockapi.DefaultModel {
		t.Fatalf("request model %q", got)
	}
	var body struct {
		Reasoning *struct {
			Effort string `json:"effort"`
		} `json:"reasoning"`
	}
	_ = json.Unmarshal(reqs[0].Raw, &body)
	if want != "" && (body.Reasoning == nil || body.Reasoning.Effort != want) {
		t.Fatalf("request reasoning = %+v, want effort %q", body.Reasoning, want)
	}
}

// Enter during a turn steers it (turn/steer with expectedTurnId): the
// provider's next request in the same turn carries both user texts.
func TestSteerReachesMockInSameTurn(t *testing.T) {
	long := strings.Repeat("slow words keep coming ", 120)
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text(long)}, ChunkDelay: 10 * time.Millisecond},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Steered answer.")}},
	)
	turns := make(chan string, 10)
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 100, 30)
	u.Connect(t, e, "never", "workspace-write")
	u.Submit("first prompt")
	u.WaitScreen(t, Patience, "streaming to start", Contains("slow words", "esc to interrupt"))
	turn := u.Session.TurnID()
	u.Submit("steer this way")
	u.WaitScreen(t, Patience, "the steered answer", func(s string) bool {
		return strings.Contains(s, "Steered answer.") && !strings.Contains(s, "esc to interrupt")
	})
	close(turns)
	if turn == "" {
		t.Fatal("no turn id while streaming")
	}
	reqs := e.Mock.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	users := reqs[1].UserTexts()
	if !slices.Contains(users, "first prompt") || !slices.Contains(users, "steer this way") {
		t.Fatalf("second request's user texts %q lack both prompts", users)
	}
	if slices.Contains(reqs[0].UserTexts(), "steer this way") {
		t.Fatal("the steer reached the first request")
	}
	// Same turn: codex's turn metadata names the same turn id.
	if a, b := turnIDOf(reqs[0]), turnIDOf(reqs[1]); a == "" || a != b || a != turn {
		t.Fatalf("requests in turns %q and %q, steered turn %q", a, b, turn)
	}
}

func turnIDOf(r mockapi.Request) string {
	var md struct {
		TurnID string `json:"turn_id"`
	}
	_ = json.Unmarshal([]byte(r.Header.Get("X-Codex-Turn-Metadata")), &md)
	return md.TurnID
}

// The thread commands against the real server: /rename, /mcp, /compact,
// /diff, /new, /archive.
func TestThreadCommandsOnRealServer(t *testing.T) {
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("First answer.")}},
	)
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 100, 40)
	u.Connect(t, e, "never", "workspace-write")
	u.Submit("hello")
	idle := func(s string) bool { return !strings.Contains(s, "esc to interrupt") }
	u.WaitScreen(t, Patience, "the answer", func(s string) bool { return strings.Contains(s, "First answer.") && idle(s) })
	first := u.Session.ThreadID()
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()

	u.Submit("/rename Parser work")
	u.WaitScreen(t, Patience, "the rename", Contains("Thread renamed to “Parser work”"))
	th, err := u.Session.ReadThread(ctx, first)
	if err != nil || th.Name == nil || *th.Name != "Parser work" {
		t.Fatalf("thread/read after rename: name %v err %v", th.Name, err)
	}

	u.Submit("/mcp")
	u.WaitScreen(t, Patience, "the MCP list", Contains("No MCP servers configured"))

	u.Submit("/diff")
	u.WaitScreen(t, Patience, "the empty diff", Contains("No diff yet"))

	u.Submit("/compact")
	u.WaitScreen(t, Patience, "the compaction", func(s string) bool { return strings.Contains(s, "Context compacted") && idle(s) })
	if n := len(e.Mock.AllRequests()) - len(e.Mock.Requests()); n != 1 {
		t.Fatalf("%d compaction requests reached the provider, want 1", n)
	}

	u.Submit("/new")
	u.WaitScreen(t, Patience, "a cleared transcript", func(s string) bool { return !strings.Contains(s, "First answer.") })
	second := u.Session.ThreadID()
	if second == first || second == "" {
		t.Fatalf("/new kept thread %q", second)
	}

	u.Submit("/resume")
	u.WaitScreen(t, Patience, "the resume picker", Contains("Resume a thread", "Parser work"))
	u.Key(tea.KeyPressMsg{Code: tea.KeyEscape})
	u.WaitScreen(t, Patience, "the picker closed", func(s string) bool { return !strings.Contains(s, "Resume a thread") })
	if got := u.Session.ThreadID(); got != second {
		t.Fatalf("esc in /resume changed the thread to %q", got)
	}

	// Archive the renamed thread: resume it, then /archive.
	u.Submit("/resume")
	u.WaitScreen(t, Patience, "the resume picker", Contains("Resume a thread", "Parser work"))
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	u.WaitScreen(t, Patience, "the resumed thread", Contains("Resumed thread", "First answer."))
	u.Submit("/archive")
	u.WaitScreen(t, Patience, "the archive notice", Contains("Archived thread"))
	archived, err := u.Session.ListThreads(ctx, backend.ThreadListParams{Archived: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(archived.Data, func(th backend.Thread) bool { return th.ID == first }) {
		t.Fatalf("thread %s not archived: %+v", first, archived.Data)
	}
	if got := u.Session.ThreadID(); got == first {
		t.Fatal("still on the archived thread")
	}
}

// /review runs review/start on the uncommitted changes: a review turn that
// reaches the provider.
func TestReviewUncommittedChanges(t *testing.T) {
	e := NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text(`{"findings":[],"overall_correctness":"patch is correct","overall_explanation":"Looks fine.","overall_confidence_score":0.9}`)}})
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "init"}} {
		if out, err := exec.Command("git", append([]string{"-C", e.Dir}, args...)...).CombinedOutput(); err != nil {
			t.Skipf("git unavailable: %v %s", err, out)
		}
	}
	if err := os.WriteFile(e.Dir+"/new.txt", []byte("uncommitted\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 100, 40)
	u.Connect(t, e, "never", "workspace-write")
	u.Submit("/review")
	u.WaitScreen(t, Patience, "the review", func(s string) bool {
		return strings.Contains(s, "Review started") && strings.Contains(s, "Review finished") && strings.Contains(s, "Looks fine.") && !strings.Contains(s, "esc to interrupt")
	})
	reqs, err := e.Mock.WaitRequests(1, Patience)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(reqs[0].Raw), "new.txt") && !strings.Contains(strings.ToLower(string(reqs[0].Raw)), "uncommitted") {
		t.Fatalf("review request does not mention the uncommitted changes")
	}
}

// /approvals switches a "never" thread to "untrusted" from the next turn
// (turn/start approvalPolicy and sandboxPolicy): the next command asks.
func TestApprovalsCommandAppliesToNextTurn(t *testing.T) {
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand("echo tandem > made.txt")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("All done.")}},
	)
	u := NewTUI(t, model.Options{Workspace: e.Dir, FormGrace: 50 * time.Millisecond}, 100, 30)
	u.Connect(t, e, "never", "danger-full-access")
	u.Submit("/approvals")
	u.WaitScreen(t, Patience, "the approvals picker", Contains("Approvals and sandbox", "Untrusted"))
	u.TM.Type("untrusted")
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	u.WaitScreen(t, Patience, "the notice", Contains("approvals untrusted, sandbox workspace-write from the next turn"))
	u.Submit("make the file")
	u.WaitScreen(t, Patience, "the approval form", Contains("Run this command?", "made.txt"))
	if _, err := os.Stat(e.Dir + "/made.txt"); err == nil {
		t.Fatal("the command ran before it was approved")
	}
}
