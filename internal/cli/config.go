package cli

import (
	"fmt"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"strings"

	"tandem/backend"
	"tandem/config"
	"tandem/model/keys"
	"tandem/ui"
)

// runConfig is the resolved configuration of one run, built by resolve
// from the SessionOptions and the config file: the settings (flags >
// profile > file > defaults, see config.Resolve), where the app-server
// runs, and the paths of the run's own files. The options are never
// written back.
type runConfig struct {
	// settings are the resolved settings: Workspace is absolute, Codex
	// and CodexFrom say which codex and where it was set, TurnTimeout is
	// the flag's or the file's.
	settings config.Settings

	// Where the app-server runs. sshTarget is --ssh, else the profile's
	// ssh (not with --remote); "" runs codex locally or over ws.
	sshTarget string
	// sshOptions are the --ssh-option values; remoteTransport appends
	// the profile's ssh_options after them (ssh keeps the first value).
	sshOptions []string
	// remoteCodex and remoteWorkspace are the flag's, else the profile's.
	remoteCodex, remoteWorkspace string
	// ws is --remote ws://host:port and tokenFile --remote-token-file.
	ws, tokenFile string
	// unixSock is --remote unix://PATH: the control socket of a daemon
	// already running (for unix:// alone, the one of $CODEX_HOME);
	// attach says it was given.
	unixSock string
	attach   bool
	// daemon runs the agent on codex's app-server daemon (--daemon,
	// daemon = true): locally, or through the ssh bootstrap.
	daemon bool

	// logFile, record and traceProtocol are --log-file, --record and
	// --trace-protocol ("" when not given).
	logFile, record, traceProtocol string

	// addDirs are the --add-dir roots, absolute (codexflags.go); profile
	// is what -p applied.
	addDirs []string
	profile profileUse

	// keys is the keymap: the defaults with the file's [keys] (keymap.go);
	// every model of the run gets it (a serve's guests share the host's).
	keys *keys.Map
}

// resolve checks the flags (validate), loads the config file and
// resolves the run's configuration. Every error is a usage error (exit
// status 2).
func (o *SessionOptions) resolve() (runConfig, error) {
	if err := o.validate(); err != nil {
		return runConfig{}, err
	}
	file, err := config.Load(o.ConfigFile)
	if err != nil {
		return runConfig{}, &usageError{err.Error()}
	}
	km, err := keymap(file)
	if err != nil {
		return runConfig{}, err
	}
	var args []string
	for _, kv := range o.Overrides {
		args = append(args, "-c", kv)
	}
	args = append(args, o.CodexFlags.args()...) // --search
	approval, sandbox := o.CodexFlags.policies(o.Approval, o.Sandbox)
	fl := config.Flags{
		Codex:        o.Codex,
		CodexArgs:    args,
		Model:        o.Model,
		Approval:     approval,
		Sandbox:      sandbox,
		Workspace:    o.Cd,
		Theme:        o.Theme,
		NoAltScreen:  o.NoAltScreen,
		IsolatedHome: o.IsolatedHome,
		Daemon:       o.Daemon,
	}
	if o.TurnTimeoutSet {
		fl.TurnTimeout = o.TurnTimeout.String()
	}
	tandemProfile := ""
	if _, ok := file.Profiles[o.Profile]; ok {
		tandemProfile = o.Profile // else only codex's may exist (resolveProfile)
	}
	s, err := config.Resolve(file, tandemProfile, fl)
	if err != nil {
		return runConfig{}, &usageError{err.Error()}
	}
	home := codexHomeOf(s.Environ(os.Environ())) // the shared CODEX_HOME this run's codex gets
	c := runConfig{
		settings:        s,
		sshTarget:       o.Remote.SSH,
		sshOptions:      o.Remote.SSHOptions,
		remoteCodex:     s.RemoteCodex,
		remoteWorkspace: s.RemoteWorkspace,
		ws:              o.Remote.WS,
		tokenFile:       o.Remote.TokenFile,
		logFile:         o.LogFile,
		record:          o.Record,
		traceProtocol:   o.TraceProtocol,
		daemon:          s.Daemon,
		keys:            km,
	}
	if p, ok := unixSocketPath(c.ws); ok {
		c.ws, c.attach, c.unixSock = "", true, p
		if p == "" {
			c.unixSock = backend.DaemonSocket(home) // where --daemon starts it
		}
		c.daemon = false // attached to, never started
	}
	if c.sshTarget == "" && c.ws == "" && !c.attach && s.SSH != nil {
		c.sshTarget = s.SSH.String()
	}
	if o.Remote.RemoteCodex != "" {
		c.remoteCodex = o.Remote.RemoteCodex
	}
	if o.Remote.RemoteWorkspace != "" {
		c.remoteWorkspace = o.Remote.RemoteWorkspace
	}
	if o.Cd != "" || o.Remote.RemoteWorkspace != "" {
		// A directory asked for on the command line is where a resumed
		// thread runs, as codex's --cd overrides its resume_cwd.
		c.settings.ResumeCwd = "current"
	}
	// Where the app-server runs is decided: the local daemon (--daemon,
	// --remote unix://) reads this machine's profiles and directories.
	remote := c.isRemote()
	prof, err := resolveProfile(o.Profile, file, home, remote)
	if err != nil {
		return runConfig{}, err
	}
	// Codex's profile first: the config's args and -c flags win over it.
	c.settings.CodexArgs = append(prof.codexArgs, s.CodexArgs...)
	c.profile = prof
	if c.addDirs, err = o.CodexFlags.addDirs(s.Workspace, remote); err != nil {
		return runConfig{}, err
	}
	return c, nil
}

