package config

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// DefaultTurnTimeout is the turn timeout when neither a flag nor the file
// sets one.
const DefaultTurnTimeout = 30 * time.Minute

// DefaultUnresponsiveAfter is how long the app-server may leave a request
// unanswered, with nothing else heard from it, before the status line
// says it is not answering (unresponsive_after_secs).
const DefaultUnresponsiveAfter = 30 * time.Second

// maxUnresponsiveSecs bounds unresponsive_after_secs (a day).
const maxUnresponsiveSecs = 24 * 60 * 60

// Flags are the command-line values that take part in resolution. An
// empty string (or false, or nil) means "not given on the command line".
type Flags struct {
	Codex        string   // --codex
	CodexArgs    []string // extra app-server args from flags (-c key=value pairs, already expanded)
	Model        string   // -m/--model
	Approval     string   // -a/--ask-for-approval
	Sandbox      string   // -s/--sandbox
	Workspace    string   // -C/--cd
	Theme        string   // --theme
	NoAltScreen  bool     // --no-alt-screen: same as alt_screen = false
	TurnTimeout  string   // --turn-timeout, a duration string
	IsolatedHome bool     // --isolated-home: same as codex_home = "per-run"
	SSH          string   // --ssh [user@]host[:port]
	Daemon       bool     // --daemon
}

// Settings are the resolved settings of one run: flags over the profile
// over the file's top level over the defaults. Everyone reads this struct;
// nothing else reads the file.
type Settings struct {
	// ConfigFile is the file read ("" when none exists).
	ConfigFile string

	// Codex is the codex executable as configured ("" means: locate it,
	// see backend.LocateCodexFrom). CodexArgs go after `app-server --listen
	// stdio://` (profile args replace top-level args; flag args are
	// appended). CodexEnv is added to tandem's environment (profile
	// entries override top-level ones).
	Codex string
	// CodexFrom says where Codex was set, for error messages: "--codex",
	// or "FILE:LINE: codex.command" ("profiles.NAME.codex.command");
	// "" when Codex is "".
	CodexFrom string
	CodexArgs []string
	CodexEnv  map[string]string

	// Thread settings; "" means the server's default.
	Model          string
	ApprovalPolicy string // one of ApprovalPolicies.Values
	Sandbox        string // one of SandboxModes.Values
	// Workspace is the agent's working directory, absolute; the current
	// directory by default.
	Workspace string

	// Theme is "auto", "dark" or "light" (default "auto").
	Theme string
	// AltScreen is true (the default) when the TUI runs full-screen in
	// the terminal's alternate screen; false (alt_screen = false,
	// --no-alt-screen) runs it inline, finished output going into the
	// terminal's own scrollback.
	AltScreen bool
	// TurnTimeout is how long a turn may run before tandem offers to
	// interrupt it (exec interrupts it and fails); 0 means no limit.
	// Default DefaultTurnTimeout.
	TurnTimeout time.Duration
	// UnresponsiveAfter is how long the app-server may leave a request
	// unanswered, with no message from it since, before the status line
	// names it as not answering and F5 kills and restarts it
	// (unresponsive_after_secs); 0 turns the check off. Default
	// DefaultUnresponsiveAfter.
	UnresponsiveAfter time.Duration

	// CodexHome is "shared" or "per-run". It is "per-run" when asked for
	// (codex_home, --isolated-home) or when MCP servers are configured,
	// since those are injected into a per-run copy of CODEX_HOME.
	CodexHome string
	// Notifications is when desktop notifications are sent: one of
	// NotificationModes (default "unfocused").
	Notifications string
	// ResumeCwd is where a resumed or forked thread runs: one of
	// ResumeCwdModes (default "session", the thread's own workspace).
	ResumeCwd string
	// MCPServers are the managed MCP servers by name (profile entries
	// replace top-level entries of the same name).
	MCPServers map[string]MCPServer

	// SSH is the remote target (nil: run codex locally), with ssh's extra
	// options, the codex command on the remote and its workspace.
	SSH             *SSHTarget
	SSHOptions      []string
	RemoteCodex     string
	RemoteWorkspace string

	// Daemon runs the agent on codex's app-server daemon (daemon = true,
	// --daemon): it outlives tandem and a dropped link, and tandem
	// attaches to it over its control socket.
	Daemon bool
}

