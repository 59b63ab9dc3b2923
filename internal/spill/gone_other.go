//go:build !unix

package spill

// gone cannot probe a process here: every owner counts as alive, so
// RemoveStale deletes nothing.
func gone(pid int) bool { return false }
