package backend_test

// SSH and websocket transports against real components: OpenSSH's sshd
// (internal/testkit/sshtest) on 127.0.0.1, the system ssh client, and the pinned
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
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"tandem/backend"
	"tandem/config"
	"tandem/internal/testkit/codextest"
	"tandem/internal/testkit/mockapi"
	"tandem/internal/testkit/sshtest"
)

// TestSSHArgv pins the ssh command line: user options first (ssh keeps
// the first value), then tandem's defaults, then "--" before the target.
func TestSSHArgv(t *testing.T) {
	tr := &backend.SSHTransport{Target: "me@dev:2222", Options: []string{"BatchMode=no", "ProxyJump=bastion"}, ConfigFile: "/tmp/cfg", MCPBlock: []byte("secret = 1")}
	argv, err := tr.Argv()
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(argv[:len(argv)-1], " ")
	want := "ssh -T -F /tmp/cfg -o BatchMode=no -o ProxyJump=bastion -o BatchMode=yes -o ServerAliveInterval=15 -o ServerAliveCountMax=3 -o LogLevel=ERROR -o PermitLocalCommand=yes -o LocalCommand=echo tandem-step login-shell -p 2222 -- me@dev"
	if joined != want {
		t.Fatalf("argv = %s\nwant    %s", joined, want)
	}
	if remote := argv[len(argv)-1]; remote != backend.SSHRemoteCommand {
		t.Fatalf("remote command = %q, want SSHRemoteCommand", remote)
	}
}

// TestSSHRemoteCommandIsConstant: whatever the workspace, codex, shared
// CODEX_HOME, args and MCP block, the remote command is the same string,
// and none of those values is anywhere on the ssh command line.
func TestSSHRemoteCommandIsConstant(t *testing.T) {
	payload := `x'; touch PWNED; echo '`
	tests := []struct {
		name string
		tr   backend.SSHTransport
	}{
		{"defaults", backend.SSHTransport{}},
		{"plain", backend.SSHTransport{RemoteWorkspace: "~/src/app", RemoteCodex: "/opt/codex", RemoteCodexHome: "~/.codex", Args: []string{"-c", "model=o3"}}},
		{"quotes", backend.SSHTransport{RemoteWorkspace: payload, RemoteCodex: payload, RemoteCodexHome: payload, Args: []string{payload}, MCPBlock: []byte(payload)}},
		{"fish escapes", backend.SSHTransport{RemoteWorkspace: `x\'; touch PWNED; echo \'`, Args: []string{`\\`, `\'`}}},
		{"newlines and bangs", backend.SSHTransport{RemoteWorkspace: "a\nb!!", Args: []string{"!$", "\n", ""}}},
	}
	for _, tc := range tests {
		tc.tr.Target = "dev"
		argv, err := tc.tr.Argv()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if remote := argv[len(argv)-1]; remote != backend.SSHRemoteCommand {
			t.Errorf("%s: remote command = %q, want SSHRemoteCommand", tc.name, remote)
		}
		joined := strings.Join(argv, "\x00")
		for _, v := range append([]string{tc.tr.RemoteWorkspace, tc.tr.RemoteCodexHome, string(tc.tr.MCPBlock)}, tc.tr.Args...) {
			if len(v) > 2 && strings.Contains(joined, v) {
				t.Errorf("%s: %q is on the ssh command line %q", tc.name, v, argv)
			}
		}
	}
}