// PerRunHome reports whether the run uses a per-run CODEX_HOME.
func (s Settings) PerRunHome() bool { return s.CodexHome == "per-run" }

// Dark reports whether the dark palette applies: theme "dark", or "auto"
// unless $COLORFGBG says the background is light.
func (s Settings) Dark() bool {
	switch s.Theme {
	case "light":
		return false
	case "dark":
		return true
	}
	return !lightBackground(os.Getenv("COLORFGBG"))
}

// lightBackground reads $COLORFGBG ("fg;bg", e.g. "0;15"): background
// colours 7 and 9–15 are light.
func lightBackground(v string) bool {
	i := strings.LastIndex(v, ";")
	if i < 0 {
		return false
	}
	switch v[i+1:] {
	case "7", "9", "10", "11", "12", "13", "14", "15":
		return true
	}
	return false
}

// Resolve combines the file (nil means none), the named profile ("" for
// none) and the flags into Settings. Errors: an unknown profile (the
// message lists the file's profiles), an invalid flag value (naming the
// flag and its allowed values), a workspace that is not a directory.
func Resolve(file *File, profile string, flags Flags) (Settings, error) {
	if file == nil {
		file = &File{}
	}
	s := Settings{ConfigFile: file.Path, Theme: "auto", AltScreen: true, CodexHome: "shared", TurnTimeout: DefaultTurnTimeout, UnresponsiveAfter: DefaultUnresponsiveAfter, Notifications: "unfocused", ResumeCwd: "session"}
	layers := []*Layer{&file.Top}
	if profile != "" {
		p, ok := file.Profiles[profile]
		if !ok {
			where := "no config file was found at " + DefaultPath()
			if file.Path != "" {
				where = file.Path + " has no profiles"
				if names := file.ProfileNames(); len(names) > 0 {
					where = file.Path + " defines: " + strings.Join(names, ", ")
				}
			}
			return s, fmt.Errorf("unknown profile %q: %s", profile, where)
		}
		layers = append(layers, &p)
	}
	var timeout string
	// Lower layers first; each set value overrides.
	for li, l := range layers {
		setStr(&s.Model, l.Model)
		setStr(&s.ApprovalPolicy, l.ApprovalPolicy)
		setStr(&s.Sandbox, l.Sandbox)
		setStr(&s.Workspace, l.Workspace)
		setStr(&s.Theme, l.Theme)
		if l.AltScreen != nil {
			s.AltScreen = *l.AltScreen
		}
		setStr(&timeout, l.TurnTimeout)
		if v := l.UnresponsiveAfterSecs; v != nil {
			s.UnresponsiveAfter = time.Duration(*v) * time.Second // validated by Parse
		}
		setStr(&s.CodexHome, l.CodexHome)
		setStr(&s.RemoteCodex, l.RemoteCodex)
		setStr(&s.RemoteWorkspace, l.RemoteWorkspace)
		setStr(&s.Notifications, l.Notifications)
		setStr(&s.ResumeCwd, l.ResumeCwd)
		if l.SSHOptions != nil {
			s.SSHOptions = slices.Clone(*l.SSHOptions)
		}
		if l.Daemon != nil {
			s.Daemon = *l.Daemon
		}
		if l.SSH != nil {
			t, _ := ParseSSHTarget(*l.SSH) // validated by Parse
			s.SSH = &t
		}
		if c := l.Codex; c != nil {
			setStr(&s.Codex, c.Command)
			if c.Command != nil {
				key := []string{"codex", "command"}
				if li > 0 {
					key = append([]string{"profiles", profile}, key...)
				}
				s.CodexFrom = file.keyPlace(key)
			}
			if c.Args != nil {
				s.CodexArgs = slices.Clone(*c.Args)
			}
			if c.Env != nil {
				if s.CodexEnv == nil {
					s.CodexEnv = map[string]string{}
				}
				maps.Copy(s.CodexEnv, c.Env)
			}
		}
		if l.MCPServers != nil {
			if s.MCPServers == nil {
				s.MCPServers = map[string]MCPServer{}
			}
			maps.Copy(s.MCPServers, l.MCPServers)
		}
	}

	// Flags.
	for _, e := range []struct {
		enum Enum
		dst  *string
		v    string
	}{{ApprovalPolicies, &s.ApprovalPolicy, flags.Approval}, {SandboxModes, &s.Sandbox, flags.Sandbox}, {Themes, &s.Theme, flags.Theme}} {
		if err := e.enum.CheckFlag(e.v); err != nil {
			return s, err
		}
		if e.v != "" {
			*e.dst = e.v
		}
	}
	if flags.Codex != "" {
		s.Codex, s.CodexFrom = flags.Codex, "--codex"
	}
	s.CodexArgs = append(s.CodexArgs, flags.CodexArgs...)
	if flags.Model != "" {
		s.Model = flags.Model
	}
	if flags.Workspace != "" {
		s.Workspace = flags.Workspace
	}
	if flags.NoAltScreen {
		s.AltScreen = false
	}
	if flags.TurnTimeout != "" {
		if _, err := ParseTurnTimeout(flags.TurnTimeout); err != nil {
			return s, fmt.Errorf("--turn-timeout: %w", err)
		}
		timeout = flags.TurnTimeout
	}
	if flags.SSH != "" {
		t, err := ParseSSHTarget(flags.SSH)
		if err != nil {
			return s, fmt.Errorf("--ssh: %w", err)
		}
		s.SSH = &t
	}
	if flags.Daemon {
		s.Daemon = true
	}
	if flags.IsolatedHome || len(s.MCPServers) > 0 {
		s.CodexHome = "per-run"
	}
	if timeout != "" {
		s.TurnTimeout, _ = ParseTurnTimeout(timeout) // validated above or by Parse
	}

	// The workspace: ~ expanded, made absolute, must be a directory (only
	// locally; a remote workspace is the remote's business).
	if s.Workspace == "" {
		wd, err := os.Getwd()
		if err != nil {
			return s, fmt.Errorf("working directory: %w", err)
		}
		s.Workspace = wd
	}
	s.Workspace = ExpandHome(s.Workspace)
	if abs, err := filepath.Abs(s.Workspace); err == nil {
		s.Workspace = abs
	}
	if st, err := os.Stat(s.Workspace); err != nil || !st.IsDir() {
		src := "workspace"
		if flags.Workspace != "" {
			src = "-C/--cd"
		}
		return s, fmt.Errorf("invalid value %q for %s: not a directory", s.Workspace, src)
	}
	if s.Codex != "" {
		s.Codex = ExpandHome(s.Codex)
	}
	return s, nil
}

func setStr(dst *string, v *string) {
	if v != nil {
		*dst = *v
	}
}

// ExpandHome replaces a leading "~/" (or a lone "~") with the user's home
// directory.
func ExpandHome(p string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return p
	}
	return filepath.Join(home, strings.TrimPrefix(p, "~"))
}

// Environ returns base (typically os.Environ()) with CodexEnv applied:
// a configured variable replaces any inherited one of the same name.
func (s Settings) Environ(base []string) []string {
	if len(s.CodexEnv) == 0 {
		return base
	}
	out := make([]string, 0, len(base)+len(s.CodexEnv))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := s.CodexEnv[k]; !ok {
			out = append(out, kv)
		}
	}
	keys := slices.Sorted(maps.Keys(s.CodexEnv))
	for _, k := range keys {
		out = append(out, k+"="+s.CodexEnv[k])
	}
	return out
}

// keyPlace renders where a key is set: "FILE:LINE: KEY" (without LINE
// when unknown).
func (f *File) keyPlace(key []string) string {
	e := Error{File: f.Path, Key: toml.Key(key).String()}
	if f.lines != nil {
		e.Line = f.lines.line(key)
	}
	return strings.TrimSuffix(e.Error(), ": ")
}
