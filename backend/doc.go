// Package backend owns the Codex app-server peer: the transports that start
// or reach it, the newline-delimited JSON-RPC 2.0 connection that speaks to
// it, and the typed protocol values that the rest of tandem consumes.
//
// Notifications are decoded into typed events (see events.go) and server
// requests into typed requests carrying a reply function (see requests.go);
// the requests tandem sends are one table (methods.go). Raw JSON never
// leaves this package except as a recorded trace.
//
// # Parts
//
// The package has four parts, by file (TestFileGroups holds each file to
// its part):
//
//   - wire: the protocol's values and their decoding, no I/O —
//     protocol.go, items.go, threads.go, threadsearch.go, tools.go, exectypes.go; the client method table
//     methods.go; the server's notifications (events.go, events_more.go)
//     and requests with their answers (requests.go, approvals.go,
//     questions.go, answers.go, autoreply.go); recorded calls
//     (recorded.go). It imports no I/O package and nothing of tandem.
//   - conn: JSON-RPC over any byte stream (rpc.go, retry.go, silence.go): Conn reads
//     and writes lines, and starts or dials nothing.
//   - client: Session, the typed Client over one Conn (session.go, queue.go,
//     client.go, calls.go, aside.go, fs.go, sandbox.go, skills.go,
//     turns.go, images.go, stuck.go, resumecwd.go, exec.go, searchcalls.go, occurrences.go), and its
//     lanes: more Sessions, one thread each, on the same Conn, which the
//     root routes each thread's events and requests to (lanes.go). It
//     reaches the peer through the Transport and Stream interfaces only.
//   - transport: starting and reaching the app-server and what goes with
//     it — a local process (process.go), SSH through the system ssh
//     client (ssh.go, sshstart.go, sshdaemon.go), a websocket (ws.go),
//     the daemon (daemon.go, daemonhome.go), the steps of a start and
//     their waits (startsteps.go), finding codex and its version
//     (locate.go, versions.go), CODEX_HOME (codexhome.go), the peer's
//     stderr (stderr.go, ring.go), orphan reaping (reaper*.go), the
//     redacting wrapper (redact.go) and peer names (peer.go). Transports
//     carry bytes: they name no protocol value.
//
// Why parts of one package and not a backend/transport package: the
// transports are nearly self-contained (they share only ErrClosed and a
// truncating helper with the rest), but about 30 of their names
// (SSHTransport, ProcessTransport, DaemonTransport, IsDurable, StateDir,
// LocateCodexFrom, MeaningfulStderr, RedactTransport, …) are used as
// backend.X by internal/cli, internal/e2e, internal/tunnel, config, model
// and sessions, tests among them; and a test of the ssh stream's noise
// filter (TestSSHNoiseThenStrict) drives the unexported stream through a
// Conn, so it could live on neither side of a package line without new
// API. Moving them would mean an alias in backend for each name, two
// names for every transport until every caller moves. The one part no one
// outside names (Ring) is too small to be a package of its own. So the
// split is by file, documented here and enforced by TestFileGroups;
// moving the transport part out is one mechanical step once its callers
// can change.
//
// backend must not import model/, ui/ or forms/, and renders nothing.
package backend
