//go:build !linux

package backend

import "syscall"

// procAttr puts the app-server in its own process group (no parent-death
// signal outside Linux; the shutdown ladder still kills the group).
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
