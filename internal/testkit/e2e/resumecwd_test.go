package e2e

import (
	"context"
	"strings"
	"testing"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// A thread started in directory A and resumed by a tandem standing in B
// runs its next command in A and says so (resume_cwd "session", the
// default); with resume_cwd "current" it runs in B, saying the thread
// was started in A.
func TestResumeFromAnotherWorkspace(t *testing.T) {
	cases := []struct {
		mode   backend.ResumeCwd
		inA    bool   // the next command runs in A (else in B)
		notice string // what the screen says, squashed
	}{
		{"", true, "resumed in %A (the thread's workspace)"},
		{backend.ResumeCwdCurrent, false, `this thread was started in %A; it runs here, in %B (resume_cwd = "current")`},
	}
	for _, c := range cases {
		t.Run("mode="+string(c.mode), func(t *testing.T) {
			e := NewEnv(t,
				mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand("pwd")}},
				mockapi.Response{Items: []mockapi.Item{mockapi.Text("First answer.")}},
				mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand("pwd")}},
				mockapi.Response{Items: []mockapi.Item{mockapi.Text("Second answer.")}},
			)
			a, b := e.Dir, t.TempDir()
			// The thread starts, and runs its first command, in A.
			u1 := NewTUI(t, model.Options{Workspace: a}, 160, 30)
			u1.Connect(t, e, "never", "workspace-write")
			u1.Submit("where are we?")
			u1.WaitScreen(t, Patience, "the first answer", func(s string) bool {
				return strings.Contains(s, "First answer.") && !strings.Contains(s, "esc to interrupt")
			})
			id := u1.Session.ThreadID()
			if out := lastOutput(t, e.Mock); !strings.Contains(out, a) {
				t.Fatalf("first pwd ran elsewhere than A (%s): %q", a, out)
			}
			_ = u1.Session.Close()

			// `tandem resume ID` from B.
			u2 := NewTUI(t, model.Options{Workspace: b}, 160, 30)
			ctx, cancel := context.WithTimeout(context.Background(), Patience)
			defer cancel()
			tr := e.Transport()
			tr.Dir = b
			s, err := backend.StartSession(ctx, backend.SessionOptions{
				Transport: tr, ClientVersion: "test", Cwd: b, ApprovalPolicy: "never", Sandbox: "workspace-write",
				ResumeCwd: c.mode, Sink: func(msg any) { u2.TM.Send(msg) },
			})
			if err != nil {
				t.Fatalf("starting session: %v", err)
			}
			t.Cleanup(func() { s.Close() })
			u2.Session = s
			u2.TM.Send(model.SessionReadyMsg{Client: s, Peer: s.Describe(), Resume: &model.ResumeRequest{ID: id}})
			notice := strings.NewReplacer("%A", a, "%B", b).Replace(c.notice)
			u2.WaitScreen(t, Patience, "the resume's notice", func(s string) bool {
				return strings.Contains(Squash(s), Squash(notice)) && strings.Contains(s, "First answer.")
			})
			u2.Submit("and now?")
			u2.WaitScreen(t, Patience, "the second answer", func(s string) bool {
				return strings.Contains(s, "Second answer.") && !strings.Contains(s, "esc to interrupt")
			})
			want, not := a, b
			if !c.inA {
				want, not = b, a
			}
			if out := lastOutput(t, e.Mock); !strings.Contains(out, want) || strings.Contains(out, not) {
				t.Fatalf("the resumed thread's pwd printed %q, want %s", out, want)
			}
		})
	}
}

// lastOutput is the output of the newest tool call given back to the
// model: in the last request, and in none before it.
func lastOutput(t *testing.T, m *mockapi.Server) string {
	t.Helper()
	reqs := m.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request reached the mock")
	}
	seen := map[string]bool{}
	for _, r := range reqs[:len(reqs)-1] {
		for id := range r.FunctionCallOutputs() {
			seen[id] = true
		}
	}
	var outs []string
	for id, out := range reqs[len(reqs)-1].FunctionCallOutputs() {
		if !seen[id] {
			outs = append(outs, out)
		}
	}
	if len(outs) != 1 {
		t.Fatalf("want one new tool output in the last request, got %q", outs)
	}
	return outs[0]
}