// TestSSHRemoteCommandParsesInEveryShell runs SSHRemoteCommand under each
// installed login shell with a fake bash first on $PATH: every shell must
// hand bash the same two arguments, "-lc" and the text between the
// quotes. (The shape rules are checked too: one line, no backslash, no
// "!", no quote inside the quoted word.)
func TestSSHRemoteCommandParsesInEveryShell(t *testing.T) {
	cmd := backend.SSHRemoteCommand
	inner, ok := strings.CutPrefix(cmd, "bash -lc '")
	inner, ok2 := strings.CutSuffix(inner, "'")
	if !ok || !ok2 || strings.ContainsAny(cmd, "\n\r\\!") || strings.Contains(inner, "'") {
		t.Fatalf("SSHRemoteCommand %q: want bash -lc 'WORD' on one line, WORD without quote, backslash or !", cmd)
	}
	fake := t.TempDir()
	if err := os.WriteFile(filepath.Join(fake, "bash"), []byte("#!/bin/sh\nprintf '%s\\0' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		shell    string
		required bool // installed by scripts/test.sh or Debian's base system
	}{
		{"sh", true}, {"dash", true}, {"bash", true}, {"fish", true},
		{"zsh", false}, {"ksh", false}, {"mksh", false}, {"csh", false}, {"tcsh", false},
	}
	for _, tc := range tests {
		t.Run(tc.shell, func(t *testing.T) {
			var shell string
			if tc.required {
				shell = sshtest.RequireShell(t, tc.shell)
			} else if p, err := exec.LookPath(tc.shell); err == nil {
				shell = p
			} else {
				t.Skipf("%s not installed", tc.shell)
			}
			c := exec.Command(shell, "-c", cmd)
			c.Env = []string{"HOME=" + t.TempDir(), "PATH=" + fake + ":" + os.Getenv("PATH")}
			c.Stdin = strings.NewReader("")
			out, err := c.Output()
			if err != nil {
				t.Fatalf("%s -c: %v (%s)", shell, err, out)
			}
			got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
			if len(got) != 2 || got[0] != "-lc" || got[1] != inner {
				t.Fatalf("%s hands bash %q, want [-lc %q]", shell, got, inner)
			}
		})
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
	return e.sshdWith(t, sshtest.Options{Banner: banner})
}

// sshdWith is sshd with more options (a login shell).
func (e *remoteEnv) sshdWith(t *testing.T, opts sshtest.Options) *sshtest.Server {
	opts.Env = append(opts.Env, "XDG_STATE_HOME="+e.state)
	return sshtest.Start(t, opts)
}

func newRemoteEnv(t *testing.T, responses ...mockapi.Response) *remoteEnv {
	t.Helper()
	codex := codextest.Path(t)
	m, home := mockapi.NewHome(t, responses...)
	e := &remoteEnv{codex: codex, home: home, dir: filepath.Join(t.TempDir(), "work space"), state: t.TempDir(), mock: m}
	// Runs before the temp dirs are removed (cleanups run last-in first):
	// a remote bootstrap whose connection just dropped may still be
	// removing its per-run home, racing the removal of the state dir.
	t.Cleanup(func() { sshtest.WaitRemoteHomes(e.state, backend.Patience) })
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
	ctx, cancel := context.WithTimeout(context.Background(), backend.Patience)
	defer cancel()
	s, err := backend.StartSession(ctx, backend.SessionOptions{
		Transport:      tr,
		ClientVersion:  "test",
		Cwd:            cwd,
		ApprovalPolicy: "never",
		Sandbox:        "workspace-write",
		Sink:           func(msg any) { ch <- msg },
		InitTimeout:    backend.Patience,
	})
	if err != nil {
		t.Fatalf("starting session: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, ch
}

func waitCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), backend.Patience)
	t.Cleanup(cancel)
	return ctx
}

// awaitTurn collects agent deltas until turn/completed.
func awaitTurn(t *testing.T, ch <-chan any) string {
	t.Helper()
	var text strings.Builder
	deadline := time.After(backend.Patience)
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
			t.Fatalf("no turn/completed (text so far %q)", text.String())
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
	if _, err := s.StartThread(waitCtx(t)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.StartTurn(waitCtx(t), backend.TurnInput{Text: "hi"}); err != nil {
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
	if err := s.Call(waitCtx(t), "config/read", map[string]any{"includeLayers": true}, &cfg); err != nil {
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
	deadline := time.Now().Add(backend.Patience)
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
	ctx, cancel := context.WithTimeout(context.Background(), backend.Patience)
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
	ctx, cancel := context.WithTimeout(context.Background(), backend.Patience)
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
	ctx, cancel := context.WithTimeout(context.Background(), backend.Patience)
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
	th, err := s.StartThread(waitCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.StartTurn(waitCtx(t), backend.TurnInput{Text: "first question"}); err != nil {
		t.Fatal(err)
	}
	awaitTurn(t, ch)
	if _, err := s.StartTurn(waitCtx(t), backend.TurnInput{Text: "second question"}); err != nil {
		t.Fatal(err)
	}
	awaitDelta := time.After(backend.Patience)
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
	deadline := time.After(backend.Patience)
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
	resp, err := s2.ResumeThread(waitCtx(t), th.Thread.ID)
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
	if _, err := s.StartThread(waitCtx(t)); err != nil {
		t.Fatal(err)
	}
	if n := srv.DropConnections(); n == 0 {
		t.Fatal("no sshd connection process to kill")
	}
	deadline := time.After(backend.Patience)
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

// loginShells are the remote login shells the SSH tests run under: dash
// (Debian's base system) and fish (scripts/test.sh installs it) always,
// zsh and tcsh when installed.
var loginShells = []struct {
	name     string
	required bool
}{{"dash", true}, {"fish", true}, {"zsh", false}, {"tcsh", false}}

// loginShell returns the path of the login shell, or skips the test.
func loginShell(t *testing.T, name string, required bool) string {
	t.Helper()
	if required {
		return sshtest.RequireShell(t, name)
	}
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not installed", name)
	}
	return p
}

// TestSSHTurnUnderLoginShells: with dash or fish (or zsh, tcsh) as the
// remote login shell, a session starts in a workspace whose name holds a
// space and a quote, the app-server runs there, an app-server argument
// with a quote and a backslash arrives intact, and a turn completes.
func TestSSHTurnUnderLoginShells(t *testing.T) {
	const instructions = `tandem-marker: it's a \' test`
	for _, sh := range loginShells {
		t.Run(sh.name, func(t *testing.T) {
			shell := loginShell(t, sh.name, sh.required)
			e := newRemoteEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("Hello from " + sh.name + ".")}})
			e.dir = filepath.Join(t.TempDir(), "it's a work space")
			srv := e.sshdWith(t, sshtest.Options{Shell: shell, Banner: []string{"Welcome, it's " + sh.name}})
			tr := e.transport(srv)
			tr.Args = []string{"-c", `developer_instructions="tandem-marker: it's a \\' test"`}
			s, ch := startSession(t, tr, e.dir)
			th, err := s.StartThread(waitCtx(t))
			if err != nil {
				t.Fatal(err)
			}
			if th.Cwd != e.dir {
				t.Errorf("thread cwd = %q, want %q", th.Cwd, e.dir)
			}
			if _, err := s.StartTurn(waitCtx(t), backend.TurnInput{Text: "hi"}); err != nil {
				t.Fatal(err)
			}
			if got := awaitTurn(t, ch); got != "Hello from "+sh.name+"." {
				t.Fatalf("agent text = %q", got)
			}
			want, _ := json.Marshal(instructions)
			reqs := e.mock.Requests()
			if len(reqs) == 0 || !strings.Contains(string(reqs[0].Raw), strings.Trim(string(want), `"`)) {
				t.Fatalf("the model request lacks developer_instructions %s", want)
			}
		})
	}
}

// TestSSHNoInjectionUnderLoginShells: workspace, codex path, shared
// CODEX_HOME and an app-server argument that would break out of
// single-quoting (POSIX-style, and fish's \' escape) are used literally
// under every login shell: the odd directories exist, and no PWNED file
// appears in the remote home, the session's working directory (the
// passwd home, where sshd starts), the test's directories or the marker
// directory that an absolute `touch` names.
func TestSSHNoInjectionUnderLoginShells(t *testing.T) {
	payloads := []struct{ name, value string }{
		{"posix quote", `x'; touch PWNED; touch {MARK}/PWNED; echo '`},
		{"fish escape", `x\'; touch PWNED; touch {MARK}/PWNED; echo \'`},
		{"double quote and substitution", `x"; touch PWNED; echo "$(touch {MARK}/PWNED)` + "`touch PWNED`"},
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, sh := range loginShells {
		for _, p := range payloads {
			t.Run(sh.name+"/"+p.name, func(t *testing.T) {
				shell := loginShell(t, sh.name, sh.required)
				mark := t.TempDir()
				value := strings.ReplaceAll(p.value, "{MARK}", mark)
				e := newRemoteEnv(t)
				base := t.TempDir()
				// The same machine is the remote: the shared CODEX_HOME and the
				// codex path can carry the payload too.
				oddHome := filepath.Join(base, "home "+value)
				if err := mockapi.WriteCodexHome(oddHome, e.mock.URL); err != nil {
					t.Fatal(err)
				}
				e.home = oddHome
				oddCodex := filepath.Join(base, "bin "+value, "codex")
				if err := os.MkdirAll(filepath.Dir(oddCodex), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(e.codex, oddCodex); err != nil {
					t.Fatal(err)
				}
				e.codex = oddCodex
				e.dir = filepath.Join(base, value)
				srv := e.sshdWith(t, sshtest.Options{Shell: shell})
				// The passwd home and this directory are shared with other
				// tests: only a PWNED that was not there before counts.
				var watch []string
				for _, d := range []string{u.HomeDir, wd} {
					if _, err := os.Lstat(filepath.Join(d, "PWNED")); os.IsNotExist(err) {
						watch = append(watch, d)
					}
				}
				// Checked even when the session fails to start: a broken-out
				// command line usually breaks the bootstrap too.
				defer func() {
					for _, d := range watch {
						if _, err := os.Lstat(filepath.Join(d, "PWNED")); err == nil {
							t.Errorf("injected command ran: %s/PWNED exists", d)
						}
					}
					for _, root := range []string{srv.Home, base, mark, e.state} {
						_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
							if err == nil && d.Name() == "PWNED" {
								t.Errorf("injected command ran: %s exists", path)
							}
							return nil
						})
					}
				}()
				tr := e.transport(srv)
				tr.Args = []string{"-c", "developer_instructions=" + strconv.Quote(value)}
				s, _ := startSession(t, tr, e.dir)
				th, err := s.StartThread(waitCtx(t))
				if err != nil {
					t.Fatal(err)
				}
				if th.Cwd != e.dir {
					t.Errorf("thread cwd = %q, want %q", th.Cwd, e.dir)
				}
				s.Close()
				if st, err := os.Stat(e.dir); err != nil || !st.IsDir() {
					t.Errorf("workspace %q not created literally: %v", e.dir, err)
				}
			})
		}
	}
}