// isRemote reports whether the app-server runs elsewhere (no local codex
// needed).
func (c runConfig) isRemote() bool { return c.ws != "" || c.sshTarget != "" }

// durable reports whether the run's app-server is the daemon (--daemon,
// or --remote unix://): it outlives tandem and the link.
func (c runConfig) durable() bool { return c.daemon || c.attach }

// locateCodex finds the local codex executable from the resolved
// settings; an error names where a configured command came from (the
// --codex flag, or the config file, line and key). Over ssh or websocket
// no local codex is needed: it returns "" and no error. A bad --codex
// value is a usageError.
func (c runConfig) locateCodex() (string, error) {
	if c.isRemote() || c.attach {
		return "", nil
	}
	codex, from := c.settings.Codex, c.settings.CodexFrom
	if from == "" {
		from = "--codex"
	}
	p, err := backend.LocateCodexFrom(codex, from)
	if err != nil && codex != "" && from == "--codex" {
		return "", &usageError{err.Error()} // a bad flag value: exit 2
	}
	return p, err
}

// codexEnviron returns the app-server's environment: tandem's, plus the
// configured codex env, plus CODEX_HOME pointing at a per-run home when
// the settings ask for one (see backend.PrepareCodexHome) and codex runs
// locally. cleanup removes the per-run home; the caller defers it right
// away and it runs after the app-server has stopped.
func (c runConfig) codexEnviron() (env []string, cleanup func(), err error) {
	s := c.settings
	env = s.Environ(os.Environ())
	if !s.PerRunHome() || c.isRemote() { // a remote run prepares the remote's home
		return env, func() {}, nil
	}
	dir, cleanup, err := backend.PrepareCodexHome(codexHomeOf(env), backend.StateDir(), s.MCPServers)
	if err != nil {
		return nil, nil, err
	}
	return setEnv(env, "CODEX_HOME", dir), cleanup, nil
}

// appServerTransport returns how a run reaches its app-server: the local
// codex at path, started in dir with the config's args and the
// environment of codexEnviron, the local daemon (daemonTransport), or the
// --ssh / --remote transport. cleanup removes the per-run CODEX_HOME; the
// caller defers it right away and it runs after the app-server has
// stopped. notes are warnings for the user (a daemon that keeps an older
// config).
func (c runConfig) appServerTransport(codex, dir string, log *slog.Logger) (t backend.Transport, cleanup func(), notes []string, err error) {
	if c.attach {
		if len(c.settings.CodexArgs) > 0 {
			where := "its CODEX_HOME's config.toml"
			if home := codexHomeOf(c.settings.Environ(os.Environ())); c.unixSock == backend.DaemonSocket(home) {
				where = filepath.Join(home, "config.toml")
			}
			notes = append(notes, daemonArgsNote(c.settings.CodexArgs, "the daemon's", where))
		}
		return &backend.DaemonTransport{Socket: c.unixSock}, func() {}, notes, nil
	}
	if c.daemon && !c.isRemote() {
		t, notes, err := c.daemonTransport(codex)
		return t, func() {}, notes, err
	}
	env, cleanup, err := c.codexEnviron()
	if err != nil {
		return nil, nil, nil, err
	}
	if c.isRemote() {
		if t, err = c.remoteTransport(log); err != nil {
			cleanup()
			return nil, nil, nil, err
		}
		if c.daemon && len(c.settings.CodexArgs) > 0 {
			notes = append(notes, daemonArgsNote(c.settings.CodexArgs, "the remote daemon's", "its CODEX_HOME's config.toml"))
		}
		return t, cleanup, notes, nil
	}
	return &backend.ProcessTransport{Path: codex, Args: c.settings.CodexArgs, Dir: dir, Env: env}, cleanup, nil, nil
}

