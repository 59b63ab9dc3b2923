package cli

import (
	"fmt"
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
	gossh "golang.org/x/crypto/ssh"

	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/sshtest"
)

// guestTerm is an SSH guest of tandem serve with a 100×40 terminal.
type guestTerm struct {
	conn *gossh.Client
	in   io.Writer
	mu   sync.Mutex
	emu  *vt.Emulator
}

func dialGuest(t *testing.T, addr string, k sshtest.Key) *guestTerm {
	t.Helper()
	conn, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: k.Name, Auth: []gossh.AuthMethod{gossh.PublicKeys(k.Signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: patience}) //nolint:gosec // test server
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	sess, err := conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	g := &guestTerm{conn: conn, emu: vt.NewEmulator(100, 40)}
	go func() { _, _ = io.Copy(io.Discard, g.emu) }()
	if err := sess.RequestPty("xterm-256color", 40, 100, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	g.in, _ = sess.StdinPipe()
	out, _ := sess.StdoutPipe()
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := out.Read(buf)
			g.mu.Lock()
			_, _ = g.emu.Write(buf[:n])
			g.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	return g
}

func (g *guestTerm) screen() string { g.mu.Lock(); defer g.mu.Unlock(); return g.emu.String() }

func (g *guestTerm) waitFor(t *testing.T, text string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !strings.Contains(g.screen(), text) {
		if time.Now().After(deadline) {
			t.Fatalf("%q not on the guest's screen after %v:\n%s", text, d, g.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

var sharingOn = regexp.MustCompile(`sharing one session on (127\.0\.0\.1:\d+)`)

// TestServeDaemonSurvivesARestart: `tandem serve --daemon` is stopped
// mid-turn (SIGTERM); the turn goes on on the daemon; serve started again
// in the workspace resumes the shared thread, and a guest who joins then
// sees the prompt and the whole answer, each line once (#15).
func TestServeDaemonSurvivesARestart(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	const n = 12
	env := e2e.NewEnv(t, numberedAnswer(n, 150*time.Millisecond))
	stopDaemonAtEnd(t, env)
	dir := t.TempDir()
	alice := sshtest.NewKey(t, "alice")
	drivers := filepath.Join(dir, "drivers")
	if err := os.WriteFile(drivers, []byte(alice.Line()), 0o600); err != nil {
		t.Fatal(err)
	}
	bin := tandemBinary(t)
	serve := func() (addr string, stop func() (string, int)) {
		t.Helper()
		cmd := exec.Command(bin, "serve", "--daemon", "--codex", env.Codex, "--listen", "127.0.0.1:0",
			"--authorized-keys", drivers, "--host-key", filepath.Join(dir, "host_ed25519"))
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
			select {
			case <-exited:
			default:
				_ = cmd.Process.Kill()
				<-exited
			}
		})
		deadline := time.Now().Add(patience)
		for {
			if m := sharingOn.FindStringSubmatch(stderr.String()); m != nil {
				addr = m[1]
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("serve did not start:\n%s", stderr.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
		return addr, func() (string, int) {
			_ = cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-exited:
			case <-time.After(patience):
				t.Fatalf("serve did not stop:\n%s", stderr.String())
			}
			return stderr.String(), cmd.ProcessState.ExitCode()
		}
	}

	addr, stop := serve()
	g := dialGuest(t, addr, alice)
	g.waitFor(t, "Ask Codex to do anything", patience)
	g.waitFor(t, "mock-model", patience) // the thread is open
	fmt.Fprint(g.in, "count for me")
	time.Sleep(300 * time.Millisecond) // a person's pause: not a paste burst
	fmt.Fprint(g.in, "\r")
	g.waitFor(t, "item 02 of", patience)
	out, code := stop()
	if code != 143 || !strings.Contains(out, "stays on the codex daemon") {
		t.Fatalf("serve: exit %d, stderr:\n%s", code, out)
	}
	if len(daemonProcs(env.Home)) == 0 {
		t.Fatal("no daemon left running the turn")
	}

	addr, stop = serve()
	g2 := dialGuest(t, addr, alice)
	g2.waitFor(t, "count for me", patience)
	g2.waitFor(t, fmt.Sprintf("item %02d of the answer", n), patience)
	// The item's completion brings what streamed while serve was away.
	deadline := time.Now().Add(patience)
	for strings.Contains(g2.screen(), "esc to interrupt") || !strings.Contains(g2.screen(), "item 01 of the answer") {
		if time.Now().After(deadline) {
			t.Fatalf("the turn did not end with the whole answer:\n%s", g2.screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
	scr := g2.screen()
	for i := 1; i <= n; i++ {
		line := fmt.Sprintf("item %02d of the answer", i)
		if c := strings.Count(scr, line); c != 1 {
			t.Errorf("%q on the guest's screen %d times; want once:\n%s", line, c, scr)
		}
	}
	if c := strings.Count(scr, "▌ count for me"); c != 1 {
		t.Errorf("the prompt shown %d times:\n%s", c, scr)
	}
	_, _ = stop()
}
