package backend

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"tandem/config"
	"tandem/internal/lib/redact"
)

// MaxNoiseLines is how many non-JSON lines a remote peer may print before
// the app-server's first message (motd, banners, .bashrc echo) before the
// connection is treated as broken.
const MaxNoiseLines = 200

// SSHTransport runs `codex app-server --listen stdio://` on another machine
// through the system ssh client, so ~/.ssh/config, the agent, known_hosts
// and ProxyJump behave as the user expects.
//
// The remote command is always SSHRemoteCommand, whatever the fields say:
// ssh hands it to the remote user's login shell, which may be sh, bash,
// zsh, fish or csh, and no quoting is safe in all of them. Everything else
// travels base64-encoded on the first lines of stdin (see prelude): the
// bootstrap script (bootstrapScript), the workspace, the codex path, the
// shared CODEX_HOME, the app-server args and the managed MCP block. The
// script cds into the workspace, builds a per-run CODEX_HOME (mode 0700,
// removed when the app-server exits) from the remote's shared one, appends
// the MCP block, and runs the remote codex on the rest of stdin. Start can
// be called again after a dropped connection: every run is independent,
// and sessions/ is shared, so `thread/resume` finds the earlier rollout.
type SSHTransport struct {
	// Target is "[user@]host[:port]" (IPv6 hosts in brackets: "[::1]:22"),
	// parsed by config.ParseSSHTarget: Argv and Start refuse what it
	// refuses.
	Target string
	// Options are passed to ssh as "-o OPT" before tandem's defaults, so
	// they win (ssh keeps the first value it sees).
	Options []string
	// SSHPath is the ssh client; "" means "ssh" from $PATH.
	SSHPath string
	// ConfigFile, when set, is passed as "-F FILE" (tests use it to keep
	// away from the user's ~/.ssh/config).
	ConfigFile string
	// RemoteCodex is the codex executable on the remote; "" means "codex"
	// looked up in the remote login shell's $PATH. A leading "~/" is the
	// remote home.
	RemoteCodex string
	// RemoteWorkspace is created if missing and becomes the app-server's
	// working directory; "" means the remote login directory. A leading
	// "~/" is the remote home.
	RemoteWorkspace string
	// RemoteCodexHome is the remote's shared CODEX_HOME that auth.json,
	// sessions/ and config come from; "" means the remote's $CODEX_HOME,
	// else ~/.codex.
	RemoteCodexHome string
	// Args are extra app-server arguments, e.g. "-c", "model=o3". Any
	// bytes but NUL are passed through unchanged.
	Args []string
	// MCPBlock is TOML (the managed [mcp_servers.NAME] tables, see
	// ManagedMCPBlock) appended to the per-run config.toml. Like every
	// other field it travels base64-encoded on stdin, never on a command
	// line.
	MCPBlock []byte
	// Daemon runs the agent on the remote's app-server daemon instead of
	// an app-server of the run's own: the bootstrap starts it (`codex
	// app-server daemon start`, idempotent) in the remote's shared
	// CODEX_HOME — or, with an MCP block, in a daemon home that outlives
	// the run — and runs `codex app-server proxy`, which the client
	// speaks WebSocket through (sshdaemon.go). The stream is durable.
	Daemon bool
	// Grace is the wait after closing stdin before SIGTERM; 0 means 5 s.
	Grace time.Duration
	// Log receives skipped login-shell noise; nil discards it.
	Log *slog.Logger
}

