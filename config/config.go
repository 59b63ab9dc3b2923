package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Error is a configuration error: File and Line locate it (Line 0 when
// unknown), Key is the dotted key ("profiles.work.sandbox"), Msg says what
// is wrong and, for enumerations, the allowed values.
type Error struct {
	File string
	Line int
	Key  string
	Msg  string
}

// Error renders "FILE:LINE: KEY: MSG", leaving out the parts not known.
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			b.WriteString(":" + strconv.Itoa(e.Line))
		}
		b.WriteString(": ")
	}
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// CodexCommand is how the app-server is started: Command is the codex
// executable (a path or a name on $PATH), Args are extra arguments after
// `app-server --listen stdio://`, Env is added to tandem's environment.
type CodexCommand struct {
	Command *string           `toml:"command"`
	Args    *[]string         `toml:"args"`
	Env     map[string]string `toml:"env"`
}

// MCPServer is one [mcp_servers.NAME] table, in codex's own keys: a stdio
// server sets Command (with Args, Env, Cwd); a streamable-HTTP server sets
// URL (with BearerTokenEnvVar, HTTPHeaders, EnvHTTPHeaders). Exactly one
// of Command and URL is set. Timeouts are in seconds.
type MCPServer struct {
	Command string            `toml:"command,omitempty"`
	Args    []string          `toml:"args,omitempty"`
	Env     map[string]string `toml:"env,omitempty"`
	Cwd     string            `toml:"cwd,omitempty"`

	URL               string            `toml:"url,omitempty"`
	BearerTokenEnvVar string            `toml:"bearer_token_env_var,omitempty"`
	HTTPHeaders       map[string]string `toml:"http_headers,omitempty"`
	EnvHTTPHeaders    map[string]string `toml:"env_http_headers,omitempty"`

	StartupTimeoutSec *float64 `toml:"startup_timeout_sec,omitempty"`
	ToolTimeoutSec    *float64 `toml:"tool_timeout_sec,omitempty"`
	Enabled           *bool    `toml:"enabled,omitempty"`
	EnabledTools      []string `toml:"enabled_tools,omitempty"`
	DisabledTools     []string `toml:"disabled_tools,omitempty"`
}

// Transport returns "stdio" or "http".
func (s MCPServer) Transport() string {
	if s.URL != "" {
		return "http"
	}
	return "stdio"
}

// mcpNameRE is what an MCP server name may be: it becomes a bare TOML key
// and part of the tool names codex gives the model.
var mcpNameRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// ValidateMCPServer checks one server: name limited to [A-Za-z0-9_-],
// exactly one of command (stdio) and url (http), keys of the other
// transport absent, no empty names or values in env and headers, and no
// negative timeouts. The error names the offending key below
// mcp_servers.NAME.
func ValidateMCPServer(name string, s *MCPServer) (key string, err error) {
	if !mcpNameRE.MatchString(name) {
		return "", fmt.Errorf("invalid server name %q: only letters, digits, '_' and '-' are allowed", name)
	}
	if s == nil {
		return "", fmt.Errorf("server %q is null: set command (stdio) or url (http)", name)
	}
	switch {
	case s.Command == "" && s.URL == "":
		return "", errors.New("set either command (a stdio server) or url (an http server)")
	case s.Command != "" && s.URL != "":
		return "url", errors.New("command and url are both set: a server is either stdio (command) or http (url)")
	}
	if s.URL != "" {
		if len(s.Args) > 0 {
			return "args", errors.New("args is for stdio servers (command), not http servers (url)")
		}
		if len(s.Env) > 0 {
			return "env", errors.New("env is for stdio servers (command), not http servers (url)")
		}
		if s.Cwd != "" {
			return "cwd", errors.New("cwd is for stdio servers (command), not http servers (url)")
		}
		if !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://") {
			return "url", fmt.Errorf("invalid url %q: must start with http:// or https://", s.URL)
		}
	} else {
		if s.BearerTokenEnvVar != "" || len(s.HTTPHeaders) > 0 || len(s.EnvHTTPHeaders) > 0 {
			return "bearer_token_env_var", errors.New("bearer_token_env_var, http_headers and env_http_headers are for http servers (url), not stdio servers (command)")
		}
	}
	for _, m := range []struct {
		key string
		m   map[string]string
	}{{"env", s.Env}, {"http_headers", s.HTTPHeaders}, {"env_http_headers", s.EnvHTTPHeaders}} {
		for k, v := range m.m {
			if k == "" {
				return m.key, errors.New("empty name")
			}
			if v == "" {
				return m.key + "." + k, errors.New("empty value")
			}
		}
	}
	for _, a := range s.Args {
		if a == "" {
			return "args", errors.New("empty argument")
		}
	}
	if s.StartupTimeoutSec != nil && *s.StartupTimeoutSec <= 0 {
		return "startup_timeout_sec", errors.New("must be a positive number of seconds")
	}
	if s.ToolTimeoutSec != nil && *s.ToolTimeoutSec <= 0 {
		return "tool_timeout_sec", errors.New("must be a positive number of seconds")
	}
	return "", nil
}

