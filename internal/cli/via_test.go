package cli

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"

	"tandem/config"
	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/sshtest"
)

var viaPrinted = regexp.MustCompile(`a guest runs: (ssh -J \S+ -p (\d+) 127\.0\.0\.1) \(host key`)

// TestServeViaBastion publishes a pairing session on a bastion (the test
// sshd, forwarding allowed) with --via, joins it with exactly the printed
// ssh line, kills the tunnel's ssh and checks that serve publishes it
// again and a guest can join again (#17) — with connection sharing asked
// for in the options, which the tunnel does not use. A SIGKILLed serve
// leaves no ssh behind.
func TestServeViaBastion(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	bastion := sshtest.Start(t, sshtest.Options{Forwarding: true})
	env := e2e.NewEnv(t)
	dir := t.TempDir()
	// The guest logs in to the bastion and to tandem serve with the same
	// key: the test sshd's client key.
	pub, err := os.ReadFile(bastion.KeyFile + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	drivers := filepath.Join(dir, "drivers")
	if err := os.WriteFile(drivers, pub, 0o600); err != nil {
		t.Fatal(err)
	}
	argv := []string{"serve", "--codex", env.Codex, "-C", env.Dir, "--listen", "127.0.0.1:0",
		"--authorized-keys", drivers, "--host-key", filepath.Join(dir, "host_ed25519"), "--via", bastion.Target}
	// A shared connection asked for (as ~/.ssh/config's ControlMaster
	// auto; first, since ssh keeps an option's first value and the test
	// sshd's client options say no) is not the tunnel's: it keeps one of
	// its own.
	for _, o := range append([]string{"ControlMaster=auto", "ControlPersist=300", "ControlPath=" + filepath.Join(dir, "cm-%C")}, bastion.ClientOptions()...) {
		argv = append(argv, "--via-option", o)
	}
	// start runs serve; stderr is what it prints, exited closes when it
	// has exited.
	start := func() (serve *exec.Cmd, stderr *sshtest.LockedBuffer, exited chan struct{}) {
		serve = exec.Command(tandemBinary(t), argv...)
		serve.Env = append(env.Environ(), "XDG_STATE_HOME="+dir, "XDG_DATA_HOME="+dir)
		stderr = new(sshtest.LockedBuffer)
		serve.Stderr = stderr
		serve.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := serve.Start(); err != nil {
			t.Fatal(err)
		}
		exited = make(chan struct{})
		go func() { _ = serve.Wait(); close(exited) }()
		t.Cleanup(func() {
			_ = serve.Process.Signal(syscall.SIGINT)
			select {
			case <-exited:
			case <-time.After(patience):
				_ = syscall.Kill(-serve.Process.Pid, syscall.SIGKILL)
				<-exited
			}
		})
		return serve, stderr, exited
	}
	serve, stderr, exited := start()
	published := func(stderr *sshtest.LockedBuffer, n int) []string {
		t.Helper()
		deadline := time.Now().Add(patience)
		for time.Now().Before(deadline) {
			if m := viaPrinted.FindAllStringSubmatch(stderr.String(), -1); len(m) >= n {
				return m[n-1]
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("no %d. published line; stderr:\n%s", n, stderr.String())
		return nil
	}
	join := func(line string) {
		t.Helper()
		args := append([]string{"-F", bastion.ConfigFile, "-tt",
			"-o", "StrictHostKeyChecking=accept-new", "-o", "UserKnownHostsFile=" + filepath.Join(dir, "guest_known_hosts")},
			strings.Fields(line)[1:]...)
		guest := exec.Command("ssh", args...)
		ptmx, err := pty.StartWithSize(guest, &pty.Winsize{Cols: 100, Rows: 30})
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = guest.Process.Kill(); _ = guest.Wait(); ptmx.Close() }()
		emu := vt.NewEmulator(100, 30)
		var mu sync.Mutex
		go func() { _, _ = io.Copy(io.Discard, emu) }() // terminal replies
		go func() {
			buf := make([]byte, 32<<10)
			for {
				n, err := ptmx.Read(buf)
				mu.Lock()
				_, _ = emu.Write(buf[:n])
				mu.Unlock()
				if err != nil {
					return
				}
			}
		}()
		screen := func() string { mu.Lock(); defer mu.Unlock(); return emu.String() }
		deadline := time.Now().Add(patience)
		for !strings.Contains(screen(), "joined as driver") {
			if time.Now().After(deadline) {
				t.Fatalf("the guest did not get the session with %q; its screen:\n%s", line, screen())
			}
			time.Sleep(100 * time.Millisecond)
		}
		_, _ = ptmx.Write([]byte{4}) // Ctrl+D leaves
	}

	first := published(stderr, 1)
	join(first[1])

	// The tunnel's ssh dies: serve says so, publishes again, and a guest
	// joins again with the line printed then.
	tunnels := func() []int {
		var pids []int
		for _, p := range sshtest.Processes() {
			cmd := strings.Join(p.Argv, " ")
			if len(p.Argv) > 0 && filepath.Base(p.Argv[0]) == "ssh" && strings.Contains(cmd, "ExitOnForwardFailure=yes") && strings.Contains(cmd, bastion.Target[:strings.LastIndex(bastion.Target, ":")]) {
				pids = append(pids, p.PID)
			}
		}
		return pids
	}
	killed := tunnels()
	if len(killed) != 1 {
		t.Fatalf("%d tunnel ssh processes, want 1", len(killed))
	}
	_ = syscall.Kill(killed[0], syscall.SIGKILL)
	second := published(stderr, 2)
	if !strings.Contains(stderr.String(), "dropped") {
		t.Errorf("serve did not say the tunnel dropped:\n%s", stderr.String())
	}
	if second[2] != first[2] {
		t.Logf("the bastion gave another port: %s → %s", first[2], second[2])
	}
	join(second[1])

	// Ctrl+C ends serve (exit 0) and its tunnel.
	_ = serve.Process.Signal(syscall.SIGINT)
	select {
	case <-exited:
	case <-time.After(patience):
		t.Fatal("serve did not exit")
	}
	if code := serve.ProcessState.ExitCode(); code != 0 {
		t.Errorf("serve exited %d after Ctrl+C", code)
	}
	if left := tunnels(); len(left) != 0 {
		t.Errorf("tunnel ssh left behind: %v", left)
	}

	// A serve killed with SIGKILL runs no cleanup: Linux ends its tunnel
	// (procgroup's parent-death signal).
	killedServe, stderr2, exited2 := start()
	published(stderr2, 1)
	if n := len(tunnels()); n != 1 {
		t.Fatalf("%d tunnel ssh processes, want 1", n)
	}
	_ = killedServe.Process.Kill()
	<-exited2
	deadline := time.Now().Add(patience)
	for len(tunnels()) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if left := tunnels(); len(left) != 0 {
		t.Errorf("tunnel ssh outlived a SIGKILLed serve: %v", left)
		for _, pid := range left {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// The guest's -J names the bastion as ssh reads it: an IPv6 host in
// brackets, before its port.
func TestViaLineJumpHost(t *testing.T) {
	for _, tc := range []struct {
		b    config.SSHTarget
		jump string
	}{
		{config.SSHTarget{User: "me", Host: "bastion", Port: 2200}, "-J me@bastion:2200 "},
		{config.SSHTarget{Host: "bastion"}, "-J bastion "},
		{config.SSHTarget{User: "me", Host: "::1", Port: 22}, "-J me@[::1]:22 "},
	} {
		if got := viaLine(tc.b, 4242, "SHA256:x"); !strings.Contains(got, tc.jump+"-p 4242 127.0.0.1") {
			t.Errorf("%+v: %q, want %q", tc.b, got, tc.jump)
		}
	}
}