// Argv returns the full ssh command line for one run: ssh, its options,
// "--", the destination and, last, SSHRemoteCommand. No user-supplied
// value (workspace, codex path, CODEX_HOME, app-server args, MCP block)
// is on it; those go to stdin (see prelude). It is exported for tests and
// for logging; it holds no secrets.
func (t *SSHTransport) Argv() ([]string, error) {
	target, err := config.ParseSSHTarget(t.Target)
	if err != nil {
		return nil, err
	}
	ssh := t.SSHPath
	if ssh == "" {
		ssh = "ssh"
	}
	argv := []string{ssh, "-T"}
	if t.ConfigFile != "" {
		argv = append(argv, "-F", t.ConfigFile)
	}
	for _, o := range t.Options {
		argv = append(argv, "-o", o)
	}
	// Defaults after the user's options: ssh keeps the first value, so
	// --ssh-option BatchMode=no still works. BatchMode: a password prompt
	// would fight the TUI for the terminal. Keepalives turn a dead network
	// into an exit within ~45 s instead of a hang.
	// LocalCommand runs here, on ssh's stdout, once ssh has connected
	// and authenticated, before the remote command: the first step
	// marker (stepMarker).
	argv = append(argv,
		"-o", "BatchMode=yes",
		"-o", "ServerAliveInterval=15",
		"-o", "ServerAliveCountMax=3",
		"-o", "LogLevel=ERROR",
		"-o", "PermitLocalCommand=yes",
		"-o", "LocalCommand=echo "+stepMarker+"login-shell",
	)
	if target.Port != 0 {
		argv = append(argv, "-p", strconv.Itoa(target.Port))
	}
	argv = append(argv, "--", target.Destination(), SSHRemoteCommand)
	return argv, nil
}

// SSHRemoteCommand is the one remote command of every SSH run. ssh hands
// it to the remote user's login shell ($SHELL -c), so it is written to
// parse the same under sh/dash, bash, zsh, fish and csh/tcsh: one line,
// the plain words bash and -lc, then one single-quoted word with no
// quote, backslash or "!" inside. That word, run by bash as a login
// shell, reads the first stdin line, decodes it from base64 and evals it:
// the bootstrap script, which reads its parameters from the next lines
// (see prelude). bash reads a pipe one byte at a time, so nothing past
// the prelude is consumed before the app-server starts.
const SSHRemoteCommand = `bash -lc 'IFS= read -r s || { echo "tandem: stdin closed before the bootstrap line" >&2; exit 96; }; s=$(printf %s "$s" | base64 -d) || exit 96; eval "$s"'`

// prelude returns the stdin lines that SSHRemoteCommand and the bootstrap
// script read before the app-server starts, each ending in "\n":
//
//	base64(bootstrapScript)
//	base64(RemoteWorkspace)
//	base64(RemoteCodex, "codex" when empty)
//	base64(RemoteCodexHome)
//	len(Args), in decimal
//	base64(Args[i]), one line each
//	base64(MCPBlock)
//	"daemon" or "run": how the agent runs (Daemon)
//
// The JSON-RPC stream follows. A NUL byte cannot reach a remote argument
// or variable, so a value holding one is an error.
func (t *SSHTransport) prelude() ([]byte, error) {
	codex := t.RemoteCodex
	if codex == "" {
		codex = "codex"
	}
	named := []struct{ what, v string }{
		{"remote workspace", t.RemoteWorkspace},
		{"remote codex", codex},
		{"remote CODEX_HOME", t.RemoteCodexHome},
	}
	for _, a := range t.Args {
		named = append(named, struct{ what, v string }{"app-server argument", a})
	}
	for _, n := range named {
		if strings.IndexByte(n.v, 0) >= 0 {
			return nil, fmt.Errorf("%s %q: contains a NUL byte", n.what, n.v)
		}
	}
	var b bytes.Buffer
	line := func(s string) {
		b.WriteString(s)
		b.WriteByte('\n')
	}
	enc := base64.StdEncoding.EncodeToString
	line(enc([]byte(bootstrapScript)))
	for _, n := range named[:3] {
		line(enc([]byte(n.v)))
	}
	line(strconv.Itoa(len(t.Args)))
	for _, a := range t.Args {
		line(enc([]byte(a)))
	}
	line(enc(t.MCPBlock))
	if t.Daemon {
		line("daemon")
	} else {
		line("run")
	}
	return b.Bytes(), nil
}

// Exit codes of the bootstrap script, besides codex's own.
const (
	bootstrapNoPrelude = 96 // stdin closed before (or garbled in) the prelude lines
	bootstrapSetup     = 97 // workspace or CODEX_HOME could not be set up
	bootstrapNoCodex   = 98 // the remote codex is not on $PATH / not executable
)

