package backend

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// nopStream is a Stream that only counts Close calls.
type nopStream struct{ closed atomic.Int32 }

func (n *nopStream) Stdout() io.Reader       { return strings.NewReader("") }
func (n *nopStream) Stdin() io.WriteCloser   { return nil }
func (n *nopStream) Wait() error             { return nil }
func (n *nopStream) StderrTail(int) []string { return nil }
func (n *nopStream) Close() error            { n.closed.Add(1); return nil }
func (n *nopStream) Describe() string        { return "ssh h" }

// TestSSHNoiseThenStrict: before the first JSON message non-JSON lines
// are dropped; after it a malformed line ends the connection, while a
// plain local Conn (no hooks) keeps logging and skipping.
func TestSSHNoiseThenStrict(t *testing.T) {
	in := strings.Join([]string{
		"motd: welcome",
		"",
		"{not json",
		`{"id":1,"result":{}}`,
		`{"method":"thread/started","params":{}}`,
		"garbage after start",
		`{"method":"never/seen","params":{}}`,
	}, "\n") + "\n"

	inner := &nopStream{}
	s := &sshStream{Stream: inner, host: "h", log: slog.New(slog.DiscardHandler)}
	c := NewConn(strings.NewReader(in), io.Discard, nil, nil)
	c.Filter, c.Malformed = s.Filter, s.Malformed
	var seen []string
	c.Trace = func(_ Direction, line []byte) { seen = append(seen, string(line)) }
	err := c.Serve()
	var re *RemoteError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "ssh h: malformed line from the app-server: garbage after start") {
		t.Fatalf("Serve() = %v, want the malformed line named", err)
	}
	if len(seen) != 3 || seen[0] != `{"id":1,"result":{}}` {
		t.Fatalf("dispatched %q, want the two JSON lines and the bad one", seen)
	}
	if s.skipped != 2 {
		t.Fatalf("skipped %d noise lines, want 2", s.skipped)
	}
	if got := s.Wait(); got != err {
		t.Fatalf("Wait() = %v, want the protocol error", got)
	}

	// Local: same input, no hooks: everything is read to EOF.
	local := NewConn(strings.NewReader(in), io.Discard, nil, nil)
	if err := local.Serve(); err != io.EOF {
		t.Fatalf("local Serve() = %v, want io.EOF", err)
	}
}

// fakeCodex is a stand-in for the remote codex: it prints its working
// directory, its arguments, its CODEX_HOME and that home's config.toml,
// NUL-separated, then copies the rest of stdin.
const fakeCodex = `#!/bin/sh
printf 'pwd=%s\0' "$PWD"
for a in "$@"; do printf 'arg=%s\0' "$a"; done
printf 'home=%s\0' "$CODEX_HOME"
printf 'config=%s\0' "$(cat "$CODEX_HOME/config.toml" 2>/dev/null)"
printf 'stdin='
cat
`

// fakeRun is what one bootstrap run reported through fakeCodex.
type fakeRun struct {
	pwd, home, config, stdin string
	args                     []string
}

func parseFakeRun(t *testing.T, out string) fakeRun {
	t.Helper()
	var r fakeRun
	rest, stdin, ok := strings.Cut(out, "\x00stdin=")
	if !ok {
		t.Fatalf("fake codex output lacks stdin=: %q", out)
	}
	r.stdin = stdin
	for _, f := range strings.Split(rest, "\x00") {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "pwd":
			r.pwd = v
		case "arg":
			r.args = append(r.args, v)
		case "home":
			r.home = v
		case "config":
			r.config = v
		}
	}
	return r
}

// bootstrapEnv is a local stand-in for a remote account: a HOME, an
// XDG_STATE_HOME for the per-run homes, a shared CODEX_HOME and the fake
// codex at $HOME/bin/codex.
type bootstrapEnv struct {
	home, state, shared, codex string
}

