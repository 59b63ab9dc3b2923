package main

import (
	"log/slog"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/pflag"

	"tandem/backend"
	"tandem/config"
)

// configFlags are the options about tandem's configuration file (see
// config/ and docs/CONFIG.md).
type configFlags struct {
	file         string // --config
	profile      string // --profile
	isolatedHome bool   // --isolated-home
	theme        string // --theme
	fs           *pflag.FlagSet
}

func (c *configFlags) register(fs *pflag.FlagSet) {
	c.fs = fs
	fs.StringVar(&c.file, "config", "", "tandem config file (default: $XDG_CONFIG_HOME/tandem/config.toml)")
	fs.StringVar(&c.profile, "profile", "", "config profile to apply ([profiles.NAME] in the config file)")
	fs.BoolVar(&c.isolatedHome, "isolated-home", false, "run codex on a per-run copy of CODEX_HOME (always on when MCP servers are configured)")
	fs.StringVar(&c.theme, "theme", "", "colour theme: "+config.Themes.Allowed())
}

// resolveConfig loads the config file and resolves it with the flags
// (flags > profile > file > defaults). The result is kept in f.settings
// and written back into the plain flag fields (cd, model, approval,
// sandbox, codex, turn timeout), so code that reads those sees the
// effective values. Every error is a usage error (exit status 2).
func (f *flags) resolveConfig() error {
	file, err := config.Load(f.cfg.file)
	if err != nil {
		return &usageError{err.Error()}
	}
	var args []string
	for _, kv := range f.overrides {
		args = append(args, "-c", kv)
	}
	fl := config.Flags{
		Codex:        f.codex,
		CodexArgs:    args,
		Model:        f.model,
		Approval:     f.approval,
		Sandbox:      f.sandbox,
		Workspace:    f.cd,
		Theme:        f.cfg.theme,
		IsolatedHome: f.cfg.isolatedHome,
	}
	if f.cfg.fs != nil && f.cfg.fs.Changed("turn-timeout") {
		fl.TurnTimeout = f.diag.turnTimeout.String()
	}
	s, err := config.Resolve(file, f.cfg.profile, fl)
	if err != nil {
		return &usageError{err.Error()}
	}
	f.settings = s
	f.cd, f.model, f.approval, f.sandbox, f.codex = s.Workspace, s.Model, s.ApprovalPolicy, s.Sandbox, s.Codex
	f.diag.turnTimeout = s.TurnTimeout
	return nil
}

// codexEnviron returns the app-server's environment: tandem's, plus the
// configured codex env, plus CODEX_HOME pointing at a per-run home when
// the settings ask for one (see backend.PrepareCodexHome) and codex runs
// locally. cleanup removes
// the per-run home; the caller defers it right away and it runs after the
// app-server has stopped.
func (f *flags) codexEnviron() (env []string, cleanup func(), err error) {
	s := f.settings
	env = s.Environ(os.Environ())
	if !s.PerRunHome() || f.isRemote() { // a remote run prepares the remote's home (remote.go)
		return env, func() {}, nil
	}
	shared := lookupEnv(env, "CODEX_HOME")
	if shared == "" {
		shared = backend.SharedCodexHome()
	}
	dir, cleanup, err := backend.PrepareCodexHome(config.ExpandHome(shared), backend.StateDir(), s.MCPServers)
	if err != nil {
		return nil, nil, err
	}
	return setEnv(env, "CODEX_HOME", dir), cleanup, nil
}

// appServerTransport returns how a run reaches its app-server: the local
// codex at path, started in dir with the config's args and the
// environment of codexEnviron, or the --ssh / --remote transport
// (remote.go). cleanup removes the per-run CODEX_HOME; the caller defers
// it right away and it runs after the app-server has stopped.
func (f *flags) appServerTransport(codex, dir string, log *slog.Logger) (t backend.Transport, cleanup func(), err error) {
	env, cleanup, err := f.codexEnviron()
	if err != nil {
		return nil, nil, err
	}
	if f.isRemote() {
		if t, err = f.remoteTransport(log); err != nil {
			cleanup()
			return nil, nil, err
		}
		return t, cleanup, nil
	}
	return &backend.ProcessTransport{Path: codex, Args: f.settings.CodexArgs, Dir: dir, Env: env}, cleanup, nil
}

// themeFilter returns a program option that keeps the configured theme:
// with theme "dark" or "light" the terminal's background report is
// dropped, so the model never switches palettes on its own.
func themeFilter(s config.Settings) tea.ProgramOption {
	fixed := s.Theme == "dark" || s.Theme == "light"
	return tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
		if _, ok := msg.(tea.BackgroundColorMsg); ok && fixed {
			return nil
		}
		return msg
	})
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
