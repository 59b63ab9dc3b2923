package backend

import "syscall"

// procAttr puts the app-server in its own process group and has Linux
// kill it if tandem's thread that started it dies.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