func newBootstrapEnv(t *testing.T) bootstrapEnv {
	t.Helper()
	e := bootstrapEnv{home: t.TempDir(), state: t.TempDir()}
	e.shared = filepath.Join(e.home, "shared")
	e.codex = filepath.Join(e.home, "bin", "codex")
	if err := os.MkdirAll(filepath.Dir(e.codex), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(e.codex, []byte(fakeCodex), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(e.shared, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.shared, "config.toml"), []byte("model = \"shared\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return e
}

// run runs SSHRemoteCommand under sh, as a remote login shell would, with
// stdin, in dir; it returns stdout after the step markers (which must
// come first, "start" before "initialize"), stderr and the exit code.
func (e bootstrapEnv) run(t *testing.T, dir string, stdin []byte) (string, string, int) {
	t.Helper()
	cmd := exec.Command("sh", "-c", SSHRemoteCommand)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + e.home, "XDG_STATE_HOME=" + e.state, "PATH=" + os.Getenv("PATH")}
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	out, last := stdout.String(), StartStep(-1)
	for strings.HasPrefix(out, stepMarker) {
		line, rest, _ := strings.Cut(out, "\n")
		step, ok := markerStep([]byte(line))
		if !ok || step <= last {
			t.Fatalf("step marker %q out of order (after %d)", line, last)
		}
		out, last = rest, step
	}
	if code == 0 && last < StepStart {
		t.Errorf("the bootstrap printed no step marker: %q", stdout.String())
	}
	return out, stderr.String(), code
}

// TestSSHBootstrapParameters runs the real remote command and bootstrap
// (sh → bash -lc → eval) locally, with a fake codex: every parameter
// arrives byte for byte however odd, "~/" is the remote home, the MCP
// block lands in the per-run config, the stream after the prelude reaches
// codex untouched, and the per-run home is gone afterwards.
func TestSSHBootstrapParameters(t *testing.T) {
	const stream = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\nsecond line, no newline"
	odd := "it's a \"dir\" $(touch PWNED) `touch PWNED` \\' \\\\ !x *\n  line two\n"
	tests := []struct {
		name      string
		ws, codex string // "" codex: the fake codex's absolute path
		src       string
		args      []string
		mcp       string
		wantPwd   string // "" means the dir the command ran in
		wantSrc   string // "" means e.shared
	}{
		{
			name: "odd bytes",
			ws:   "{BASE}/" + odd, src: "{SHARED}",
			args:    []string{"-c", `model="o'3"`, "", `a\'b`, "tail\n", "\xff\xfe not utf-8", "--", "; touch PWNED"},
			mcp:     "[mcp_servers.x]\ncommand = \"/bin/true\"\n",
			wantPwd: "{BASE}/" + odd,
		},
		{
			name: "tilde paths",
			ws:   "~/w s", codex: "~/bin/codex", src: "~/shared",
			wantPwd: "{HOME}/w s",
		},
		{
			name: "defaults",
			src:  "{SHARED}",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newBootstrapEnv(t)
			base, cwd := t.TempDir(), t.TempDir()
			expand := strings.NewReplacer("{BASE}", base, "{HOME}", e.home, "{SHARED}", e.shared).Replace
			tr := &SSHTransport{RemoteWorkspace: expand(tc.ws), RemoteCodex: tc.codex, RemoteCodexHome: expand(tc.src), Args: tc.args, MCPBlock: []byte(tc.mcp)}
			if tr.RemoteCodex == "" {
				tr.RemoteCodex = e.codex
			}
			prelude, err := tr.prelude()
			if err != nil {
				t.Fatal(err)
			}
			out, stderr, code := e.run(t, cwd, append(prelude, stream...))
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			r := parseFakeRun(t, out)
			wantPwd := expand(tc.wantPwd)
			if wantPwd == "" {
				wantPwd = cwd
			}
			if r.pwd != wantPwd {
				t.Errorf("pwd = %q, want %q", r.pwd, wantPwd)
			}
			wantArgs := append([]string{"app-server", "--listen", "stdio://"}, tc.args...)
			if strings.Join(r.args, "\x00") != strings.Join(wantArgs, "\x00") || len(r.args) != len(wantArgs) {
				t.Errorf("args = %q, want %q", r.args, wantArgs)
			}
			if filepath.Dir(r.home) != filepath.Join(e.state, "tandem", "remote-homes") {
				t.Errorf("CODEX_HOME = %q, want a per-run home under %s", r.home, e.state)
			}
			if !strings.HasPrefix(r.config, `model = "shared"`) || !strings.Contains(r.config, strings.TrimSpace(tc.mcp)) {
				t.Errorf("per-run config.toml = %q, want the shared one plus %q", r.config, tc.mcp)
			}
			if r.stdin != stream {
				t.Errorf("codex's stdin = %q, want %q", r.stdin, stream)
			}
			if _, err := os.Stat(r.home); !os.IsNotExist(err) {
				t.Errorf("per-run home %s left behind: %v", r.home, err)
			}
			for _, dir := range []string{base, cwd, e.home, wantPwd} {
				if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
					t.Errorf("PWNED created in %s", dir)
				}
			}
		})
	}
}

