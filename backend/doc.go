// Package backend owns the Codex app-server peer: the transports that start
// it (a local process; SSH through the system ssh client, ssh.go; an
// app-server already listening on a websocket, ws.go), the newline-delimited
// JSON-RPC 2.0 client that speaks to it, and the typed protocol values that
// the rest of tandem consumes.
//
// Notifications are decoded into typed events (see events.go) and server
// requests into typed requests carrying a reply function (see requests.go);
// raw JSON never leaves this package except as a recorded trace.
//
// backend must not import model/, ui/ or forms/, and renders nothing.
package backend
