package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"tandem/internal/testkit/mockapi"
	"tandem/internal/testkit/sshtest"
)

// tmuxPane is tandem, built from this tree, running in a tmux server of
// the test's own against the env's real app-server and mock.
type tmuxPane struct {
	t    *testing.T
	sock string
	name string
}

// startTandemInTmux builds tandem and runs it in a 120×40 tmux pane with
// the env's CODEX_HOME, codex and workspace. It skips without tmux,
// except in CI, where tmux must be there.
func startTandemInTmux(t *testing.T, e *Env) *tmuxPane {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is required in CI")
		}
		t.Skip("tmux not installed")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "tandem")
	if out, err := exec.Command("go", "build", "-o", bin, "tandem").CombinedOutput(); err != nil {
		t.Fatalf("building tandem: %v\n%s", err, out)
	}
	home := filepath.Join(dir, "home")
	p := &tmuxPane{t: t, sock: filepath.Join(dir, "tmux.sock"), name: "tandem-burst-" + strconv.Itoa(os.Getpid())}
	script := fmt.Sprintf("cd %s && env HOME=%s XDG_STATE_HOME=%s/state XDG_CONFIG_HOME=%s/config CODEX_HOME=%s TANDEM_CODEX=%s TERM=xterm-256color %s -a never -s read-only 2>%s/stderr; sleep 60",
		e.Dir, home, home, home, e.Home, e.Codex, bin, dir)
	if out, err := p.tmux("new-session", "-d", "-s", p.name, "-x", "120", "-y", "40", script); err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	t.Cleanup(func() {
		_, _ = p.tmux("kill-server")
		waitExited(bin) // before the temp dir goes
	})
	return p
}

// waitExited waits (up to Patience) until no process runs the binary bin:
// tandem exits on tmux's hangup and writes its state on the way out.
func waitExited(bin string) {
	for deadline := time.Now().Add(Patience); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		running := false
		for _, pr := range sshtest.Processes() {
			if len(pr.Argv) > 0 && pr.Argv[0] == bin {
				running = true
			}
		}
		if !running {
			return
		}
	}
}

func (p *tmuxPane) tmux(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-S", p.sock}, args...)...).CombinedOutput()
	return string(out), err
}

// run runs a tmux command on the pane, failing the test if it fails.
func (p *tmuxPane) run(args ...string) {
	p.t.Helper()
	if out, err := p.tmux(args...); err != nil {
		p.t.Fatalf("tmux %v: %v %s", args, err, out)
	}
}

// wait polls the pane until cond holds.
func (p *tmuxPane) wait(timeout time.Duration, what string, cond func(string) bool) string {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	var screen string
	for time.Now().Before(deadline) {
		screen, _ = p.tmux("capture-pane", "-p", "-t", p.name)
		if cond(screen) {
			return screen
		}
		time.Sleep(100 * time.Millisecond)
	}
	p.t.Fatalf("timed out after %v waiting for %s; screen:\n%s", timeout, what, screen)
	return ""
}

// A 3,000-line text pasted into tandem with `tmux paste-buffer` without
// -p arrives as keys, each newline an Enter: tandem takes it for one
// paste — nothing reaches the provider, the draft shows one placeholder
// as a bracketed paste would — and the Enter pressed after it sends
// exactly one turn with the whole text, on the real app-server.
func TestUnbracketedPasteIsOneTurnInTmux(t *testing.T) {
	e := NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("Got all of the paste.")}})
	p := startTandemInTmux(t, e)
	p.wait(Patience, "tandem ready", Contains("Ask Codex to do anything", "approval:never"))

	lines := make([]string, 3000)
	for i := range lines {
		lines[i] = fmt.Sprintf("line %04d of the pasted text, with a few words", i+1)
	}
	text := strings.Join(lines, "\n")
	file := filepath.Join(t.TempDir(), "paste.txt")
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	p.run("load-buffer", file)
	p.run("paste-buffer", "-t", p.name) // no -p: no bracketed paste; tmux sends each LF as CR (Enter)
	p.wait(Patience, "the placeholder", Contains("[Pasted text #1 · 3000 lines"))
	time.Sleep(time.Second) // anything the paste's Enters might have sent has arrived by now
	if reqs := e.Mock.Requests(); len(reqs) != 0 {
		t.Fatalf("the paste alone reached the provider %d times; first with %q", len(reqs), reqs[0].LastUserText())
	}

	p.run("send-keys", "-t", p.name, "Enter")
	p.wait(Patience, "the answer", Contains("Got all of the paste."))
	time.Sleep(500 * time.Millisecond)
	reqs := e.Mock.Requests()
	if len(reqs) != 1 {
		t.Fatalf("Enter after the paste made %d provider requests, want 1", len(reqs))
	}
	if got := reqs[0].LastUserText(); got != text {
		t.Fatalf("the turn carried %d bytes (%d lines), want the paste's %d bytes (3000 lines); it begins %q",
			len(got), strings.Count(got, "\n")+1, len(text), got[:min(len(got), 80)])
	}
}
