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
	rec := filepath.Join(dir, "shared.jsonl")
	sv := startServe(t, env, "--record", rec)
	a, b := sv.guests(t)

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

	sv.stop()
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

// served is a `tandem serve` for the e2e tests, on the real app-server of
// env, with alice a driver and bob a watcher.
type served struct {
	cmd        *exec.Cmd
	addr       string
	alice, bob sshtest.Key
	stderr     *sshtest.LockedBuffer
	exited     chan struct{}
}

// startServe starts `tandem serve` in env's directory with args added
// (its state and host key in a directory of the test's), and waits for
// it to listen; it is stopped (SIGTERM) when the test ends.
func startServe(t *testing.T, env *e2e.Env, args ...string) *served {
	t.Helper()
	dir := t.TempDir()
	sv := &served{alice: sshtest.NewKey(t, "alice"), bob: sshtest.NewKey(t, "bob"), stderr: &sshtest.LockedBuffer{}, exited: make(chan struct{})}
	drivers, watchers := filepath.Join(dir, "drivers"), filepath.Join(dir, "watchers")
	_ = os.WriteFile(drivers, []byte(sv.alice.Line()), 0o600)
	_ = os.WriteFile(watchers, []byte(sv.bob.Line()), 0o600)
	argv := append([]string{"serve", "--codex", env.Codex, "--listen", "127.0.0.1:0",
		"--authorized-keys", drivers, "--watcher-keys", watchers, "--host-key", filepath.Join(dir, "host_ed25519")}, args...)
	sv.cmd = exec.Command(tandemBinary(t), argv...)
	sv.cmd.Dir = env.Dir
	sv.cmd.Env = append(env.Environ(), "XDG_STATE_HOME="+dir, "XDG_DATA_HOME="+dir)
	sv.cmd.Stderr = sv.stderr
	if err := sv.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = sv.cmd.Wait(); close(sv.exited) }()
	t.Cleanup(sv.stop)
	for deadline := time.Now().Add(patience); sv.addr == ""; time.Sleep(50 * time.Millisecond) {
		if m := sharingOn.FindStringSubmatch(sv.stderr.String()); m != nil {
			sv.addr = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("serve did not start:\n%s", sv.stderr.String())
		}
	}
	return sv
}

// stop ends serve (SIGTERM; killed after patience) and waits for it.
func (sv *served) stop() {
	_ = sv.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-sv.exited:
	case <-time.After(patience):
		_ = sv.cmd.Process.Kill()
		<-sv.exited
	}
}

// guests dials alice (the driver) and bob (the watcher), and waits for
// both to have the session's thread open.
func (sv *served) guests(t *testing.T) (a, b *guestTerm) {
	t.Helper()
	a, b = dialGuest(t, sv.addr, sv.alice), dialGuest(t, sv.addr, sv.bob)
	a.waitFor(t, "mock-model", patience) // the thread is open
	b.waitFor(t, "mock-model", patience)
	return a, b
}
