//go:build unix

package procfs

import (
	"errors"
	"syscall"
)

// Gone reports whether no process has the id pid: kill(pid, 0) fails
// with ESRCH. A process of another user (EPERM) is alive.
func Gone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
