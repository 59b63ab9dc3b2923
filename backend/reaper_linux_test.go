package backend

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"tandem/internal/lib/procfs"
)

// An orphan that a live app-server left behind (re-parented to tandem,
// the child subreaper) is waited for as it exits, not kept <defunct>
// until the app-server dies: the "app-server" here starts a subshell
// that outlives its parent, then stays up.
func TestOrphanIsReapedWhileTheAppServerLives(t *testing.T) {
	if err := EnableSubreaper(); err != nil {
		t.Skip("no child subreaper here:", err)
	}
	done := filepath.Join(t.TempDir(), "orphan-done")
	script := `( ( sleep 0.2; : > "$1" ) & ) ; exec cat`
	s, err := (&ProcessTransport{Command: []string{"sh", "-c", script, "sh", done}}).Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	group := s.(*process).cmd.Process.Pid

	deadline := time.Now().Add(patience) // a hang, not a slow machine
	for {
		if _, err := os.Stat(done); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the orphan never ran")
		}
		time.Sleep(10 * time.Millisecond)
	}
	self := os.Getpid()
	for {
		var zombies []string
		for pid, st := range procfs.Table() {
			if st.PPID == self && st.PGID == group && st.State == 'Z' {
				zombies = append(zombies, st.Comm+"@"+strconv.Itoa(pid))
			}
		}
		if len(zombies) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("orphans of the live app-server left <defunct>: %v", zombies)
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case <-s.(*process).exited:
		t.Fatal("the app-server died: the test proves nothing")
	default:
	}
}
