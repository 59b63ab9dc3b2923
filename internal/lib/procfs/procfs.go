// Package procfs reads the process table from /proc/*/stat and probes a
// pid (Gone). backend's orphan reaper uses the table, and so do the
// lifecycle tests that check nothing outlives tandem; spill files and
// per-run CODEX_HOMEs of dead processes are found with Gone. Where there
// is no /proc the table is empty. It imports nothing of tandem.
package procfs

import (
	"os"
	"strconv"
	"strings"
)

// Stat is what tandem needs from a /proc/PID/stat line: the process's
// state ('R', 'S', 'Z', …), its parent, process group and session ids,
// and its command name.
type Stat struct {
	PPID, PGID, SID int
	State           byte
	Comm            string
}

// Table reads /proc/*/stat into a map from pid to Stat. A process that
// ends while it reads, or whose line does not parse, is left out.
func Table() map[int]Stat {
	out := map[int]Stat{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// comm is in parentheses and may hold spaces and parentheses.
		s := string(b)
		i, j := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if i < 0 || j < i {
			continue
		}
		f := strings.Fields(s[j+1:])
		if len(f) < 4 || len(f[0]) == 0 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgid, _ := strconv.Atoi(f[2])
		sid, _ := strconv.Atoi(f[3])
		out[pid] = Stat{PPID: ppid, PGID: pgid, SID: sid, State: f[0][0], Comm: s[i+1 : j]}
	}
	return out
}
