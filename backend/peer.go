package backend

// The peers on this machine, as Stream.Describe and Session.Describe
// name them; any other name ("ssh HOST", a websocket URL) is a peer on
// another machine.
const (
	PeerLocal  = "local"  // an app-server tandem started (ProcessTransport)
	PeerDaemon = "daemon" // the local daemon (DaemonTransport)
)

// LocalPeer reports whether the app-server Describe named as peer runs on
// this machine and sees its files: a path of this machine means the same
// file there, and nothing needs copying to it.
func LocalPeer(peer string) bool { return peer == PeerLocal || peer == PeerDaemon }
