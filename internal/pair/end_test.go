package pair

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tandem/internal/testkit/sshtest"
	"tandem/ui"
)

// TestGuestIsToldTheHostEndedTheSession: a guest on the system ssh, in a
// terminal, whose host ends the session (Ctrl+C, quitting the attached
// view) reads why on their terminal once the session's screen is gone,
// and ssh exits cleanly (status 0) rather than with a dropped link.
func TestGuestIsToldTheHostEndedTheSession(t *testing.T) {
	sshtest.Require(t)
	k := sshtest.NewKey(t, "alice")
	dir := t.TempDir()
	drivers := filepath.Join(dir, "drivers")
	_ = os.WriteFile(drivers, []byte(k.Line()), 0o600)
	keys, err := LoadKeyring(drivers, "")
	if err != nil {
		t.Fatal(err)
	}
	ps := New(Options{Keys: keys, Status: ui.StatusInfo{Cwd: "~/w"}})
	srv, err := ps.SSHServer(filepath.Join(dir, "host"))
	if err != nil {
		t.Fatal(err)
	}
	addr := serveOn(t, srv)
	ended := false
	t.Cleanup(func() {
		if !ended {
			ps.Shutdown(srv, nil, false)
		}
	})
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command("ssh", "-F", "/dev/null", "-tt", "-p", port, "-i", k.File(t), "-o", "IdentitiesOnly=yes",
		"-o", "UserKnownHostsFile=/dev/null", "-o", "StrictHostKeyChecking=no", "-o", "BatchMode=yes", "alice@127.0.0.1")
	stdin, _ := cmd.StdinPipe() // kept open: the guest stays until the host ends
	defer stdin.Close()
	var out sshtest.LockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() { _ = cmd.Process.Kill() }()
	if !waitFor(func() bool { return len(ps.hub.Present()) == 1 }) {
		t.Fatalf("the guest never joined:\n%q", tail(out.String()))
	}
	ended = true
	ps.Shutdown(srv, nil, false)
	select {
	case err = <-exited:
	case <-time.After(patience):
		t.Fatal("the guest's ssh never exited")
	}
	got := out.String()
	why := "tandem serve: " + EndHost
	if !strings.Contains(got, why) {
		t.Fatalf("the guest was not told why the session ended; ssh printed, last:\n%q", tail(got))
	}
	if err != nil {
		t.Errorf("the guest's ssh exited with %v, want 0", err)
	}
}

// tail is the last 2 KiB of s, for a failure's message.
func tail(s string) string { return s[max(0, len(s)-2048):] }
