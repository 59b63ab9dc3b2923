package model

// SetPeer replaces the peer part of the status line (e.g. the replay's
// "replay 2× · space pause …"). Call it from the program's goroutine,
// i.e. from a wrapping model's Update.
func (m *Model) SetPeer(peer string) { m.status.Peer = peer }
