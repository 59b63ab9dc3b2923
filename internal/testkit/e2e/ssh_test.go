package e2e

// Issue #7 on screen: the TUI driving the real codex through a real sshd.
// Transport-level cases (noise cap, auth failure, MCP secrets, websocket)
// are in backend/ssh_test.go and backend/ws_test.go.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
	"tandem/internal/testkit/sshtest"
	"tandem/model"
)

// A full turn with a command approval over SSH, through a login shell
// that prints a banner; the status line names the remote host.
func TestSSHApprovalTurnOnScreen(t *testing.T) {
	e := NewEnv(t, approvalScript()...)
	srv := e.StartSSHD(t, "Welcome to the remote box", "Last login: never")
	u := NewTUI(t, model.Options{FormGrace: 50 * time.Millisecond}, 110, 30)
	u.ConnectWith(t, e.SSHTransport(srv), e.Dir, "untrusted", "workspace-write")
	u.WaitScreen(t, Patience, "the remote host on the status line", Contains("ssh 127.0.0.1"))
	u.Submit("make the file")
	u.WaitScreen(t, Patience, "the approval form", Contains("Run this command?", "made.txt"))
	time.Sleep(150 * time.Millisecond) // the form takes keys after its grace period
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	screen := u.WaitScreen(t, Patience, "the command output and answer", Contains("printed-by-command", "All done."))
	if strings.Contains(screen, "Welcome to the remote box") {
		t.Errorf("login banner leaked onto the screen:\n%s", screen)
	}
	if b, err := os.ReadFile(filepath.Join(e.Dir, "made.txt")); err != nil || string(b) != "tandem\n" {
		t.Fatalf("approved command did not run on the remote: %q %v", b, err)
	}
}

// Killing the ssh client mid-turn shows the dropped-connection banner;
// a new session on the same transport resumes the thread, and a TUI fed
// its history shows the earlier turns.
func TestSSHDropThenResumeShowsHistory(t *testing.T) {
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("The first answer.")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.TextChunks(strings.SplitAfter(strings.Repeat("slow ", 200), " ")...)}, ChunkDelay: 50 * time.Millisecond},
	)
	srv := e.StartSSHD(t)
	tr := e.SSHTransport(srv)
	u := NewTUI(t, model.Options{}, 110, 30)
	u.ConnectWith(t, tr, e.Dir, "never", "workspace-write")
	u.Submit("first question")
	u.WaitScreen(t, Patience, "the first answer", Contains("The first answer."))
	u.Submit("second question")
	u.WaitScreen(t, Patience, "the second turn streaming", Contains("slow slow"))
	pids := srv.ClientPIDs()
	if len(pids) == 0 {
		t.Fatal("no ssh client process")
	}
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	u.WaitScreen(t, Patience, "the dropped-connection banner", Contains("ssh 127.0.0.1: connection lost"))
	threadID := u.Session.ThreadID()

	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	u2 := NewTUI(t, model.Options{}, 110, 30)
	s, err := backend.StartSession(ctx, backend.SessionOptions{Transport: tr, ClientVersion: "test", Cwd: e.Dir, Sink: func(msg any) { u2.TM.Send(msg) }})
	if err != nil {
		t.Fatalf("reconnect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	resp, err := s.ResumeThread(ctx, threadID)
	if err != nil {
		t.Fatalf("thread/resume: %v", err)
	}
	u2.TM.Send(model.SessionReadyMsg{Client: s, Model: resp.Model, Cwd: resp.Cwd, Peer: s.Describe(), History: resp.Thread.Turns})
	u2.WaitScreen(t, Patience, "the resumed history", Contains("first question", "The first answer.", "second question", "ssh 127.0.0.1"))
}

// The same approval turn when the remote login shell is fish (whose
// quoting differs from POSIX) and the workspace name holds a space and a
// single quote: the app-server runs there and the command writes there.
func TestSSHApprovalTurnUnderFish(t *testing.T) {
	fish := sshtest.RequireShell(t, "fish")
	e := NewEnv(t, approvalScript()...)
	srv := e.StartSSHDWith(t, sshtest.Options{Shell: fish, Banner: []string{"Welcome to fish, it's friendly"}})
	tr := e.SSHTransport(srv)
	ws := filepath.Join(e.Dir, `it's a \' dir`)
	tr.RemoteWorkspace = ws
	u := NewTUI(t, model.Options{FormGrace: 50 * time.Millisecond}, 110, 30)
	u.ConnectWith(t, tr, ws, "untrusted", "workspace-write")
	u.WaitScreen(t, Patience, "the remote host on the status line", Contains("ssh 127.0.0.1"))
	u.Submit("make the file")
	u.WaitScreen(t, Patience, "the approval form", Contains("Run this command?", "made.txt"))
	time.Sleep(150 * time.Millisecond) // the form takes keys after its grace period
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	u.WaitScreen(t, Patience, "the command output and answer", Contains("printed-by-command", "All done."))
	if b, err := os.ReadFile(filepath.Join(ws, "made.txt")); err != nil || string(b) != "tandem\n" {
		t.Fatalf("approved command did not run in the remote workspace %q: %q %v", ws, b, err)
	}
}
