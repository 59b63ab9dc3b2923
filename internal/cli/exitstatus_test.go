package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestSignalCatcherStatus(t *testing.T) {
	tests := []struct {
		name  string
		noted os.Signal
		clean []os.Signal
		want  int // -1: no error
	}{
		{"no signal", nil, nil, -1},
		{"SIGHUP", syscall.SIGHUP, nil, 129},
		{"SIGINT", syscall.SIGINT, nil, 130},
		{"SIGTERM", syscall.SIGTERM, nil, 143},
		{"SIGINT is serve's clean end", os.Interrupt, []os.Signal{os.Interrupt}, -1},
		{"SIGTERM is not", syscall.SIGTERM, []os.Signal{os.Interrupt}, 143},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &signalCatcher{}
			if tt.noted != nil {
				c.Note(tt.noted)
				c.Note(syscall.SIGUSR1) // the first one wins
			}
			err := c.Status(tt.clean...)
			var es *exitStatus
			switch {
			case tt.want < 0 && err != nil:
				t.Fatalf("Status = %v, want nil", err)
			case tt.want >= 0 && !errors.As(err, &es):
				t.Fatalf("Status = %v, want exit status %d", err, tt.want)
			case tt.want >= 0 && es.code != tt.want:
				t.Fatalf("exit status %d, want %d", es.code, tt.want)
			}
		})
	}
}

// TestExecSignalExitStatus: a signal during `tandem exec` interrupts the
// turn and sets the exit status to 128 + the signal's number, with the
// reason on stderr and no stack trace.
func TestExecSignalExitStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	bin := tandemBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			env := execEnv(t, slowAnswer())
			cmd := exec.Command(bin, "exec", "--codex", env.Codex, "-C", env.Dir, "stream please")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// The answer streams for 6 s; signal once the turn is running.
			if _, err := env.Mock.WaitRequests(1, patience); err != nil {
				_ = cmd.Process.Kill()
				t.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond)
			_ = cmd.Process.Signal(sig)
			select {
			case <-done:
			case <-time.After(patience):
				_ = cmd.Process.Kill()
				t.Fatal("tandem exec did not exit")
			}
			if got, want := cmd.ProcessState.ExitCode(), 128+int(sig); got != want {
				t.Errorf("exit status %d, want %d; stderr %q", got, want, stderr.String())
			}
			if strings.Contains(stderr.String(), "goroutine") {
				t.Errorf("stderr has a stack trace: %q", stderr.String())
			}
		})
	}
}

// A second signal ends `tandem exec` at once when the first one's
// shutdown cannot go on: here the prompt is read from a stdin that never
// ends, which no context reaches. It exits with the first signal's
// status.
func TestExecSecondSignalEndsIt(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := execEnv(t)
	cmd := exec.Command(tandemBinary(t), "exec", "--codex", env.Codex, "-C", env.Dir, "-")
	stdin, err := cmd.StdinPipe() // kept open: the read never ends
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	waitReadingStdin(t, cmd.Process.Pid) // its signal handler is up by then
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
		t.Fatal("the first SIGTERM ended a read that cannot be interrupted: the test proves nothing")
	case <-time.After(time.Second):
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(patience):
		_ = cmd.Process.Kill()
		t.Fatal("a second SIGTERM did not end tandem exec")
	}
	if got := cmd.ProcessState.ExitCode(); got != 143 {
		t.Errorf("exit status %d, want 143; stderr %q", got, stderr.String())
	}
}

// readSyscall is the number of read(2) in /proc/<pid>/task/<tid>/syscall.
var readSyscall = map[string]string{"amd64": "0", "arm64": "63"}[runtime.GOARCH]

// waitReadingStdin waits until a thread of pid is blocked in read(2) on
// its standard input (fd 0), as /proc shows it; it skips the test where
// /proc can't tell.
func waitReadingStdin(t *testing.T, pid int) {
	t.Helper()
	if readSyscall == "" {
		t.Skipf("no read(2) number known for %s", runtime.GOARCH)
	}
	task := fmt.Sprintf("/proc/%d/task", pid)
	deadline := time.Now().Add(patience)
	for {
		tids, err := os.ReadDir(task)
		if err != nil {
			t.Skipf("can't see tandem's threads: %v", err)
		}
		for _, tid := range tids {
			b, err := os.ReadFile(filepath.Join(task, tid.Name(), "syscall"))
			if err != nil && errors.Is(err, fs.ErrPermission) {
				t.Skipf("can't see tandem's system calls: %v", err)
			}
			if f := strings.Fields(string(b)); len(f) > 1 && f[0] == readSyscall && f[1] == "0x0" {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("tandem exec never read its standard input within %v", patience)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
