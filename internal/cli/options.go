package cli

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"tandem/config"
)

// SessionOptions are the flags of every command that runs an app-server
// (tandem, resume, exec, serve); the names follow codex's own CLI. They
// hold the values as given: resolve turns them and the config file into
// the run's runConfig and never writes back.
type SessionOptions struct {
	Cd        string   // -C/--cd: the agent's working directory
	Model     string   // -m/--model
	Approval  string   // -a/--ask-for-approval, one of config.ApprovalPolicies
	Sandbox   string   // -s/--sandbox, one of config.SandboxModes
	Overrides []string // -c/--codex-config key=value, repeatable
	Codex     string   // --codex: the codex executable
	LogFile   string   // --log-file

	// Record is --record FILE: the protocol transcript (JSONL, redacted).
	Record string
	// TraceProtocol is --trace-protocol FILE: every JSON-RPC line.
	TraceProtocol string
	// TurnTimeout is --turn-timeout (default config.DefaultTurnTimeout;
	// 0 is off); TurnTimeoutSet says it was given, so it beats the file.
	TurnTimeout    time.Duration
	TurnTimeoutSet bool

	ConfigFile   string // --config
	Profile      string // -p/--profile: tandem's [profiles.NAME] and codex's NAME.config.toml (codexflags.go)
	IsolatedHome bool   // --isolated-home
	Theme        string // --theme, one of config.Themes
	// NoAltScreen is --no-alt-screen (tandem, resume, serve --attach):
	// the TUI runs inline, its finished cells in the terminal's
	// scrollback.
	NoAltScreen bool
	// Daemon is --daemon: run the agent on codex's app-server daemon.
	Daemon bool

	Remote RemoteOptions
	// CodexFlags are --search, --add-dir and --yolo (codexflags.go).
	CodexFlags codexFlags
}

// RemoteOptions choose where the app-server runs when it is not a local
// child: over SSH (--ssh, or ssh = "…" in a profile) or an app-server
// already listening on a websocket (--remote).
type RemoteOptions struct {
	SSH             string   // --ssh [user@]host[:port]
	SSHOptions      []string // --ssh-option, repeatable, passed as ssh -o
	RemoteCodex     string   // --remote-codex PATH
	RemoteWorkspace string   // --remote-workspace DIR
	WS              string   // --remote ws://host:port or unix://PATH
	TokenFile       string   // --remote-token-file F
}

// register adds the session flags to fs.
func (o *SessionOptions) register(fs *pflag.FlagSet) {
	fs.StringVarP(&o.Cd, "cd", "C", "", "working directory for the agent (default: current directory)")
	fs.StringVarP(&o.Model, "model", "m", "", "model the agent uses")
	fs.StringVarP(&o.Approval, "ask-for-approval", "a", "", "when to ask before running commands: "+config.ApprovalPolicies.Allowed())
	fs.StringVarP(&o.Sandbox, "sandbox", "s", "", "sandbox for commands: "+config.SandboxModes.Allowed())
	fs.StringArrayVarP(&o.Overrides, "codex-config", "c", nil, "codex config override key=value, passed to the app-server (repeatable)")
	fs.StringVar(&o.Codex, "codex", "", "path of the codex executable")
	fs.StringVar(&o.LogFile, "log-file", "", "log file (default: $XDG_STATE_HOME/tandem/tandem.log)")
	fs.StringVar(&o.TraceProtocol, "trace-protocol", "", "write every JSON-RPC message in both directions to FILE, redacted, one JSON line each")
	o.TurnTimeout = config.DefaultTurnTimeout // before Var: it is the default --help shows
	fs.Var(turnTimeoutValue{d: &o.TurnTimeout, set: &o.TurnTimeoutSet}, "turn-timeout", "after a turn runs this long, offer to interrupt it (exec: interrupt it and fail; 0 or off = never)")
	fs.StringVar(&o.ConfigFile, "config", "", "tandem config file (default: $XDG_CONFIG_HOME/tandem/config.toml)")
	fs.VarP(profileValue{&o.Profile}, "profile", "p", "apply profile `NAME`: tandem's [profiles.NAME] and codex's $CODEX_HOME/NAME.config.toml, whichever exist")
	fs.BoolVar(&o.IsolatedHome, "isolated-home", false, "run codex on a per-run copy of CODEX_HOME (always on when MCP servers are configured)")
	fs.StringVar(&o.Theme, "theme", "", "colour theme: "+config.Themes.Allowed())
	fs.BoolVar(&o.Daemon, "daemon", false, "run the agent on codex's app-server daemon (locally or with --ssh): the turn goes on when tandem quits or the link drops, and tandem re-attaches (serve: a restarted serve resumes the thread)")
	o.Remote.register(fs)
	o.CodexFlags.register(fs)
	fs.StringVar(&o.Record, "record", "", "record the session's protocol transcript to `FILE` (JSONL, redacted) for tandem replay and tandem export")
}

// registerScreen adds --no-alt-screen to fs: the commands that draw the
// TUI on this terminal (not exec).
func (o *SessionOptions) registerScreen(fs *pflag.FlagSet) {
	fs.BoolVar(&o.NoAltScreen, "no-alt-screen", false, "run inline, not in the alternate screen: finished output goes into the terminal's scrollback (config: alt_screen = false)")
}

