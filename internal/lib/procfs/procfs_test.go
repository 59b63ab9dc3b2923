package procfs

import (
	"os"
	"syscall"
	"testing"
)

func TestTableHasThisProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc here")
	}
	st, ok := Table()[os.Getpid()]
	if !ok {
		t.Fatal("this process is not in the table")
	}
	pgid, _ := syscall.Getpgid(0)
	if st.PPID != os.Getppid() || st.PGID != pgid || st.State == 0 || st.Comm == "" {
		t.Fatalf("got %+v; want ppid %d, pgid %d, a state and a command name", st, os.Getppid(), pgid)
	}
}