// bootstrapScript is evaluated by the `bash -lc` of SSHRemoteCommand, with
// stdin positioned after its own line: it reads WORKSPACE, CODEX,
// SHARED_CODEX_HOME, the app-server args and the managed MCP block (may
// be empty) from the prelude lines (see prelude), then sets up and runs
// codex on the rest of stdin. It is one brace group, so bash parses all
// of it before running any of it.
//
// The per-run homes live in $XDG_STATE_HOME/tandem/remote-homes (default
// ~/.local/state/...), not in /tmp: codex refuses to install its helper
// binaries under a temporary CODEX_HOME. The per-run home is removed by an
// EXIT trap. bash therefore waits for
// codex instead of exec'ing it (exec would drop the trap); HUP/INT/TERM
// are forwarded to codex. A bash killed with SIGKILL cannot clean up, so
// every start also removes the caller's stale per-run homes whose owning
// bash is gone (pid file check).
const bootstrapScript = `{
set -u
echo tandem-step start
unset s
line() { IFS= read -r l || { echo "tandem: stdin closed before the bootstrap line" >&2; exit 96; }; }
param() { line; v=$(printf %s "$l" | base64 -d && echo .) || { echo "tandem: bad bootstrap line" >&2; exit 96; }; v=${v%.}; }
param; ws=$v
param; codex=$v
param; src=$v
line; n=$l
case $n in ''|*[!0-9]*) echo "tandem: bad bootstrap line" >&2; exit 96 ;; esac
set --
while [ "$n" -gt 0 ]; do param; set -- "$@" "$v"; n=$((n - 1)); done
line; mcp=$l
line; mode=$l
case $mode in daemon|run) ;; *) echo "tandem: bad bootstrap line" >&2; exit 96 ;; esac
unset -f line param
unset l n
tilde() { case $1 in "~") v=$HOME ;; "~/"*) v=$HOME/${1#"~/"} ;; *) v=$1 ;; esac; }
tilde "$ws"; ws=$v
tilde "$codex"; codex=$v
tilde "$src"; src=$v
unset -f tilde
unset v
if [ -n "$ws" ]; then
  mkdir -p -- "$ws" && cd -- "$ws" || { echo "tandem: cannot use remote workspace $ws" >&2; exit 97; }
fi
if ! command -v -- "$codex" >/dev/null 2>&1; then
  echo "tandem: remote codex not found: $codex (set --remote-codex)" >&2; exit 98
fi
[ -n "$src" ] || src=${CODEX_HOME:-$HOME/.codex}
umask 077
if [ "$mode" = daemon ]; then
  if [ -n "$mcp" ]; then
    home=${XDG_STATE_HOME:-$HOME/.local/state}/tandem/daemon-homes/$(printf %s "$src" | cksum | cut -d' ' -f1)
    mkdir -p -- "$home" "$src/sessions" || { echo "tandem: cannot create $home" >&2; exit 97; }
    chmod 700 -- "$home"
    [ -e "$src/auth.json" ] && [ ! -L "$home/auth.json" ] && ln -s -- "$src/auth.json" "$home/auth.json"
    [ -L "$home/sessions" ] || ln -s -- "$src/sessions" "$home/sessions"
    rm -f -- "$home/config.toml"
    for f in config.toml config.json instructions.md; do
      [ -f "$src/$f" ] && { rm -f -- "$home/$f"; cp -- "$src/$f" "$home/$f"; }
    done
    { printf '\n'; printf '%s' "$mcp" | base64 -d; } >> "$home/config.toml" || { echo "tandem: bad MCP block" >&2; exit 97; }
    chmod 600 -- "$home/config.toml"
  else
    home=$src
    mkdir -p -- "$home" || { echo "tandem: cannot create $home" >&2; exit 97; }
  fi
  unset mcp
  export CODEX_HOME=$home
  info=$(cd -- "$home" && "$codex" app-server daemon start </dev/null) || { echo "tandem: codex app-server daemon start failed in $home" >&2; exit 97; }
  printf 'tandem-daemon-ready %s\n' "$(printf '%s\n' "$info" | grep socketPath | tail -n 1)"
  exec "$codex" app-server proxy
fi
base=${XDG_STATE_HOME:-$HOME/.local/state}/tandem/remote-homes
mkdir -p -- "$base" || { echo "tandem: cannot create $base" >&2; exit 97; }
for d in "$base"/tandem-codex-home.*; do
  [ -d "$d" ] && [ -O "$d" ] && [ -f "$d/.tandem-pid" ] || continue
  p=$(cat -- "$d/.tandem-pid" 2>/dev/null) || continue
  if [ -n "$p" ] && kill -0 "$p" 2>/dev/null; then continue; fi
  rm -rf -- "$d"
done
mkdir -p -- "$src/sessions" || { echo "tandem: cannot create $src/sessions" >&2; exit 97; }
home=$(mktemp -d "$base/tandem-codex-home.XXXXXX") || { echo "tandem: mktemp failed in $base" >&2; exit 97; }
trap 'rm -rf -- "$home"' EXIT
chmod 700 -- "$home"
echo $$ > "$home/.tandem-pid"
[ -e "$src/auth.json" ] && ln -s -- "$src/auth.json" "$home/auth.json"
ln -s -- "$src/sessions" "$home/sessions"
for f in config.toml config.json instructions.md; do
  [ -f "$src/$f" ] && cp -- "$src/$f" "$home/$f"
done
if [ -n "$mcp" ]; then
  { printf '\n'; printf '%s' "$mcp" | base64 -d; } >> "$home/config.toml" || { echo "tandem: bad MCP block" >&2; exit 97; }
fi
[ -f "$home/config.toml" ] && chmod 600 -- "$home/config.toml"
unset mcp
export CODEX_HOME=$home
echo tandem-step initialize
"$codex" app-server --listen stdio:// "$@" <&0 &
pid=$!
trap 'kill -TERM "$pid" 2>/dev/null' HUP INT TERM
rc=0
wait "$pid" || rc=$?
while kill -0 "$pid" 2>/dev/null; do wait "$pid"; rc=$?; done
exit "$rc"
}
`