func (r *RemoteOptions) register(fs *pflag.FlagSet) {
	fs.StringVar(&r.SSH, "ssh", "", "run the agent on a remote machine over ssh: [user@]host[:port] (uses your ssh config, agent and known_hosts)")
	fs.StringArrayVar(&r.SSHOptions, "ssh-option", nil, "extra ssh option, passed as ssh -o OPTION (repeatable), e.g. ProxyJump=bastion")
	fs.StringVar(&r.RemoteCodex, "remote-codex", "", "codex executable on the ssh remote (default: codex from the remote login shell's PATH)")
	fs.StringVar(&r.RemoteWorkspace, "remote-workspace", "", "working directory on the ssh remote, created if missing (default: the remote home)")
	fs.StringVar(&r.WS, "remote", "", "attach to a running codex app-server: ws://host:port (a websocket), or unix://PATH (a daemon's control socket; unix:// alone: the daemon of $CODEX_HOME)")
	fs.StringVar(&r.TokenFile, "remote-token-file", "", "file holding the capability token for --remote, sent as Authorization: Bearer")
}

// validate checks the flag values on their own, before the config file
// is read; errors are usage errors that name the flag and, for
// enumerations, its allowed values.
func (o *SessionOptions) validate() error {
	if err := config.ApprovalPolicies.CheckFlag(o.Approval); err != nil {
		return &usageError{err.Error()}
	}
	if err := config.SandboxModes.CheckFlag(o.Sandbox); err != nil {
		return &usageError{err.Error()}
	}
	for _, kv := range o.Overrides {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return &usageError{fmt.Sprintf("invalid value %q for -c/--codex-config: expected key=value", kv)}
		}
	}
	if o.Cd != "" {
		st, err := os.Stat(o.Cd)
		if err != nil || !st.IsDir() {
			return &usageError{fmt.Sprintf("invalid value %q for -C/--cd: not a directory", o.Cd)}
		}
	}
	if err := checkLogFile(o.LogFile); err != nil {
		return err
	}
	if err := o.CodexFlags.validate(o.Approval, o.Sandbox); err != nil {
		return err
	}
	if o.Daemon && o.Remote.WS != "" {
		return &usageError{"--daemon and --remote are exclusive: --daemon starts (or finds) the daemon itself, --remote attaches to a server already running"}
	}
	return o.Remote.validate()
}

// validate checks the remote flags on their own; errors are usage errors.
func (r *RemoteOptions) validate() error {
	if r.SSH != "" && r.WS != "" {
		return &usageError{"--ssh and --remote are exclusive: run the agent over ssh, or attach to a websocket app-server"}
	}
	if r.SSH != "" {
		if _, err := config.ParseSSHTarget(r.SSH); err != nil {
			reason := err.Error()
			var te *config.SSHTargetError
			if errors.As(err, &te) {
				reason = te.Reason // the value is named once
			}
			return &usageError{fmt.Sprintf("invalid value %q for --ssh: %s", r.SSH, reason)}
		}
	}
	if r.WS != "" {
		if _, ok := unixSocketPath(r.WS); !ok {
			u, err := url.Parse(r.WS)
			if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
				return &usageError{fmt.Sprintf("invalid value %q for --remote: expected ws://HOST:PORT or unix://PATH", r.WS)}
			}
		}
	}
	if r.TokenFile != "" && r.WS == "" {
		return &usageError{"--remote-token-file needs --remote"}
	}
	if _, ok := unixSocketPath(r.WS); ok && r.TokenFile != "" {
		return &usageError{"--remote-token-file is for a websocket (ws://): a unix socket needs no token"}
	}
	return nil
}

// checkLogFile checks an explicit --log-file before anything starts: it
// must not be a directory, and its folder must exist (tandem creates the
// folder only for the default path under $XDG_STATE_HOME). Errors are
// usage errors naming the flag.
func checkLogFile(path string) error {
	if path == "" {
		return nil
	}
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return &usageError{fmt.Sprintf("invalid value %q for --log-file: is a directory", path)}
		}
	} else {
		dir := filepath.Dir(path)
		st, err := os.Stat(dir)
		switch {
		case err != nil:
			return &usageError{fmt.Sprintf("invalid value %q for --log-file: folder %s does not exist", path, dir)}
		case !st.IsDir():
			return &usageError{fmt.Sprintf("invalid value %q for --log-file: %s is not a folder", path, dir)}
		}
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return &usageError{fmt.Sprintf("invalid value %q for --log-file: %v", path, err)}
	}
	return f.Close()
}

// turnTimeoutValue is the --turn-timeout flag: a Go duration ("90s",
// "10m"), or "0", "off" or "none" for no timeout, the same values the
// config key turn_timeout accepts (config.ParseTurnTimeout). set records
// that the flag was given.
type turnTimeoutValue struct {
	d   *time.Duration
	set *bool
}

// Set implements pflag.Value.
func (v turnTimeoutValue) Set(s string) error {
	d, err := config.ParseTurnTimeout(s)
	if err != nil {
		return err
	}
	*v.d = d
	if v.set != nil {
		*v.set = true
	}
	return nil
}

// String implements pflag.Value.
func (v turnTimeoutValue) String() string {
	if v.d == nil {
		return ""
	}
	if *v.d == 0 {
		return "off"
	}
	return v.d.String()
}

// Type implements pflag.Value; it is the value name in --help.
func (v turnTimeoutValue) Type() string { return "duration" }

// Range implements rangedFlag (numflags.go): Set takes what
// config.ParseTurnTimeout does.
func (v turnTimeoutValue) Range() string {
	return "0 or off, or " + config.MinTurnTimeout.String() + " or more"
}

// unixSocketPath reads --remote unix://PATH: ok is false for any other
// scheme; path is "" for unix:// alone (the daemon of $CODEX_HOME).
func unixSocketPath(remote string) (path string, ok bool) {
	return strings.CutPrefix(remote, "unix://")
}
