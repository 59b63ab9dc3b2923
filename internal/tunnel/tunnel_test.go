package tunnel

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tandem/config"
)

// fakeSSH writes a script standing in for ssh: body runs with the
// attempt number in $n (a counter file next to it).
func fakeSSH(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "ssh")
	script := "#!/bin/sh\nc=" + dir + "/count\nn=$(($(cat $c 2>/dev/null || echo 0)+1))\necho $n > $c\necho \"$@\" >> " + dir + "/argv\n" + body
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFirstAttemptFailureIsReturned(t *testing.T) {
	bin := fakeSSH(t, "echo 'ssh: Could not resolve hostname nosuch.invalid: Name or service not known' >&2\nexit 255\n")
	err := Run(context.Background(), Options{Target: config.SSHTarget{Host: "nosuch.invalid"}, Local: "127.0.0.1:2222", SSH: bin})
	if err == nil || !strings.Contains(err.Error(), "Could not resolve hostname") || !strings.Contains(err.Error(), "nosuch.invalid") {
		t.Fatalf("Run = %v", err)
	}
}

// A forward that was up and dropped is tried again, asking for the same
// port; when that is refused it takes any.
func TestDropIsRetriedOnTheSamePort(t *testing.T) {
	bin := fakeSSH(t, `case $n in
1) echo 'Allocated port 4242 for remote forward to 127.0.0.1:2222' >&2; sleep 0.2; echo 'Connection to bastion closed by remote host.' >&2; exit 255;;
2) echo 'Warning: remote port forwarding failed for listen port 4242' >&2; exit 255;;
*) echo 'Allocated port 5353 for remote forward to 127.0.0.1:2222' >&2; sleep 30;;
esac
`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var ports []int
	var drops []string
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Target: config.SSHTarget{User: "me", Host: "bastion", Port: 2200}, Local: "127.0.0.1:2222", SSH: bin,
			MaxBackoff: 10 * time.Millisecond,
			Published: func(p int) {
				mu.Lock()
				ports = append(ports, p)
				if len(ports) == 2 {
					cancel()
				}
				mu.Unlock()
			},
			Dropped: func(reason string, _ time.Duration) { mu.Lock(); drops = append(drops, reason); mu.Unlock() },
		})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(patience):
		t.Fatal("Run did not end")
	}
	if len(ports) != 2 || ports[0] != 4242 || ports[1] != 5353 {
		t.Fatalf("published %v, want [4242 5353]", ports)
	}
	if len(drops) < 2 || !strings.Contains(drops[0], "closed by remote host") || !strings.Contains(drops[1], "forwarding failed") {
		t.Fatalf("drops %q", drops)
	}
	argv, _ := os.ReadFile(filepath.Join(filepath.Dir(bin), "argv"))
	lines := strings.Split(strings.TrimSpace(string(argv)), "\n")
	want := []string{"-R 0:127.0.0.1:2222", "-R 4242:127.0.0.1:2222", "-R 0:127.0.0.1:2222"}
	for i, w := range want {
		if i >= len(lines) || !strings.Contains(lines[i], w) || !strings.Contains(lines[i], "-p 2200 -- me@bastion") {
			t.Fatalf("attempt %d: %q, want %q … -p 2200 -- me@bastion", i+1, lines, w)
		}
	}
}

// ssh keeps an option's first value: the user's options come after what
// the tunnel cannot do without (the forward failing loudly, the log
// level that reports the port, a connection of its own rather than a
// shared master's) and before the defaults they may change.
func TestUserOptionsOverrideDefaults(t *testing.T) {
	bin := fakeSSH(t, "echo 'ssh: Could not resolve hostname h' >&2; exit 255\n")
	_ = Run(context.Background(), Options{Target: config.SSHTarget{Host: "h"}, Local: "127.0.0.1:1", SSH: bin,
		SSHOptions: []string{"BatchMode=no", "LogLevel=ERROR", "ControlMaster=auto", "ControlPath=/tmp/cm-%r@%h"}})
	argv, _ := os.ReadFile(filepath.Join(filepath.Dir(bin), "argv"))
	line := strings.SplitN(string(argv), "\n", 2)[0]
	at := func(s string) int {
		i := strings.Index(line, s)
		if i < 0 {
			t.Fatalf("%q not in %q", s, line)
		}
		return i
	}
	if !(at("ExitOnForwardFailure=yes") < at("BatchMode=no") && at("LogLevel=INFO") < at("LogLevel=ERROR") && at("BatchMode=no") < at("BatchMode=yes") && at("ServerAliveInterval=15") > at("LogLevel=ERROR") &&
		at("ControlMaster=no") < at("ControlMaster=auto") && at("ControlPath=none") < at("ControlPath=/tmp")) {
		t.Fatalf("option order: %q", line)
	}
}
