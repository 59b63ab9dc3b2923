package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"tandem/internal/lib/procfs"
	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/sshtest"
)

// A SIGTSTP to tandem serve does not stop it (the guests' links run in
// its process): it says so once per signal and serves on.
func TestServeRefusesSIGTSTP(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := e2e.NewEnv(t)
	dir := t.TempDir()
	keys := filepath.Join(dir, "drivers")
	if err := os.WriteFile(keys, []byte(sshtest.NewKey(t, "alice").Line()), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tandemBinary(t), "serve", "--codex", env.Codex, "--listen", "127.0.0.1:0",
		"--authorized-keys", keys, "--host-key", filepath.Join(dir, "host_ed25519"))
	cmd.Dir = env.Dir
	cmd.Env = append(env.Environ(), "XDG_STATE_HOME="+dir, "XDG_DATA_HOME="+dir)
	var stderr sshtest.LockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // also a stopped one
		<-exited
	})
	waitStderr := func(what string, cond func(string) bool) {
		t.Helper()
		for deadline := time.Now().Add(patience); !cond(stderr.String()); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s; stderr:\n%s", what, stderr.String())
			}
		}
	}
	waitStderr("serve to start", func(s string) bool { return sharingOn.MatchString(s) })
	for i := 1; i <= 2; i++ {
		if err := cmd.Process.Signal(syscall.SIGTSTP); err != nil {
			t.Fatal(err)
		}
		waitStderr("the refusal", func(s string) bool { return strings.Count(s, serveTSTPRefused) == i })
		if st := procfs.Table()[cmd.Process.Pid]; st.State == 'T' {
			t.Fatalf("tandem serve stopped (state %c)", st.State)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(patience):
		t.Fatalf("serve did not end on SIGTERM:\n%s", stderr.String())
	}
}
