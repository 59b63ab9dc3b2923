package backend_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
)

// wsServer is `codex app-server --listen ws://127.0.0.1:PORT --ws-auth
// capability-token --ws-token-file F` on a remoteEnv.
type wsServer struct {
	url, tokenFile, token string
}

func startWSServer(t *testing.T, e *remoteEnv) *wsServer {
	t.Helper()
	dir := t.TempDir()
	token := fmt.Sprintf("tandem-ws-token-%d", time.Now().UnixNano())
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	if err := os.MkdirAll(e.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(e.codex, "app-server", "--listen", "ws://"+addr, "--ws-auth", "capability-token", "--ws-token-file", tokenFile)
	cmd.Dir = e.dir
	cmd.Env = append(os.Environ(), "CODEX_HOME="+e.home)
	stderr := backend.NewRing(50, 16<<10)
	cmd.Stderr = stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(3 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	})
	deadline := time.Now().Add(backend.Patience)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			break
		}
		select {
		case <-exited:
			t.Fatalf("codex ws app-server exited: %s", strings.Join(stderr.Tail(20), "\n"))
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("codex ws app-server not listening on %s: %s", addr, strings.Join(stderr.Tail(20), "\n"))
		}
		time.Sleep(50 * time.Millisecond)
	}
	return &wsServer{url: "ws://" + addr, tokenFile: tokenFile, token: token}
}

// TestWSAttachRunsTurn attaches to a running websocket app-server with the
// capability token and runs a full turn with a command approval.
func TestWSAttachRunsTurn(t *testing.T) {
	e := newRemoteEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand("echo tandem > made-over-ws.txt")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Made it over the websocket.")}},
	)
	ws := startWSServer(t, e)
	tr := &backend.WSTransport{URL: ws.url, TokenFile: ws.tokenFile}
	ch := make(chan any, 10000)
	ctx, cancel := context.WithTimeout(context.Background(), backend.Patience)
	defer cancel()
	s, err := backend.StartSession(ctx, backend.SessionOptions{
		Transport: tr, ClientVersion: "test", Cwd: e.dir,
		ApprovalPolicy: "untrusted", Sandbox: "workspace-write",
		Sink: func(msg any) { ch <- msg }, InitTimeout: backend.Patience,
	})
	if err != nil {
		t.Fatalf("attach: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	if want := "ws " + strings.TrimPrefix(ws.url, "ws://"); s.Describe() != want {
		t.Errorf("Describe() = %q, want %q", s.Describe(), want)
	}
	if _, err := s.StartThread(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.StartTurn(ctx, backend.TurnInput{Text: "make the file"}); err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	approved := false
	deadline := time.After(backend.Patience)
	for done := false; !done; {
		select {
		case v := <-ch:
			switch x := v.(type) {
			case *backend.CommandApprovalRequest:
				if err := x.Answer(backend.Accept); err != nil {
					t.Fatal(err)
				}
				approved = true
			case backend.AgentMessageDeltaEvent:
				text.WriteString(x.Delta)
			case backend.TurnCompletedEvent:
				done = true
			case backend.ServerExitedEvent:
				t.Fatalf("connection ended: %s", x.Status)
			}
		case <-deadline:
			t.Fatalf("no turn/completed (text %q)", text.String())
		}
	}
	if !approved {
		t.Error("no command approval arrived")
	}
	if text.String() != "Made it over the websocket." {
		t.Errorf("agent text = %q", text.String())
	}
	if b, err := os.ReadFile(filepath.Join(e.dir, "made-over-ws.txt")); err != nil || string(b) != "tandem\n" {
		t.Errorf("approved command did not run: %q %v", b, err)
	}
}

// TestWSWrongTokenIsClear: a wrong or missing token is refused with a
// message that names the token file and never shows the token.
func TestWSWrongTokenIsClear(t *testing.T) {
	e := newRemoteEnv(t)
	ws := startWSServer(t, e)
	wrong := filepath.Join(t.TempDir(), "wrong")
	if err := os.WriteFile(wrong, []byte("not-the-token"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, want string }{
		{wrong, "the server refused the token (HTTP 401); check --remote-token-file"},
		{"", "the server requires a token (HTTP 401)"},
	} {
		_, err := (&backend.WSTransport{URL: ws.url, TokenFile: tc.file}).Start()
		t.Log(err)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "not-the-token") {
			t.Errorf("token file %q: error = %v, want %q", tc.file, err, tc.want)
		}
	}
}
