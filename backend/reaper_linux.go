//go:build linux

package backend

import (
	"os"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"tandem/internal/lib/procfs"
)

var subreaper atomic.Bool

// EnableSubreaper makes tandem a child subreaper (PR_SET_CHILD_SUBREAPER):
// a process that an app-server started and left behind is re-parented to
// tandem, not to init, so ReapOrphans can find and end it. Call it once,
// early, in a process that owns app-servers.
func EnableSubreaper() error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return err
	}
	subreaper.Store(true)
	return nil
}

// ReapOrphans ends what dead or closed app-servers left behind: tandem's
// children that are not a live app-server (ProcessTransport) and that
// belong to an app-server's process group or to another session (an
// agent command started with setsid), plus all their descendants. They
// get SIGTERM, then SIGKILL after a second, and the orphans re-parented
// to tandem are reaped with wait4 on their own pids, never on a tracked
// exec.Cmd child. It repeats while a kill orphans more (a dying parent
// re-parents its children to tandem), for at most a few seconds.
func ReapOrphans() {
	if !subreaper.Load() {
		return
	}
	peers.Lock()
	defer peers.Unlock()
	self := os.Getpid()
	mySid, _ := unix.Getsid(0)
	deadline := time.Now().Add(4 * time.Second)
	termed := map[int]bool{}
	var termAt time.Time
	for {
		table := procfs.Table()
		var roots []int
		for pid, st := range table {
			if st.PPID != self || peers.live[pid] {
				continue
			}
			if peers.groups[st.PGID] || (st.SID != mySid && st.SID != 0) {
				roots = append(roots, pid)
			}
		}
		// Reap the direct children that are already zombies.
		alive := false
		for _, pid := range roots {
			if table[pid].State == 'Z' {
				var ws unix.WaitStatus
				_, _ = unix.Wait4(pid, &ws, unix.WNOHANG, nil)
				continue
			}
			alive = true
		}
		victims := subtree(table, roots)
		if len(victims) == 0 && !alive {
			return
		}
		now := time.Now()
		for _, pid := range victims {
			if !termed[pid] {
				termed[pid] = true
				_ = syscall.Kill(pid, syscall.SIGTERM)
				if termAt.IsZero() {
					termAt = now
				}
			} else if now.Sub(termAt) > time.Second {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		if now.After(deadline) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// subtree lists the live (non-zombie) processes among roots and their
// descendants.
func subtree(table map[int]procfs.Stat, roots []int) []int {
	kids := map[int][]int{}
	for pid, st := range table {
		kids[st.PPID] = append(kids[st.PPID], pid)
	}
	var out []int
	seen := map[int]bool{}
	stack := append([]int(nil), roots...)
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[p] {
			continue
		}
		seen[p] = true
		if table[p].State != 'Z' {
			out = append(out, p)
		}
		stack = append(stack, kids[p]...)
	}
	return out
}
