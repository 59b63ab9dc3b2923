//go:build !linux

// Package procgroup starts a child process in a process group of its
// own that does not outlive tandem: the app-server, the tunnel's ssh.
package procgroup

import "syscall"

// Attr puts the child in its own process group (so it and its
// children are signalled as one: kill(-pid)). There is no parent-death
// signal outside Linux: tandem's own shutdown kills the group.
func Attr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
