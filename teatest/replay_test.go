package teatest

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"tandem/backend"
	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
	"tandem/model"
	"tandem/sessions"
	"tandem/sessions/demo"
)

// replayInto plays rec into u the way `tandem replay` does (the player's
// ThreadReady becomes the model's SessionReadyMsg) and waits for the end.
func replayInto(t *testing.T, u *e2e.TUI, rec *sessions.Recording, speed float64) {
	t.Helper()
	p := sessions.NewPlayer(rec, sessions.PlayerOptions{Speed: speed, IdleLimit: 100 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), e2e.Patience)
	defer cancel()
	p.Run(ctx, func(v any) {
		switch x := v.(type) {
		case sessions.ThreadReady:
			u.TM.Send(model.SessionReadyMsg{ThreadID: x.ThreadID, Model: x.Model, Cwd: "~/project", ThreadCwd: x.Cwd, Approval: x.Approval, Sandbox: x.Sandbox, Peer: "replay"})
		case sessions.PlayerStatus:
		default:
			u.TM.Send(v)
		}
	})
	if ctx.Err() != nil {
		t.Fatal("replay did not finish")
	}
}

// transcriptPart drops the status line (elapsed time and peer differ
// between a live run and its replay).
func transcriptPart(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	return strings.Join(lines[:len(lines)-1], "\n")
}

// TestReplayMatchesLive records a live session (real codex, mock model)
// with --record's recorder, replays it into a fresh model, and compares
// the final screens.
func TestReplayMatchesLive(t *testing.T) {
	env := e2e.NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Reasoning("Checking the files"), mockapi.Text("Here is a **table**:\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```sh\necho hi\n```\n"), mockapi.ExecCommand("echo replayed")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Done, it printed `replayed`.")}, Usage: mockapi.Usage{InputTokens: 1000, OutputTokens: 50}},
	)
	path := filepath.Join(t.TempDir(), "live.jsonl")
	rec, err := sessions.CreateRecorder(path, sessions.Header{Tandem: "test", Width: 90, Height: 30, Cwd: "~/project"})
	if err != nil {
		t.Fatal(err)
	}
	opts := model.Options{Now: func() time.Time { return time.Unix(0, 0) }, FormGrace: time.Millisecond}
	live := e2e.NewFrozenTUI(t, opts, 90, 30)
	ctx, cancel := context.WithTimeout(context.Background(), e2e.Patience)
	defer cancel()
	sess, err := backend.StartSession(ctx, backend.SessionOptions{
		Transport: env.Transport(), ClientVersion: "test", Cwd: env.Dir,
		ApprovalPolicy: "never", Sandbox: "workspace-write",
		Sink:  func(msg any) { live.TM.Send(msg) },
		Trace: rec.Trace,
	})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := sess.StartThread(ctx)
	if err != nil {
		t.Fatal(err)
	}
	live.TM.Send(model.SessionReadyMsg{Client: sess, ThreadID: resp.Thread.ID, Model: resp.Model, Cwd: "~/project", Approval: "never", Sandbox: "workspace-write"})
	live.Submit("show a table and run a command")
	liveScreen := live.WaitScreen(t, e2e.Patience, "the turn to finish", func(s string) bool {
		return strings.Contains(s, "it printed") && !strings.Contains(s, "Working")
	})
	sess.Close()
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}

	loaded, err := sessions.LoadRecording(path)
	if err != nil {
		t.Fatal(err)
	}
	ropts := opts
	ropts.Shared = true // as runReplay: prompts come from the recorded items
	replay := e2e.NewFrozenTUI(t, ropts, 90, 30)
	replayInto(t, replay, loaded, 16)
	replayScreen := replay.WaitScreen(t, e2e.Patience, "the replay to finish", func(s string) bool {
		return strings.Contains(s, "it printed") && !strings.Contains(s, "Working")
	})
	if a, b := transcriptPart(liveScreen), transcriptPart(replayScreen); a != b {
		t.Errorf("replay differs from the live screen\n--- live\n%s\n--- replay\n%s", a, b)
	}
}

// TestGoldenDemoFinalScreen replays the embedded demo at 80×24 and pins
// its final screen.
func TestGoldenDemoFinalScreen(t *testing.T) {
	rec, err := sessions.ReadRecording(bytes.NewReader(demo.Transcript))
	if err != nil {
		t.Fatal(err)
	}
	u := e2e.NewFrozenTUI(t, model.Options{Now: func() time.Time { return time.Unix(0, 0) }, FormGrace: time.Millisecond, Shared: true}, 80, 24)
	replayInto(t, u, rec, 16)
	screen := u.WaitScreen(t, e2e.Patience, "the demo's end", func(s string) bool {
		return strings.Contains(s, "greets like a pirate") && !strings.Contains(s, "Working") && !strings.Contains(s, "Apply these changes?")
	})
	teatest.RequireEqualOutput(t, []byte(screen))
}

// A message sent while a turn runs (turn/steer) is replayed too: the
// prompts come from the server's userMessage items, steers included.
func TestReplayShowsSteer(t *testing.T) {
	var buf bytes.Buffer
	rec := sessions.NewRecorder(&buf, nil, sessions.Header{Tandem: "test", Width: 80, Height: 24})
	lines := []struct {
		dir  backend.Direction
		line string
	}{
		{backend.Sent, `{"id":1,"method":"thread/start","params":{}}`},
		{backend.Received, `{"id":1,"result":{"thread":{"id":"th","turns":[]},"model":"m","cwd":"/w","approvalPolicy":"never","sandbox":{"type":"readOnly"}}}`},
		{backend.Sent, `{"id":2,"method":"turn/start","params":{"threadId":"th","input":[{"type":"text","text":"go"}]}}`},
		{backend.Received, `{"method":"turn/started","params":{"threadId":"th","turn":{"id":"tu","items":[],"status":"inProgress"}}}`},
		{backend.Received, `{"method":"item/completed","params":{"threadId":"th","turnId":"tu","item":{"type":"userMessage","id":"u1","content":[{"type":"text","text":"go"}]}}}`},
		{backend.Received, `{"method":"item/agentMessage/delta","params":{"threadId":"th","turnId":"tu","itemId":"a1","delta":"Working on "}}`},
		{backend.Sent, `{"id":3,"method":"turn/steer","params":{"threadId":"th","input":[{"type":"text","text":"please steer now"}],"expectedTurnId":"tu"}}`},
		{backend.Received, `{"method":"item/completed","params":{"threadId":"th","turnId":"tu","item":{"type":"userMessage","id":"u2","content":[{"type":"text","text":"please steer now"}]}}}`},
		{backend.Received, `{"method":"item/completed","params":{"threadId":"th","turnId":"tu","item":{"type":"agentMessage","id":"a2","text":"Steered answer."}}}`},
		{backend.Received, `{"method":"turn/completed","params":{"threadId":"th","turn":{"id":"tu","items":[],"status":"completed"}}}`},
	}
	for _, l := range lines {
		rec.Trace(l.dir, []byte(l.line))
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	loaded, err := sessions.ReadRecording(&buf)
	if err != nil {
		t.Fatal(err)
	}
	u := e2e.NewFrozenTUI(t, model.Options{Now: func() time.Time { return time.Unix(0, 0) }, Shared: true}, 80, 24)
	replayInto(t, u, loaded, 16)
	s := u.WaitScreen(t, e2e.Patience, "the steered answer", e2e.Contains("Steered answer."))
	for _, want := range []string{"▌ go", "▌ please steer now"} {
		if n := strings.Count(s, want); n != 1 {
			t.Errorf("%q shows %d times:\n%s", want, n, s)
		}
	}
}