// TestSSHBootstrapFailures: a prelude cut short at any line exits 96, a
// workspace that cannot be made exits 97 and a missing codex 98, each
// with its message on stderr.
func TestSSHBootstrapFailures(t *testing.T) {
	e := newBootstrapEnv(t)
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	full, err := (&SSHTransport{RemoteCodex: e.codex, RemoteCodexHome: e.shared, Args: []string{"-c", "x=1"}, MCPBlock: []byte("a = 1")}).prelude()
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(full, []byte("\n"))
	lines = lines[:len(lines)-1] // the empty tail after the last "\n"
	type tcase struct {
		name     string
		tr       *SSHTransport
		stdin    []byte // nil: tr's prelude
		wantCode int
		wantErr  string
	}
	var tests []tcase
	for n := range lines {
		tests = append(tests, tcase{name: fmt.Sprintf("prelude cut after %d lines", n), stdin: bytes.Join(lines[:n], nil), wantCode: 96, wantErr: "tandem: stdin closed before the bootstrap line"})
	}
	tests = append(tests,
		tcase{name: "workspace under a file", tr: &SSHTransport{RemoteWorkspace: file + "/ws", RemoteCodex: e.codex}, wantCode: 97, wantErr: "tandem: cannot use remote workspace " + file + "/ws"},
		tcase{name: "missing codex", tr: &SSHTransport{RemoteCodex: "/nonexistent/it's codex"}, wantCode: 98, wantErr: "tandem: remote codex not found: /nonexistent/it's codex (set --remote-codex)"},
		tcase{name: "garbled parameter", stdin: append(append(lines[0], "!!not base64!!\n"...), bytes.Join(lines[2:], nil)...), wantCode: 96, wantErr: "tandem: bad bootstrap line"},
	)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdin := tc.stdin
			if tc.tr != nil {
				var err error
				if stdin, err = tc.tr.prelude(); err != nil {
					t.Fatal(err)
				}
			}
			_, stderr, code := e.run(t, t.TempDir(), stdin)
			if code != tc.wantCode || !strings.Contains(stderr, tc.wantErr) {
				t.Fatalf("exit %d, stderr %q; want exit %d with %q", code, stderr, tc.wantCode, tc.wantErr)
			}
		})
	}
}

// TestSSHPreludeRejectsNUL: a NUL byte cannot reach a remote argument, so
// Start refuses it instead of letting bash drop it.
func TestSSHPreludeRejectsNUL(t *testing.T) {
	tests := []struct {
		name string
		tr   SSHTransport
		want string
	}{
		{"workspace", SSHTransport{RemoteWorkspace: "a\x00b"}, "remote workspace"},
		{"codex", SSHTransport{RemoteCodex: "a\x00b"}, "remote codex"},
		{"codex home", SSHTransport{RemoteCodexHome: "a\x00b"}, "remote CODEX_HOME"},
		{"arg", SSHTransport{Args: []string{"ok", "a\x00b"}}, "app-server argument"},
	}
	for _, tc := range tests {
		if _, err := tc.tr.prelude(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: prelude() error = %v, want %q named", tc.name, err, tc.want)
		}
	}
}
