//go:build linux

package backend

import (
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"tandem/internal/lib/procfs"
)

var subreaper atomic.Bool

// EnableSubreaper makes tandem a child subreaper (PR_SET_CHILD_SUBREAPER):
// a process that an app-server started and left behind is re-parented to
// tandem, not to init, so ReapOrphans can find and end it. Such an orphan
// that exits while the app-server lives (a login shell's probe, a git
// the agent's command left running) is waited for as it exits: on each
// SIGCHLD, reapExited. Call it once, early, in a process that owns
// app-servers.
func EnableSubreaper() error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return err
	}
	if !subreaper.Swap(true) {
		// Notify steals no Wait: exec.Cmd's children are waited for by
		// their own Wait; reapExited waits only for orphans, by pid.
		sigchld := make(chan os.Signal, 1)
		signal.Notify(sigchld, syscall.SIGCHLD)
		go func() {
			for range sigchld {
				reapExited()
			}
		}()
	}
	return nil
}

// orphanRoot reports whether st, a child of tandem, is an orphan an
// app-server left behind: no live app-server (ProcessTransport) and
// either in an app-server's process group or in another session (an
// agent's command started with setsid). Every child tandem starts
// itself is in tandem's own session and group, or is a ProcessTransport
// (whose group is an app-server's), or (a tunnel's ssh) leads a group of
// its own that no app-server has. The caller holds peers.
func orphanRoot(pid int, st procfs.Stat, mySid int) bool {
	if peers.live[pid] {
		return false
	}
	return peers.groups[st.PGID] || (st.SID != mySid && st.SID != 0)
}

// reapExited waits for the orphans re-parented to tandem (orphanRoot)
// that have exited, by pid, so none stays <defunct> for tandem's life.
// The live ones are left alone: they may be an agent's background
// command, ended with their app-server (ReapOrphans).
func reapExited() {
	peers.Lock()
	defer peers.Unlock()
	self := os.Getpid()
	mySid, _ := unix.Getsid(0)
	for pid, st := range procfs.Table() {
		if st.PPID == self && st.State == 'Z' && orphanRoot(pid, st, mySid) {
			var ws unix.WaitStatus
			_, _ = unix.Wait4(pid, &ws, unix.WNOHANG, nil)
		}
	}
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
			if st.PPID == self && orphanRoot(pid, st, mySid) {
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
