package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"path"
	"strings"

	"github.com/spf13/pflag"

	"tandem/backend"
	"tandem/config"
)

// remoteFlags choose where the app-server runs when it is not a local
// child: over SSH (--ssh, or ssh = "…" in a profile) or an app-server
// already listening on a websocket (--remote).
type remoteFlags struct {
	ssh             string   // --ssh [user@]host[:port]
	sshOptions      []string // --ssh-option, repeatable, passed as ssh -o
	remoteCodex     string   // --remote-codex PATH
	remoteWorkspace string   // --remote-workspace DIR
	ws              string   // --remote ws://host:port
	tokenFile       string   // --remote-token-file F
}

func (r *remoteFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&r.ssh, "ssh", "", "run the agent on a remote machine over ssh: [user@]host[:port] (uses your ssh config, agent and known_hosts)")
	fs.StringArrayVar(&r.sshOptions, "ssh-option", nil, "extra ssh option, passed as ssh -o OPTION (repeatable), e.g. ProxyJump=bastion")
	fs.StringVar(&r.remoteCodex, "remote-codex", "", "codex executable on the ssh remote (default: codex from the remote login shell's PATH)")
	fs.StringVar(&r.remoteWorkspace, "remote-workspace", "", "working directory on the ssh remote, created if missing (default: the remote home)")
	fs.StringVar(&r.ws, "remote", "", "attach to a running codex app-server that listens on a websocket: ws://host:port")
	fs.StringVar(&r.tokenFile, "remote-token-file", "", "file holding the capability token for --remote, sent as Authorization: Bearer")
}

// validate checks the remote flags on their own; errors are usage errors.
func (r *remoteFlags) validate() error {
	if r.ssh != "" && r.ws != "" {
		return &usageError{"--ssh and --remote are exclusive: run the agent over ssh, or attach to a websocket app-server"}
	}
	if r.ssh != "" {
		if _, err := config.ParseSSHTarget(r.ssh); err != nil {
			reason := err.Error()
			var te *config.SSHTargetError
			if errors.As(err, &te) {
				reason = te.Reason
			}
			return &usageError{fmt.Sprintf("invalid value %q for --ssh: %s", r.ssh, reason)}
		}
	}
	if r.ws != "" {
		u, err := url.Parse(r.ws)
		if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
			return &usageError{fmt.Sprintf("invalid value %q for --remote: expected ws://HOST:PORT", r.ws)}
		}
	}
	if r.tokenFile != "" && r.ws == "" {
		return &usageError{"--remote-token-file needs --remote"}
	}
	return nil
}

// sshTarget is the effective ssh target: the flag, else the profile's.
func (f *flags) sshTarget() string {
	if f.remote.ssh != "" {
		return f.remote.ssh
	}
	if f.remote.ws == "" && f.settings.SSH != nil {
		return f.settings.SSH.String()
	}
	return ""
}

// isRemote reports whether the app-server runs elsewhere (no local codex
// needed).
func (f *flags) isRemote() bool { return f.remote.ws != "" || f.sshTarget() != "" }

// remoteTransport builds the SSH or websocket transport. Flags win over
// the profile: --ssh-option values go first (ssh keeps the first value of
// an option) and the profile's follow; --remote-codex and
// --remote-workspace replace the profile's. Managed MCP servers from the
// config travel to the remote per-run CODEX_HOME over stdin. Codex env
// from the config is not forwarded over ssh (set it on the remote).
func (f *flags) remoteTransport(log *slog.Logger) (backend.Transport, error) {
	if f.remote.ws != "" {
		return &backend.WSTransport{URL: f.remote.ws, TokenFile: f.remote.tokenFile}, nil
	}
	s := f.settings
	profileOpts, err := sshOptions(s.SSHOptions)
	if err != nil {
		return nil, err
	}
	opts := append(append([]string(nil), f.remote.sshOptions...), profileOpts...)
	codex, ws := s.RemoteCodex, s.RemoteWorkspace
	if f.remote.remoteCodex != "" {
		codex = f.remote.remoteCodex
	}
	if f.remote.remoteWorkspace != "" {
		ws = f.remote.remoteWorkspace
	}
	block, err := backend.ManagedMCPBlock(s.MCPServers)
	if err != nil {
		return nil, err
	}
	return &backend.SSHTransport{
		Target:          f.sshTarget(),
		Options:         opts,
		RemoteCodex:     codex,
		RemoteWorkspace: ws,
		Args:            s.CodexArgs,
		MCPBlock:        block,
		Log:             log,
	}, nil
}

// threadCwd is the cwd sent with thread/start: the local workspace, or
// for a remote app-server the remote workspace when it is absolute, else
// "" (the server's own directory, which the ssh bootstrap set).
func (f *flags) threadCwd(local string) string {
	if !f.isRemote() {
		return local
	}
	ws := f.remote.remoteWorkspace
	if ws == "" && f.remote.ws == "" {
		ws = f.settings.RemoteWorkspace
	}
	if f.remote.ws == "" && path.IsAbs(ws) {
		return ws
	}
	return ""
}

// statusCwd is the workspace the status line shows before the server
// names it: the local one folded to ~, the configured remote workspace, or
// "" when only the remote server knows it.
func (f *flags) statusCwd(local string) string {
	if !f.isRemote() {
		return shortPath(local)
	}
	if f.remote.ws != "" {
		return ""
	}
	if ws := f.remote.remoteWorkspace; ws != "" {
		return ws
	}
	return f.settings.RemoteWorkspace
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
