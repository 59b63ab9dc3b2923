//go:build !unix

package procfs

// Gone cannot probe a process here: every process counts as alive, so
// what is kept per process (spill files, per-run homes) is never removed.
func Gone(pid int) bool { return false }