// Layer is what the file's top level and each [profiles.NAME] table may
// set. A nil field is not set at that level.
type Layer struct {
	Codex          *CodexCommand `toml:"codex"`
	Model          *string       `toml:"model"`
	ApprovalPolicy *string       `toml:"approval_policy"`
	Sandbox        *string       `toml:"sandbox"`
	Workspace      *string       `toml:"workspace"`
	Theme          *string       `toml:"theme"`
	AltScreen      *bool         `toml:"alt_screen"`
	TurnTimeout    *string       `toml:"turn_timeout"`
	// UnresponsiveAfterSecs is unresponsive_after_secs: whole seconds,
	// 0 turns the check off, never negative.
	UnresponsiveAfterSecs *int64               `toml:"unresponsive_after_secs"`
	CodexHome             *string              `toml:"codex_home"`
	SSH                   *string              `toml:"ssh"`
	SSHOptions            *[]string            `toml:"ssh_options"`
	RemoteCodex           *string              `toml:"remote_codex"`
	RemoteWorkspace       *string              `toml:"remote_workspace"`
	Notifications         *string              `toml:"notifications"`
	ResumeCwd             *string              `toml:"resume_cwd"`
	Daemon                *bool                `toml:"daemon"`
	MCPServers            map[string]MCPServer `toml:"mcp_servers"`
}

// rawFile is the whole document. [keys] is the file's top level only: a
// profile does not rebind keys.
type rawFile struct {
	Layer
	Profiles map[string]Layer   `toml:"profiles"`
	Keys     map[string]KeyList `toml:"keys"`
}

// File is a loaded, validated configuration file. A File with Path ""
// stands for "no file" (all defaults).
type File struct {
	Path     string
	Top      Layer
	Profiles map[string]Layer
	// Keys is the [keys] table: action name → the keys it is bound to
	// (keys.go; the keymap checks the names and the clashes).
	Keys  map[string]KeyList
	lines *lineIndex
}

// ProfileNames returns the profile names, sorted.
func (f *File) ProfileNames() []string {
	if f == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(f.Profiles))
}

// DefaultPath returns $XDG_CONFIG_HOME/tandem/config.toml, or
// ~/.config/tandem/config.toml when XDG_CONFIG_HOME is unset.
func DefaultPath() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "tandem", "config.toml")
}

// Load reads and validates the file at path. When path is "" the default
// path is used and a missing file is fine (an empty File is returned); a
// missing file named explicitly (--config) is an error. Syntax errors,
// wrong types, unknown keys and invalid values in any profile are
// reported as *Error.
func Load(path string) (*File, error) {
	explicit := path != ""
	if !explicit {
		path = DefaultPath()
	}
	data, err := ReadSmallFile(path, MaxFileBytes)
	if err != nil {
		if !explicit && errors.Is(err, fs.ErrNotExist) {
			return &File{}, nil
		}
		return nil, fmt.Errorf("config: %w", err)
	}
	return Parse(path, data)
}

// Parse decodes and validates data read from path (path is used in
// errors only).
func Parse(path string, data []byte) (*File, error) {
	lines := indexLines(data)
	if err := checkTypes(path, data, lines); err != nil { // types.go
		return nil, err
	}
	var raw rawFile
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&raw)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &Error{File: path, Line: pe.Position.Line, Key: pe.LastKey, Msg: pe.Message}
		}
		if m := parseErrRE.FindStringSubmatch(err.Error()); m != nil {
			line, _ := strconv.Atoi(m[1])
			return nil, &Error{File: path, Line: line, Key: m[2], Msg: m[3]}
		}
		return nil, &Error{File: path, Msg: strings.TrimPrefix(err.Error(), "toml: ")}
	}
	f := &File{Path: path, Top: raw.Layer, Profiles: raw.Profiles, Keys: raw.Keys, lines: lines}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, f.unknownKeys(und)
	}
	if err := f.validate(); err != nil {
		return nil, err
	}
	return f, nil
}

// unknownKeys reports every key the decoder did not use.
func (f *File) unknownKeys(keys []toml.Key) error {
	var parts []string
	first := 0
	for _, k := range keys {
		line := f.lines.line(k)
		if first == 0 || (line > 0 && line < first) {
			first = line
		}
		s := k.String()
		if line > 0 {
			s += fmt.Sprintf(" (line %d)", line)
		}
		parts = append(parts, s)
	}
	return &Error{File: f.Path, Line: first, Msg: "unknown keys: " + strings.Join(parts, ", ") +
		"; allowed keys are " + strings.Join(layerKeys, ", ") + ", profiles.NAME.*, mcp_servers.NAME.* and keys.ACTION (the top level's only)"}
}

