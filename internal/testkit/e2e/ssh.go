package e2e

// The SSH transport for e2e tests: the real codex reached through a real
// sshd (internal/testkit/sshtest) on this machine.

import (
	"testing"
	"time"

	"tandem/backend"
	"tandem/internal/testkit/sshtest"
)

// StartSSHD starts a real sshd for this env (see internal/testkit/sshtest): its
// sessions get a temp XDG_STATE_HOME, so the remote per-run CODEX_HOMEs
// stay out of the user's home. banner lines, if any, are printed by a
// login wrapper before each command.
func (e *Env) StartSSHD(t testing.TB, banner ...string) *sshtest.Server {
	t.Helper()
	return e.StartSSHDWith(t, sshtest.Options{Banner: banner})
}

// StartSSHDWith is StartSSHD with any sshtest.Options (a login shell, a
// banner, more session variables); XDG_STATE_HOME is added to opts.Env.
func (e *Env) StartSSHDWith(t testing.TB, opts sshtest.Options) *sshtest.Server {
	t.Helper()
	state := t.TempDir()
	t.Cleanup(func() { sshtest.WaitRemoteHomes(state, Patience) }) // before state is removed
	opts.Env = append(opts.Env, "XDG_STATE_HOME="+state)
	return sshtest.Start(t, opts)
}

// SSHTransport returns a transport that runs this env's codex on srv (the
// same machine) through the system ssh client: the remote codex is
// e.Codex, the remote shared CODEX_HOME is e.Home (so the mock provider is
// configured there), and the remote workspace is e.Dir.
func (e *Env) SSHTransport(srv *sshtest.Server) *backend.SSHTransport {
	return &backend.SSHTransport{
		Target:          srv.Target,
		ConfigFile:      srv.ConfigFile,
		RemoteCodex:     e.Codex,
		RemoteWorkspace: e.Dir,
		RemoteCodexHome: e.Home,
		Grace:           2 * time.Second,
	}
}

// ConnectWith is Connect over any transport: it starts a session whose
// events feed the TUI, opens a thread in cwd and sends SessionReadyMsg.
func (u *TUI) ConnectWith(t testing.TB, tr backend.Transport, cwd, approval, sandbox string) {
	t.Helper()
	u.connect(t, Patience, tr, cwd, approval, sandbox) // tui.go
}