// daemonTransport reaches the local daemon of the run's CODEX_HOME,
// starting it when it is not running: the shared home's, or — when the
// run wants a home of its own (MCP servers, --isolated-home) — the
// daemon home that outlives the run (backend.PrepareDaemonHome). The
// daemon runs in its CODEX_HOME, with the config's env.
func (c runConfig) daemonTransport(codex string) (backend.Transport, []string, error) {
	s := c.settings
	env := s.Environ(os.Environ())
	home := codexHomeOf(env)
	var notes []string
	if s.PerRunHome() {
		dir, changed, err := backend.PrepareDaemonHome(home, backend.StateDir(), s.MCPServers)
		if err != nil {
			return nil, nil, err
		}
		if changed && daemonRunning(dir) {
			notes = append(notes, "the codex daemon of "+dir+" runs with the config it started with; `CODEX_HOME="+dir+" codex app-server daemon restart` applies the new one (its running turns are lost)")
		}
		home = dir
	} else if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, nil, fmt.Errorf("CODEX_HOME %s: %w", home, err)
	}
	if len(s.CodexArgs) > 0 {
		notes = append(notes, daemonArgsNote(s.CodexArgs, "the daemon's", filepath.Join(home, "config.toml")))
	}
	return &backend.DaemonTransport{Codex: codex, Env: setEnv(env, "CODEX_HOME", home), Dir: home}, notes, nil
}

// daemonArgsNote says that args (codex's command line: -c overrides from
// the flags, a codex profile, --search, codex.args) do not reach whose
// daemon's app-server, which runs already, naming each -c key and any
// other argument, and where to set them instead.
func daemonArgsNote(args []string, whose, where string) string {
	var what []string
	for i := 0; i < len(args); i++ {
		if args[i] == "-c" && i+1 < len(args) {
			i++
			k, _, _ := strings.Cut(args[i], "=")
			what = append(what, k)
			continue
		}
		what = append(what, args[i])
	}
	return "codex settings do not reach " + whose + " app-server, which runs already (" + strings.Join(what, ", ") + "): set them in " + where
}

// daemonRunning reports whether the daemon of home looks alive: its
// control socket is there.
func daemonRunning(home string) bool {
	_, err := os.Stat(backend.DaemonSocket(home))
	return err == nil
}

// remoteTransport builds the SSH or websocket transport. Flags win over
// the profile: --ssh-option values go first (ssh keeps the first value of
// an option) and the profile's follow; --remote-codex and
// --remote-workspace replace the profile's. Managed MCP servers from the
// config travel to the remote per-run CODEX_HOME over stdin. Codex env
// from the config is not forwarded over ssh (set it on the remote).
func (c runConfig) remoteTransport(log *slog.Logger) (backend.Transport, error) {
	if c.ws != "" {
		return &backend.WSTransport{URL: c.ws, TokenFile: c.tokenFile}, nil
	}
	s := c.settings
	profileOpts, err := sshOptions(s.SSHOptions)
	if err != nil {
		return nil, err
	}
	opts := append(append([]string(nil), c.sshOptions...), profileOpts...)
	block, err := backend.ManagedMCPBlock(s.MCPServers)
	if err != nil {
		return nil, err
	}
	return &backend.SSHTransport{
		Target:          c.sshTarget,
		Options:         opts,
		RemoteCodex:     c.remoteCodex,
		RemoteWorkspace: c.remoteWorkspace,
		Args:            s.CodexArgs,
		MCPBlock:        block,
		Daemon:          c.daemon,
		Log:             log,
	}, nil
}

// threadCwd is the cwd sent with thread/start: the local workspace, or
// for an ssh app-server the remote workspace when it is absolute, else ""
// (the server's own directory, which the ssh bootstrap set; always so
// over --remote).
func (c runConfig) threadCwd(local string) string {
	if !c.isRemote() {
		return local
	}
	if c.ws == "" && path.IsAbs(c.remoteWorkspace) {
		return c.remoteWorkspace
	}
	return ""
}

// statusCwd is the workspace the status line shows before the server
// names it: the local one folded to ~, the configured remote workspace, or
// "" when only the remote server knows it.
func (c runConfig) statusCwd(local string) string {
	if !c.isRemote() {
		return ui.ShortHome(local)
	}
	if c.ws != "" {
		return ""
	}
	return c.remoteWorkspace
}

// sshOptions normalises the config's ssh_options: each entry is an ssh -o
// option ("ConnectTimeout=5"); the forms "-o", "X=y" and "-oX=y" are
// accepted too. Any other ssh argument is an error (tandem builds the
// rest of the ssh command line itself).
func sshOptions(in []string) ([]string, error) {
	var out []string
	for i := 0; i < len(in); i++ {
		o := in[i]
		switch {
		case o == "-o" && i+1 < len(in):
			i++
			out = append(out, in[i])
		case strings.HasPrefix(o, "-o"):
			out = append(out, o[2:])
		case strings.HasPrefix(o, "-") || !strings.ContainsAny(o, "= "):
			return nil, &usageError{fmt.Sprintf("invalid ssh_options entry %q: each entry is an ssh -o option such as \"ConnectTimeout=5\"", o)}
		default:
			out = append(out, o)
		}
	}
	return out, nil
}

func lookupEnv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

func setEnv(env []string, key, value string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != key {
			out = append(out, kv)
		}
	}
	return append(out, key+"="+value)
}
