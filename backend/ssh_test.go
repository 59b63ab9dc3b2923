package backend_test

// SSH and websocket transports against real components: OpenSSH's sshd
// (internal/sshtest) on 127.0.0.1, the system ssh client, and the pinned
// codex app-server talking to the scripted mock provider. The remote side
// is this machine, so the remote codex is the same binary.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"tandem/backend"
	"tandem/config"
	"tandem/internal/codextest"
	"tandem/internal/mockapi"
	"tandem/internal/sshtest"
)

func TestParseSSHTarget(t *testing.T) {
	tests := []struct {
		in   string
		want backend.SSHTarget
		err  string
	}{
		{in: "dev", want: backend.SSHTarget{Host: "dev"}},
		{in: "me@dev", want: backend.SSHTarget{User: "me", Host: "dev"}},
		{in: "me@10.0.0.1:2222", want: backend.SSHTarget{User: "me", Host: "10.0.0.1", Port: 2222}},
		{in: "[::1]:22", want: backend.SSHTarget{Host: "::1", Port: 22}},
		{in: "::1", want: backend.SSHTarget{Host: "::1"}},
		{in: "a@b@host", want: backend.SSHTarget{User: "a@b", Host: "host"}},
		{in: "", err: "empty host"},
		{in: "me@", err: "empty host"},
		{in: "@dev", err: "empty user"},
		{in: "-oProxyCommand=evil", err: "must not start with -"},
		{in: "dev:0", err: "port must be"},
		{in: "dev:70000", err: "port must be"},
		{in: "dev:ssh", err: "port must be"},
		{in: "[::1", err: "missing ]"},
		{in: "de v", err: "whitespace"},
	}
	for _, tc := range tests {
		got, err := backend.ParseSSHTarget(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseSSHTarget(%q) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseSSHTarget(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

// TestShellQuoteSurvivesShell runs quoted words through a real shell.
func TestShellQuoteSurvivesShell(t *testing.T) {
	words := []string{"plain", "", "it's", "a b", `"dq" $HOME ${X} \n`, "'", "~/x", "new\nline", "-c", "model=\"o3\""}
	var q []string
	for _, w := range words {
		q = append(q, backend.ShellQuote(w))
	}
	out, err := exec.Command("sh", "-c", "set -- "+strings.Join(q, " ")+`; for a in "$@"; do printf '%s\0' "$a"; done`).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if strings.Join(got, "|") != strings.Join(words, "|") {
		t.Fatalf("round trip = %q, want %q", got, words)
	}
}

// TestSSHArgv pins the ssh command line: user options first (ssh keeps
// the first value), then tandem's defaults, then "--" before the target.
func TestSSHArgv(t *testing.T) {
	tr := &backend.SSHTransport{Target: "me@dev:2222", Options: []string{"BatchMode=no", "ProxyJump=bastion"}, ConfigFile: "/tmp/cfg", MCPBlock: []byte("secret = 1")}
	argv, err := tr.Argv()
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(argv[:len(argv)-1], " ")
	want := "ssh -T -F /tmp/cfg -o BatchMode=no -o ProxyJump=bastion -o BatchMode=yes -o ServerAliveInterval=15 -o ServerAliveCountMax=3 -o LogLevel=ERROR -p 2222 -- me@dev"
	if joined != want {
		t.Fatalf("argv = %s\nwant    %s", joined, want)
	}
	remote := argv[len(argv)-1]
	if !strings.HasPrefix(remote, "bash -lc '") || strings.Contains(remote, "secret") {
		t.Fatalf("remote command %q: want a bash -lc bootstrap without the MCP block", remote)
	}
}

// remoteEnv is a mock provider plus a "remote" shared CODEX_HOME and
// workspace, reached through sshd.
type remoteEnv struct {
	codex, home, dir string
	state            string // the remote's XDG_STATE_HOME (per-run homes)
	mock             *mockapi.Server
}

// sshd starts a test sshd whose sessions get this env's XDG_STATE_HOME,
// so per-run homes stay in the test's temp dir.
func (e *remoteEnv) sshd(t *testing.T, banner ...string) *sshtest.Server {
	return sshtest.Start(t, sshtest.Options{Banner: banner, Env: []string{"XDG_STATE_HOME=" + e.state}})
}

func newRemoteEnv(t *testing.T, responses ...mockapi.Response) *remoteEnv {
	t.Helper()
	codex := codextest.Path(t)
	m := mockapi.New(responses...)
	t.Cleanup(m.Close)
	home := t.TempDir()
	if err := mockapi.WriteCodexHome(home, m.URL); err != nil {
		t.Fatal(err)
	}
	e := &remoteEnv{codex: codex, home: home, dir: filepath.Join(t.TempDir(), "work space"), state: t.TempDir(), mock: m}
	// Runs before the temp dirs are removed (cleanups run last-in first):
	// a remote bootstrap whose connection just dropped may still be
	// removing its per-run home, racing the removal of the state dir.
	t.Cleanup(func() { sshtest.WaitRemoteHomes(e.state, 20*time.Second) })
	return e
}

func (e *remoteEnv) transport(srv *sshtest.Server) *backend.SSHTransport {
	return &backend.SSHTransport{
		Target:          srv.Target,
		ConfigFile:      srv.ConfigFile,
		RemoteCodex:     e.codex,
		RemoteWorkspace: e.dir,
		RemoteCodexHome: e.home,
		Grace:           2 * time.Second,
	}
}

func startSession(t *testing.T, tr backend.Transport, cwd string) (*backend.Session, chan any) {
	t.Helper()
	ch := make(chan any, 10000)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := backend.StartSession(ctx, backend.SessionOptions{
		Transport:      tr,
		ClientVersion:  "test",
		Cwd:            cwd,
		ApprovalPolicy: "never",
		Sandbox:        "workspace-write",
		Sink:           func(msg any) { ch <- msg },
	})
	if err != nil {
		t.Fatalf("starting session: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, ch
}

func ctx30(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// awaitTurn collects agent deltas until turn/completed.
func awaitTurn(t *testing.T, ch <-chan any) string {
	t.Helper()
	var text strings.Builder
	deadline := time.After(40 * time.Second)
	for {
		select {
		case v := <-ch:
			switch e := v.(type) {
			case backend.AgentMessageDeltaEvent:
				text.WriteString(e.Delta)
			case backend.TurnCompletedEvent:
				if e.Turn.Status != backend.TurnCompleted {
					t.Fatalf("turn ended %q", e.Turn.Status)
				}
				return text.String()
			case backend.ServerExitedEvent:
				t.Fatalf("server exited mid-turn: %s %v", e.Status, e.Stderr)
			}
		case <-deadline:
			t.Fatalf("no turn/completed after 40s (text so far %q)", text.String())
		}
	}
}

var perRunHomeRE = regexp.MustCompile(`/[^"]*tandem-codex-home\.[A-Za-z0-9]+`)

// TestSSHTurnThroughChattyLoginShell: a remote that prints a banner (a
// ForceCommand wrapper in the test sshd, like motd or .bashrc echo) still
// gives a working session; the MCP block travels on stdin, lands in the
// per-run CODEX_HOME, and never shows in any process's command line; the
// per-run home is gone after Close.
func TestSSHTurnThroughChattyLoginShell(t *testing.T) {
	e := newRemoteEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("Hello from the remote side.")}})
	srv := e.sshd(t,
		"Welcome to the tandem test box!",
		"",
		"{ this looks like JSON but is not",
		"\x1b[1;32mLast login: yesterday\x1b[0m",
		"[1] not a message either",
	)
	// A per-run home left by a run that died without cleanup (its bash
	// pid is gone) is removed by the next start.
	homes := filepath.Join(e.state, "tandem", "remote-homes")
	stale := filepath.Join(homes, "tandem-codex-home.STALE1")
	if err := os.MkdirAll(stale, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(stale, ".tandem-pid"), []byte("999999999\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tr := e.transport(srv)
	var logBuf sshtest.LockedBuffer // a log sink safe for concurrent writers
	tr.Log = slog.New(slog.NewTextHandler(&logBuf, nil))
	secret := fmt.Sprintf("tandem-mcp-secret-%d", time.Now().UnixNano())
	timeout := 1.0
	block, err := backend.ManagedMCPBlock(map[string]config.MCPServer{"secretive": {
		Command: "/bin/true", StartupTimeoutSec: &timeout,
		Env: map[string]string{"SECRETIVE_API_TOKEN": secret},
	}})
	if err != nil {
		t.Fatal(err)
	}
	tr.MCPBlock = block

	s, ch := startSession(t, tr, e.dir)
	if got := s.Describe(); got != "ssh 127.0.0.1" {
		t.Errorf("Describe() = %q, want %q", got, "ssh 127.0.0.1")
	}
	if _, err := s.StartThread(ctx30(t)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.StartTurn(ctx30(t), "hi"); err != nil {
		t.Fatal(err)
	}
	scan := make(chan []string, 1)
	go func() { // scan while the turn runs
		var hits []string
		for _, p := range sshtest.Processes() {
			if strings.Contains(strings.Join(p.Argv, " "), secret) {
				hits = append(hits, fmt.Sprintf("pid %d: %q", p.PID, p.Argv))
			}
		}
		scan <- hits
	}()
	if got := awaitTurn(t, ch); got != "Hello from the remote side." {
		t.Fatalf("agent text = %q", got)
	}
	if n := strings.Count(logBuf.String(), "skipping remote login-shell output"); n != 4 {
		t.Errorf("logged %d skipped banner lines, want 4:\n%s", n, logBuf.String())
	}
	if hits := <-scan; len(hits) > 0 {
		t.Fatalf("MCP secret on a command line:\n%s", strings.Join(hits, "\n"))
	}

	// The app-server runs in the workspace, with the MCP server configured.
	var cfg json.RawMessage
	if err := s.Call(ctx30(t), "config/read", map[string]any{"includeLayers": true}, &cfg); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(cfg), "secretive") {
		t.Fatalf("config/read lacks the managed MCP server: %s", cfg)
	}
	home := perRunHomeRE.FindString(string(cfg))
	if home == "" || filepath.Dir(home) != homes {
		t.Fatalf("config/read names no per-run CODEX_HOME under %s: %s", homes, cfg)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale per-run home survived the start: %v", err)
	}
	st, err := os.Stat(home)
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("per-run home %s: %v (mode %v), want 0700", home, err, st)
	}
	if target, err := os.Readlink(filepath.Join(home, "sessions")); err != nil || target != filepath.Join(e.home, "sessions") {
		t.Fatalf("sessions link = %q, %v", target, err)
	}
	if _, err := os.Stat(filepath.Join(e.dir)); err != nil {
		t.Fatalf("workspace not created: %v", err)
	}
	for _, p := range sshtest.Processes() {
		if strings.Contains(strings.Join(p.Argv, " "), secret) {
			t.Fatalf("MCP secret on a command line: pid %d %q", p.PID, p.Argv)
		}
	}

	s.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(home); os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("per-run home %s still exists after Close", home)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestSSHTooMuchNoiseFails: past MaxNoiseLines of non-JSON output the
// session fails with a message that says why.
func TestSSHTooMuchNoiseFails(t *testing.T) {
	banner := make([]string, backend.MaxNoiseLines+20)
	for i := range banner {
		banner[i] = fmt.Sprintf("noise line %d", i)
	}
	e := newRemoteEnv(t)
	srv := e.sshd(t, banner...)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err := backend.StartSession(ctx, backend.SessionOptions{Transport: e.transport(srv), Sink: func(any) {}})
	t.Log(err)
	if err == nil || !strings.Contains(err.Error(), "more than 200 lines of non-JSON output") || !strings.HasPrefix(err.Error(), "ssh 127.0.0.1: ") {
		t.Fatalf("error = %v, want the noise cap named", err)
	}
}

// TestSSHAuthFailureIsClear: a key the server does not accept gives one
// clear line, not a protocol error.
func TestSSHAuthFailureIsClear(t *testing.T) {
	e := newRemoteEnv(t)
	srv := e.sshd(t)
	other := filepath.Join(t.TempDir(), "other_key")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", other).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v %s", err, out)
	}
	cfg, err := os.ReadFile(srv.ConfigFile)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "ssh_config")
	if err := os.WriteFile(bad, []byte(strings.Replace(string(cfg), srv.KeyFile, other, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	tr := e.transport(srv)
	tr.ConfigFile = bad
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = backend.StartSession(ctx, backend.SessionOptions{Transport: tr, Sink: func(any) {}})
	t.Log(err)
	var re *backend.RemoteError
	if err == nil || !errors.As(err, &re) || !strings.Contains(err.Error(), "ssh 127.0.0.1: authentication failed (exit 255") || !strings.Contains(err.Error(), "Permission denied") {
		t.Fatalf("error = %v, want a RemoteError naming the authentication failure", err)
	}
}

// TestSSHMissingRemoteCodex: a wrong --remote-codex is named plainly.
func TestSSHMissingRemoteCodex(t *testing.T) {
	e := newRemoteEnv(t)
	srv := e.sshd(t)
	tr := e.transport(srv)
	tr.RemoteCodex = "/nonexistent/codex"
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := backend.StartSession(ctx, backend.SessionOptions{Transport: tr, Sink: func(any) {}})
	if err == nil || !strings.Contains(err.Error(), "remote setup failed: tandem: remote codex not found: /nonexistent/codex") {
		t.Fatalf("error = %v", err)
	}
}

// TestSSHDropMidTurnThenResume: killing the ssh client mid-turn ends the
// session with "connection lost"; a new run of the same transport resumes
// the thread and its history has the finished turn and the interrupted
// one's prompt.
func TestSSHDropMidTurnThenResume(t *testing.T) {
	e := newRemoteEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("First answer, complete.")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.TextChunks(strings.SplitAfter(strings.Repeat("slow ", 200), " ")...)}, ChunkDelay: 50 * time.Millisecond},
	)
	srv := e.sshd(t)
	tr := e.transport(srv)
	s, ch := startSession(t, tr, e.dir)
	th, err := s.StartThread(ctx30(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.StartTurn(ctx30(t), "first question"); err != nil {
		t.Fatal(err)
	}
	awaitTurn(t, ch)
	if _, err := s.StartTurn(ctx30(t), "second question"); err != nil {
		t.Fatal(err)
	}
	awaitDelta := time.After(30 * time.Second)
wait:
	for {
		select {
		case v := <-ch:
			if _, ok := v.(backend.AgentMessageDeltaEvent); ok {
				break wait
			}
		case <-awaitDelta:
			t.Fatal("second turn never streamed")
		}
	}
	pids := srv.ClientPIDs()
	if len(pids) == 0 {
		t.Fatal("no ssh client process found")
	}
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	deadline := time.After(20 * time.Second)
	var exited backend.ServerExitedEvent
loop:
	for {
		select {
		case v := <-ch:
			if x, ok := v.(backend.ServerExitedEvent); ok {
				exited = x
				break loop
			}
		case <-deadline:
			t.Fatal("no ServerExitedEvent after killing ssh")
		}
	}
	if exited.Status != "ssh 127.0.0.1: connection lost (ssh killed by signal 9)" {
		t.Errorf("exit status = %q, want the ssh client's SIGKILL", exited.Status)
	}

	// Reconnect with the same transport and resume.
	s2, _ := startSession(t, tr, e.dir)
	resp, err := s2.ResumeThread(ctx30(t), th.Thread.ID)
	if err != nil {
		t.Fatalf("thread/resume after reconnect: %v", err)
	}
	hist, _ := json.Marshal(resp.Thread.Turns)
	for _, want := range []string{"first question", "First answer, complete.", "second question"} {
		if !strings.Contains(string(hist), want) {
			t.Errorf("resumed history lacks %q: %s", want, hist)
		}
	}
}

// TestSSHDroppedConnectionIsNamed: when the remote end goes away (sshd's
// connection process dies), ssh exits 255 and the session ends with
// "connection lost", not a bare exit status.
func TestSSHDroppedConnectionIsNamed(t *testing.T) {
	e := newRemoteEnv(t)
	srv := e.sshd(t)
	s, ch := startSession(t, e.transport(srv), e.dir)
	if _, err := s.StartThread(ctx30(t)); err != nil {
		t.Fatal(err)
	}
	if n := srv.DropConnections(); n == 0 {
		t.Fatal("no sshd connection process to kill")
	}
	deadline := time.After(20 * time.Second)
	for {
		select {
		case v := <-ch:
			if x, ok := v.(backend.ServerExitedEvent); ok {
				t.Log(x.Status)
				if !strings.HasPrefix(x.Status, "ssh 127.0.0.1: connection lost (exit 255)") {
					t.Fatalf("exit status = %q, want the lost connection named", x.Status)
				}
				return
			}
		case <-deadline:
			t.Fatal("no ServerExitedEvent after the connection dropped")
		}
	}
}