// Start runs ssh with SSHRemoteCommand and writes the prelude (the
// bootstrap script and its parameters) to its stdin. The returned Stream
// describes itself as "ssh HOST", skips login-shell noise before the first
// JSON message (up to MaxNoiseLines), and turns ssh's own failures into a
// *RemoteError. A parameter holding a NUL byte is an error before ssh runs.
func (t *SSHTransport) Start() (Stream, error) {
	argv, err := t.Argv()
	if err != nil {
		return nil, err
	}
	target, _ := config.ParseSSHTarget(t.Target)
	prelude, err := t.prelude()
	if err != nil {
		return nil, fmt.Errorf("ssh %s: %w", target.Host, err)
	}
	log := t.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log.Info("starting remote app-server", "ssh", argv[:len(argv)-1])
	pt := &ProcessTransport{Command: argv, Prelude: prelude, Grace: t.Grace, Name: "ssh " + target.Host}
	s, err := pt.Start()
	if err != nil {
		return nil, fmt.Errorf("ssh %s: %w", target.Host, err)
	}
	ss := &sshStream{Stream: s, host: target.Host, log: log}
	if t.Daemon {
		return attachOverSSH(ss) // sshdaemon.go
	}
	return ss, nil
}

// LineHooks is implemented by streams whose peer may print noise around
// the protocol. StartSession installs the hooks on the connection: Filter
// as Conn.Filter, Malformed as Conn.Malformed.
type LineHooks interface {
	Filter(line []byte) bool
	Malformed(line []byte) error
}

// RemoteError is why a remote app-server (over ssh or websocket) failed or
// went away, in words for the user: Peer names it ("ssh dev"), Reason says
// what happened, Detail is the peer's last diagnostic line, redacted.
type RemoteError struct {
	Peer   string
	Reason string
	Detail string
}

