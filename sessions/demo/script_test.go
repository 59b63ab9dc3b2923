package demo

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tandem/backend"
	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
	"tandem/sessions"
)

// scriptedTurn is one prompt of a recorded session and how long to wait
// before answering each server request it raises.
type scriptedTurn struct {
	prompt string
	// answer replies to a server request; nil accepts approvals and answers
	// questions with the first option.
	answer func(req backend.ServerRequest)
	// mode, when set, starts the turn in this collaboration mode
	// ("plan" or "default"; experimental turn/start field).
	mode string
}

// recordSession runs turns against the real app-server (approval
// "untrusted", sandbox "workspace-write") with the mock answering from
// responses, recording the protocol to path. pause is slept before each
// prompt and each answer so a replay shows every step.
func recordSession(t *testing.T, path, workspace string, pause time.Duration, responses []mockapi.Response, turns []scriptedTurn, codexArgs ...string) {
	t.Helper()
	env := e2e.NewEnv(t, responses...)
	if workspace != "" {
		if err := os.MkdirAll(workspace, 0o755); err != nil {
			t.Fatal(err)
		}
		env.Dir = workspace
	}
	rec, err := sessions.CreateRecorder(path, sessions.Header{Tandem: "demo", Width: 100, Height: 30, Cwd: "~/project"})
	if err != nil {
		t.Fatal(err)
	}
	transport := env.Transport()
	transport.Args = append(transport.Args, codexArgs...)
	ch := make(chan any, 100000)
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	sess, err := backend.StartSession(ctx, backend.SessionOptions{
		Transport:      transport,
		ClientVersion:  "demo",
		Cwd:            env.Dir,
		ApprovalPolicy: "untrusted",
		Sandbox:        "workspace-write",
		Sink:           func(msg any) { ch <- msg },
		Trace: func(dir backend.Direction, line []byte) {
			// The sandbox warning is about the recording machine, not
			// the session shown.
			if dir == backend.Received && strings.Contains(string(line), `"method":"configWarning"`) {
				return
			}
			rec.Trace(dir, line)
		},
	})
	if err != nil {
		t.Fatalf("starting session: %v", err)
	}
	defer func() {
		sess.Close()
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
	}()
	if _, err := sess.StartThread(ctx); err != nil {
		t.Fatal(err)
	}
	for _, turn := range turns {
		time.Sleep(pause)
		if err := startTurn(ctx, sess, turn); err != nil {
			t.Fatal(err)
		}
	wait:
		for {
			select {
			case v := <-ch:
				switch r := v.(type) {
				case backend.ServerRequest:
					time.Sleep(pause)
					if turn.answer != nil {
						turn.answer(r)
					} else {
						answerDefault(t, r)
					}
				case backend.TurnCompletedEvent:
					break wait
				}
			case <-ctx.Done():
				t.Fatal("timed out waiting for the turn to complete")
			}
		}
	}
	time.Sleep(pause / 2)
}

func answerDefault(t *testing.T, req backend.ServerRequest) {
	var err error
	switch r := req.(type) {
	case *backend.CommandApprovalRequest:
		err = r.Answer(backend.Accept)
	case *backend.FileChangeApprovalRequest:
		err = r.Answer(backend.Accept)
	case *backend.ToolCallRequest:
		args, perr := backend.ParseAskUserQuestion(r.Params.Arguments)
		if perr != nil {
			err = r.Fail(perr.Error())
			break
		}
		// The first option of each question, as the form would send it.
		answers := map[string][]string{}
		for _, q := range args.Questions {
			if len(q.Options) > 0 {
				answers[q.ID] = []string{q.Options[0].Value}
			}
		}
		err = r.AnswerQuestions(answers)
	default:
		err = req.Refuse()
	}
	if err != nil {
		t.Errorf("answering %s: %v", req.Method(), err)
	}
}

func execArgs(cmd string) string {
	b, _ := json.Marshal(mockapi.ExecCommandArgs{Cmd: cmd})
	return string(b)
}

func jsonArgs(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// demoWorkspace is where the demo session's files are written, so the
// paths on screen are short and stable.
func demoWorkspace(t *testing.T) string {
	dir := filepath.Join(os.TempDir(), "tandem-demo", "project")
	_ = os.RemoveAll(dir)
	t.Cleanup(func() { os.RemoveAll(filepath.Dir(dir)) })
	return dir
}

// startTurn runs turn/start, with the collaboration mode when one is set.
func startTurn(ctx context.Context, sess *backend.Session, turn scriptedTurn) error {
	in := backend.TurnInput{Text: turn.prompt}
	if turn.mode != "" {
		in.Collaboration = &backend.CollaborationMode{Mode: turn.mode, Settings: backend.CollaborationSettings{Model: mockapi.DefaultModel}}
	}
	_, err := sess.StartTurn(ctx, in)
	return err
}
