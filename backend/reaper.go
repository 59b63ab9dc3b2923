package backend

import "sync"

// Orphan reaping: an agent command runs in its own session (setsid), so
// killing the app-server's process group misses it, and when the
// app-server dies the command is re-parented away from tandem. With
// EnableSubreaper (reaper_linux.go) it is re-parented to tandem instead,
// and ReapOrphans kills and reaps it.
//
// The registry below tells ReapOrphans which of tandem's children are the
// live app-servers it must leave alone (tracked exec.Cmd children, reaped
// by their own Wait), and which process groups belonged to app-servers.
var peers = struct {
	sync.Mutex
	live   map[int]bool // pid of a running ProcessTransport child
	groups map[int]bool // process group of every app-server started
}{live: map[int]bool{}, groups: map[int]bool{}}

// startTracked runs start (which starts a child and returns its pid, or 0
// on failure) with the registry locked, so ReapOrphans never mistakes a
// child being started for an orphan.
func startTracked(start func() int) {
	peers.Lock()
	defer peers.Unlock()
	if pid := start(); pid > 0 {
		peers.live[pid] = true
		peers.groups[pid] = true
	}
}

// untrack forgets a child once its Wait returned.
func untrack(pid int) {
	peers.Lock()
	delete(peers.live, pid)
	peers.Unlock()
}