// layerKeys are the keys a layer may set, for the unknown-keys message.
var layerKeys = []string{"codex.command", "codex.args", "codex.env", "model", "approval_policy", "sandbox",
	"workspace", "theme", "alt_screen", "turn_timeout", "unresponsive_after_secs", "codex_home", "ssh", "ssh_options", "remote_codex", "remote_workspace", "notifications", "resume_cwd", "daemon"}

// errAt builds an *Error for the dotted key path.
func (f *File) errAt(key []string, format string, args ...any) *Error {
	return &Error{File: f.Path, Line: f.lines.line(key), Key: toml.Key(key).String(), Msg: fmt.Sprintf(format, args...)}
}

func (f *File) validate() error {
	if err := f.validateLayer(nil, &f.Top); err != nil {
		return err
	}
	for _, name := range f.ProfileNames() {
		p := f.Profiles[name]
		if err := f.validateLayer([]string{"profiles", name}, &p); err != nil {
			return err
		}
	}
	return nil
}

func (f *File) validateLayer(prefix []string, l *Layer) error {
	key := func(k ...string) []string { return append(slices.Clone(prefix), k...) }
	for _, e := range []struct {
		enum Enum
		v    *string
	}{{ApprovalPolicies, l.ApprovalPolicy}, {SandboxModes, l.Sandbox}, {Themes, l.Theme}, {CodexHomeModes, l.CodexHome}, {NotificationModes, l.Notifications}, {ResumeCwdModes, l.ResumeCwd}} {
		if e.v == nil {
			continue
		}
		if msg, ok := e.enum.checkValue(*e.v); !ok {
			return f.errAt(key(e.enum.Key), "%s", msg)
		}
	}
	if l.TurnTimeout != nil {
		if _, err := ParseTurnTimeout(*l.TurnTimeout); err != nil {
			return f.errAt(key("turn_timeout"), "%v", err)
		}
	}
	if v := l.UnresponsiveAfterSecs; v != nil && (*v < 0 || *v > maxUnresponsiveSecs) {
		return f.errAt(key("unresponsive_after_secs"), "must be a whole number of seconds from 0 (off) to %d", maxUnresponsiveSecs)
	}
	for _, k := range []struct {
		name string
		v    *string
	}{{"model", l.Model}, {"workspace", l.Workspace}, {"remote_codex", l.RemoteCodex}, {"remote_workspace", l.RemoteWorkspace}} {
		if k.v != nil && strings.TrimSpace(*k.v) == "" {
			return f.errAt(key(k.name), "empty value: remove the key to use the default")
		}
	}
	if l.Codex != nil {
		if l.Codex.Command != nil && strings.TrimSpace(*l.Codex.Command) == "" {
			return f.errAt(key("codex", "command"), "empty value: remove the key to find codex on $PATH")
		}
		for k := range l.Codex.Env {
			if k == "" || strings.Contains(k, "=") {
				return f.errAt(key("codex", "env"), "invalid variable name %q", k)
			}
		}
	}
	if l.SSH != nil {
		if _, err := ParseSSHTarget(*l.SSH); err != nil {
			return f.errAt(key("ssh"), "%v", err)
		}
	}
	for _, n := range slices.Sorted(maps.Keys(l.MCPServers)) {
		s := l.MCPServers[n]
		sub, err := ValidateMCPServer(n, &s)
		if err != nil {
			k := key("mcp_servers", n)
			if sub != "" {
				k = append(k, strings.Split(sub, ".")...)
			}
			return f.errAt(k, "%v", err)
		}
	}
	return nil
}

// ParseTurnTimeout parses a turn_timeout value: a Go duration such as
// "90s", "10m" or "1h30m", at least MinTurnTimeout; "0" or "off" mean no
// timeout.
func ParseTurnTimeout(s string) (time.Duration, error) {
	switch strings.TrimSpace(s) {
	case "0", "off", "none":
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q: use a number with a unit (s, m, h), e.g. \"90s\" or \"10m\", or \"off\"", s)
	}
	if d == 0 {
		return 0, nil
	}
	if d < MinTurnTimeout {
		return 0, fmt.Errorf("invalid duration %q: want 0 or off, or %s or more", s, MinTurnTimeout)
	}
	return d, nil
}

// MinTurnTimeout is the shortest turn_timeout: a shorter one would offer
// to interrupt every turn as it starts.
const MinTurnTimeout = time.Second
