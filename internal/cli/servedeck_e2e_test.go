package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
	"tandem/internal/testkit/sshtest"
)

// TestServeSharesTheDeck: `tandem serve` with a driver and a watcher
// over SSH, the real app-server against the mock. The driver starts a
// second thread from the command center; the watcher's deck lists it,
// and the watcher opens it and sees its answer. The watcher's own try
// at starting a thread is refused with a notice. The recording (--record)
// keeps the second thread's answer, and the export writes it in
// a section of its own.
func TestServeSharesTheDeck(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := e2e.NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("Second thread answers.")}})
	dir := t.TempDir()
	alice, bob := sshtest.NewKey(t, "alice"), sshtest.NewKey(t, "bob")
	drivers, watchers := filepath.Join(dir, "drivers"), filepath.Join(dir, "watchers")
	_ = os.WriteFile(drivers, []byte(alice.Line()), 0o600)
	_ = os.WriteFile(watchers, []byte(bob.Line()), 0o600)
	rec := filepath.Join(dir, "shared.jsonl")
	cmd := exec.Command(tandemBinary(t), "serve", "--codex", env.Codex, "--listen", "127.0.0.1:0", "--record", rec,
		"--authorized-keys", drivers, "--watcher-keys", watchers, "--host-key", filepath.Join(dir, "host_ed25519"))
	cmd.Dir = env.Dir
	cmd.Env = append(env.Environ(), "XDG_STATE_HOME="+dir, "XDG_DATA_HOME="+dir)
	var stderr sshtest.LockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(patience):
			_ = cmd.Process.Kill()
			<-exited
		}
	}
	t.Cleanup(stop)
	var addr string
	for deadline := time.Now().Add(patience); addr == ""; time.Sleep(50 * time.Millisecond) {
		if m := sharingOn.FindStringSubmatch(stderr.String()); m != nil {
			addr = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("serve did not start:\n%s", stderr.String())
		}
	}
	a, b := dialGuest(t, addr, alice), dialGuest(t, addr, bob)
	a.waitFor(t, "mock-model", patience) // the thread is open
	b.waitFor(t, "mock-model", patience)

	// The watcher's deck refuses to start a thread.
	fmt.Fprint(b.in, "\x1bOS") // F4: the command center
	b.waitFor(t, "1 thread", patience)
	fmt.Fprint(b.in, "\x1bn") // alt+n
	b.waitFor(t, "only a driver can start a thread", patience)

	// The driver starts a second thread.
	fmt.Fprint(a.in, "\x1bOS")
	a.waitFor(t, "1 thread", patience)
	fmt.Fprint(a.in, "\x1bn")
	a.waitFor(t, "prompt for a new thread", patience)
	fmt.Fprint(a.in, "count the files")
	a.waitFor(t, "count the files▏", patience)
	fmt.Fprint(a.in, "\r")
	a.waitFor(t, "2 threads", patience)

	// The watcher sees it, opens it, and sees its prompt and answer.
	b.waitFor(t, "2 threads", patience)
	b.waitFor(t, "count the files", patience)
	fmt.Fprint(b.in, "\x1b[B") // down: the second thread
	fmt.Fprint(b.in, "\r")
	b.waitFor(t, "Second thread answers.", patience)
	b.waitFor(t, "alice", patience) // who sent its prompt
	if scr := b.screen(); !strings.Contains(scr, "count the files") {
		t.Fatalf("the watcher's second thread lacks its prompt:\n%s", scr)
	}
	if n := len(env.Mock.Requests()); n != 1 {
		t.Fatalf("the mock saw %d model rounds, want 1", n)
	}

	stop()
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "Second thread answers.") {
		t.Fatalf("the recording lacks the second thread's answer (%d bytes)", len(data))
	}
	// The export writes the second thread in a section of its own, its
	// prompt, who sent it and its answer.
	out, err := exec.Command(tandemBinary(t), "export", rec).Output()
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	md := string(out)
	_, second, ok := strings.Cut(md, "# Thread 2: count the files")
	if !ok {
		t.Fatalf("the export has no section for the second thread:\n%s", md)
	}
	for _, want := range []string{"## Turn 1", "_alice wrote:_", "> count the files", "Second thread answers."} {
		if !strings.Contains(second, want) {
			t.Errorf("the second thread's section lacks %q:\n%s", want, second)
		}
	}
}