// Error implements error as "PEER: REASON: DETAIL".
func (e *RemoteError) Error() string {
	s := e.Peer + ": " + e.Reason
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// sshStream adds noise handling and readable failures to the ssh process.
type sshStream struct {
	Stream
	host string
	log  *slog.Logger

	mu       sync.Mutex
	started  bool // the first JSON message arrived
	skipped  int
	protoErr error
	closing  bool // Close was called: a signal exit is tandem's own doing
	step     StartStep
	stepDone chan struct{} // closed when step ends
}

// Close notes that the end is wanted, then runs the shutdown ladder.
func (s *sshStream) Close() error {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	return s.Stream.Close()
}

// Filter drops non-JSON lines until the first JSON object arrives,
// logging them; past MaxNoiseLines it lets the line through so Malformed
// ends the connection.
func (s *sshStream) Filter(line []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return true
	}
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(trimmed) {
		s.started = true
		if s.skipped > 0 {
			s.log.Info("skipped login-shell output before the app-server started", "lines", s.skipped)
		}
		return true
	}
	if len(trimmed) == 0 {
		return false
	}
	if step, ok := markerStep(trimmed); ok {
		s.reach(step)
		return false
	}
	// Output from the remote: ssh is connected, whatever ran first.
	s.reach(StepLoginShell)
	if s.skipped >= MaxNoiseLines {
		return true
	}
	s.skipped++
	s.log.Info("skipping remote login-shell output", "line", redactLine(truncate(line, 200)))
	return false
}

// Malformed ends the connection: over ssh a broken line means a broken
// stream, not a line to skip.
func (s *sshStream) Malformed(line []byte) error {
	s.mu.Lock()
	var err error
	if !s.started {
		err = &RemoteError{Peer: "ssh " + s.host, Reason: fmt.Sprintf("more than %d lines of non-JSON output before the app-server answered (login shell noise?)", MaxNoiseLines), Detail: redactLine(truncate(line, 120))}
	} else {
		err = &RemoteError{Peer: "ssh " + s.host, Reason: "malformed line from the app-server", Detail: redactLine(truncate(line, 120))}
	}
	if s.protoErr == nil {
		s.protoErr = err
	}
	s.mu.Unlock()
	go s.Stream.Close()
	return err
}

// StderrTail returns ssh's and the remote's last stderr lines, redacted.
func (s *sshStream) StderrTail(n int) []string {
	tail := s.Stream.StderrTail(n)
	for i, l := range tail {
		tail[i] = redactLine(l)
	}
	return tail
}

// Wait returns a *RemoteError for ssh's own failures (exit 255: could not
// connect, authentication failed, connection lost), for the bootstrap's
// setup failures, and for protocol errors; other exits pass through. A
// Close never causes exit 255 (it ends ssh by EOF or a signal), so 255
// always means ssh itself failed.
func (s *sshStream) Wait() error {
	err := s.Stream.Wait()
	s.mu.Lock()
	protoErr, started, closing := s.protoErr, s.started, s.closing
	connected := started || s.step >= StepLoginShell
	s.mu.Unlock()
	if protoErr != nil {
		return protoErr
	}
	code := -1
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Exited() {
			code = ws.ExitStatus()
		}
	}
	detail := ""
	if tail := s.StderrTail(1); len(tail) > 0 {
		detail = tail[0]
	}
	peer := "ssh " + s.host
	if ee != nil && !closing {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			// Not tandem's own Close: something (OOM killer, kill -9)
			// killed ssh, which drops the link.
			return &RemoteError{Peer: peer, Reason: fmt.Sprintf("connection lost (ssh killed by signal %d)", int(ws.Signal()))}
		}
	}
	switch code {
	case 255:
		return &RemoteError{Peer: peer, Reason: sshFailure(s.StderrTail(20), connected), Detail: detail}
	case bootstrapNoPrelude, bootstrapSetup, bootstrapNoCodex:
		return &RemoteError{Peer: peer, Reason: "remote setup failed", Detail: detail}
	}
	return err
}

// redactLine masks secrets in a line of remote output before it is logged
// or shown.
func redactLine(s string) string { return redact.String(s) }
