package backend

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"tandem/internal/lib/procgroup"
)

// Stream is a running app-server peer as a byte stream: what it prints is
// read from Stdout, what tandem sends is written to Stdin. Close ends it
// and releases everything it started.
type Stream interface {
	Stdout() io.Reader
	Stdin() io.WriteCloser
	// Wait blocks until the peer is gone and returns its exit error (nil
	// for a clean exit).
	Wait() error
	// StderrTail returns up to n of the peer's last stderr lines.
	StderrTail(n int) []string
	// Close shuts the peer down: close stdin, wait up to the grace period,
	// SIGTERM the process group, then SIGKILL. It is idempotent.
	Close() error
	// Describe names the peer for the status line, e.g. "local" or "ssh dev".
	Describe() string
}

// Transport starts an app-server peer.
type Transport interface {
	Start() (Stream, error)
}

// ProcessTransport runs `codex app-server --listen stdio://` (plus Args) as
// a child process in its own process group. Path is the codex executable;
// Dir and Env set its working directory and full environment (nil Env
// inherits tandem's).
type ProcessTransport struct {
	Path  string
	Args  []string
	Dir   string
	Env   []string
	Grace time.Duration // wait after closing stdin before SIGTERM; 0 means 5 s
	Name  string        // Describe() text; "" means "local"
	// Command overrides the whole argv (used by the SSH transport); when
	// set, Path and Args are ignored.
	Command []string
	// Prelude, when non-empty, is written to stdin before anything else.
	Prelude []byte
}

// Start launches the process.
func (t *ProcessTransport) Start() (Stream, error) {
	argv := t.Command
	if len(argv) == 0 {
		argv = append([]string{t.Path, "app-server", "--listen", "stdio://"}, t.Args...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = t.Dir
	cmd.Env = t.Env
	cmd.SysProcAttr = procgroup.Attr() // killed with tandem, even by SIGKILL
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	ring := NewRing(200, 64<<10)
	cmd.Stderr = ring
	// The leader may die alone (kill -9 of the node wrapper leaves the
	// native codex holding stdout and stderr): Wait then gives up on the
	// pipes after exitPipeDelay, so the death is noticed.
	cmd.WaitDelay = exitPipeDelay
	var startErr error
	startTracked(func() int { // reaper.go: a live peer is never an orphan
		if startErr = cmd.Start(); startErr != nil {
			return 0
		}
		return cmd.Process.Pid
	})
	if startErr != nil {
		return nil, fmt.Errorf("starting %s: %w", argv[0], startErr)
	}
	grace := t.Grace
	if grace == 0 {
		grace = 5 * time.Second
	}
	p := &process{cmd: cmd, stdin: stdin, stdout: stdout, ring: ring, grace: grace, name: t.Name, exited: make(chan struct{})}
	if p.name == "" {
		p.name = PeerLocal
	}
	go func() {
		p.waitErr = cmd.Wait()
		untrack(cmd.Process.Pid)
		// No member of the group may outlive the leader, nor any command
		// it started in a session of its own (reaper_linux.go).
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		ReapOrphans()
		close(p.exited)
	}()
	if len(t.Prelude) > 0 {
		if _, err := stdin.Write(t.Prelude); err != nil {
			p.Close()
			return nil, fmt.Errorf("writing prelude: %w", err)
		}
	}
	return p, nil
}

// exitPipeDelay is how long Wait waits for the pipes to close after the
// peer's leader exited, before closing them itself.
const exitPipeDelay = 500 * time.Millisecond

type process struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	stdout  io.Reader
	ring    *Ring
	grace   time.Duration
	name    string
	exited  chan struct{}
	waitErr error
	once    sync.Once
}

func (p *process) Stdout() io.Reader         { return p.stdout }
func (p *process) Stdin() io.WriteCloser     { return p.stdin }
func (p *process) StderrTail(n int) []string { return p.ring.Tail(n) }
func (p *process) Describe() string          { return p.name }

func (p *process) Wait() error {
	<-p.exited
	return p.waitErr
}

// Close implements the shutdown ladder: stdin closed → grace → SIGTERM to
// the group → 2 s → SIGKILL to the group. The group is killed even when the
// leader already exited, so no grandchild survives.
func (p *process) Close() error {
	p.once.Do(func() {
		_ = p.stdin.Close()
		pgid := p.cmd.Process.Pid
		select {
		case <-p.exited:
		case <-time.After(p.grace):
			_ = syscall.Kill(-pgid, syscall.SIGTERM)
			select {
			case <-p.exited:
			case <-time.After(2 * time.Second):
			}
		}
		// Whatever is left in the group (a shell command the agent started)
		// goes too.
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-p.exited
	})
	return nil
}

// Kill sends SIGKILL to the whole process group at once, skipping
// Close's ladder (a stopped or wedged peer reads no EOF and takes no
// SIGTERM), and waits for the leader to be reaped.
func (p *process) Kill() error {
	p.once.Do(func() {
		_ = p.stdin.Close()
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.exited
	})
	return nil
}

// ExitDescription turns a Wait error into a short phrase such as
// "exited with status 1" or "killed by signal 9".
func ExitDescription(err error) string {
	if err == nil {
		return "exited"
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok {
			if ws.Signaled() {
				return fmt.Sprintf("killed by signal %d (%s)", int(ws.Signal()), ws.Signal())
			}
			return fmt.Sprintf("exited with status %d", ws.ExitStatus())
		}
	}
	return err.Error()
}
