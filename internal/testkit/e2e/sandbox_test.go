package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
)

// A sandbox chosen for a turn (turn/start's sandboxPolicy, as /approvals
// sends it) follows the user's [sandbox_workspace_write]: the thread
// starts read-only; the turn switches to workspace-write, and its command
// can write into the config's writable root A and the --add-dir root B,
// but not into C — the config's exclude_slash_tmp = true holds (codex's
// default policy would make all of /tmp writable).
func TestTurnSandboxKeepsConfigRoots(t *testing.T) {
	base := t.TempDir()
	a, b, c := filepath.Join(base, "A"), filepath.Join(base, "B"), filepath.Join(base, "C")
	for _, d := range []string{a, b, c} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand("touch " + a + "/x; touch " + b + "/y; touch " + c + "/z; true")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("wrote")}},
	)
	f, err := os.OpenFile(filepath.Join(e.Home, "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("\n[sandbox_workspace_write]\nwritable_roots = [\"" + a + "\"]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n")
	f.Close()

	ch := make(chan any, 1000)
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	s, err := backend.StartSession(ctx, backend.SessionOptions{
		Transport: e.Transport(), ClientVersion: "test", Cwd: e.Dir,
		ApprovalPolicy: "never", Sandbox: "read-only", AddDirs: []string{b},
		Sink: func(msg any) { ch <- msg },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	resp, err := s.StartThread(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Sandbox.Type != "readOnly" {
		t.Fatalf("thread/start sandbox %+v, want read-only", resp.Sandbox)
	}
	if _, err := s.StartTurn(ctx, backend.TurnInput{Text: "write", TurnOptions: backend.TurnOptions{Sandbox: "workspace-write"}}); err != nil {
		t.Fatal(err)
	}
	Await[backend.TurnCompletedEvent](t, ch, Patience, nil)
	for _, p := range []string{filepath.Join(a, "x"), filepath.Join(b, "y")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was not written under the turn's workspace-write: %v", p, err)
		}
	}
	if _, err := os.Stat(filepath.Join(c, "z")); err == nil {
		t.Errorf("C was writable: the turn's sandbox dropped the config's exclude_slash_tmp")
	}
}
