// Package pair is `tandem serve`, the pairing server: one agent session
// shared over SSH, each guest in a Bubble Tea program of their own at
// their own terminal size, fed from one hub log (internal/hub), drivers
// able to type and answer, watchers only to look.
//
// Server (server.go, viewer.go) hosts the session: the wish server, one
// program per client, the pump from the hub to each program, the host's
// own --attach view, the idle timeout, a restart of the app-server that
// drivers share, and the shutdown that tells guests why. Around it is the
// security edge: who may join (Keyring: authorized_keys files with the
// OpenSSH options tandem honours, and certificate authorities), what an
// unauthenticated connection may cost (Guard: a short deadline and idle
// timeout until the client has sent its part of the key exchange, seen by
// kexScan, then the login grace; caps on pending connections and a
// per-address rate), how large
// a guest's terminal may be (Clamp), and the host key (LoadHostKey).
//
// It starts no app-server and reads no flags: the serve command
// (internal/cli) starts the session and feeds it in through
// Server.Publish. It must not import internal/cli.
package pair
