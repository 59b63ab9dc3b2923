// Package procgroup starts a child process in a process group of its
// own that does not outlive tandem: the app-server, the tunnel's ssh.
package procgroup

import "syscall"

// Attr puts the child in its own process group (so it and its
// children are signalled as one: kill(-pid)) and has Linux send it
// SIGKILL if the thread of tandem that started it dies — a tandem
// killed with SIGKILL, which runs no cleanup, leaves nothing behind.
func Attr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
