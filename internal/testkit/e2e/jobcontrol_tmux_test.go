package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"tandem/internal/testkit/sshtest"
)

// shellPane is an interactive bash (job control on) in a 120×40 pane of
// the test's own tmux server.
type shellPane struct {
	*tmuxPane
	dir string // the test's temp dir: the tandem binary, HOME, files
	bin string // tandem built from this tree
}

// shellPrompt is the interactive shell's prompt (PS1 adds a space, which
// tmux's capture drops at the end of a line).
const shellPrompt = "jobs$"

// startShellInTmux builds tandem and starts `bash --norc -i` in a tmux
// pane; it skips without tmux or bash, except in CI.
func startShellInTmux(t *testing.T) *shellPane {
	t.Helper()
	for _, tool := range []string{"tmux", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is required in CI", tool)
			}
			t.Skip(tool + " not installed")
		}
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "tandem")
	if out, err := exec.Command("go", "build", "-o", bin, "tandem").CombinedOutput(); err != nil {
		t.Fatalf("building tandem: %v\n%s", err, out)
	}
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	p := &shellPane{tmuxPane: &tmuxPane{t: t, sock: filepath.Join(dir, "tmux.sock"), name: "tandem-jobs-" + strconv.Itoa(os.Getpid())}, dir: dir, bin: bin}
	shell := fmt.Sprintf("env -i PATH=%s HOME=%s TERM=xterm-256color PS1=%q bash --norc --noprofile -i", os.Getenv("PATH"), home, shellPrompt+" ")
	if out, err := p.tmux("new-session", "-d", "-s", p.name, "-x", "120", "-y", "40", shell); err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	t.Cleanup(func() {
		_, _ = p.tmux("kill-server")
		waitExited(bin) // before the temp dir goes
	})
	p.wait(Patience, "the shell's prompt", Contains(shellPrompt))
	return p
}

// line types s into the pane and presses Enter.
func (p *shellPane) line(s string) {
	p.t.Helper()
	p.run("send-keys", "-t", p.name, "-l", s)
	p.run("send-keys", "-t", p.name, "Enter")
}

// keys types s into the pane, literally.
func (p *shellPane) keys(s string) {
	p.t.Helper()
	p.run("send-keys", "-t", p.name, "-l", s)
}

// pid is the pid of the running tandem.
func (p *shellPane) pid() int {
	p.t.Helper()
	for _, pr := range sshtest.Processes() {
		if len(pr.Argv) > 0 && pr.Argv[0] == p.bin {
			return pr.PID
		}
	}
	p.t.Fatal("tandem is not running")
	return 0
}

// stoppedAndSane waits for the shell to say the job stopped and to give
// its prompt, then checks with stty that the terminal was given back
// cooked: canonical input, echo, signals, CR→NL and output processing on.
func (p *shellPane) stoppedAndSane(how string) {
	p.t.Helper()
	p.wait(Patience, how+": the job stopped and the prompt back", func(s string) bool {
		return strings.Contains(s, "Stopped") && strings.HasSuffix(strings.TrimRight(s, "\n "), shellPrompt)
	})
	out := filepath.Join(p.dir, "stty.txt")
	_ = os.Remove(out)
	p.line("stty -a >" + out + " 2>&1; echo stty-done")
	p.wait(Patience, how+": stty's answer", Contains("stty-done\n"+shellPrompt))
	b, err := os.ReadFile(out)
	if err != nil {
		p.t.Fatalf("%s: %v", how, err)
	}
	flags := map[string]bool{}
	for _, f := range strings.Fields(string(b)) {
		flags[strings.TrimSuffix(f, ";")] = true
	}
	for _, want := range []string{"icanon", "echo", "isig", "icrnl", "opost"} {
		if !flags[want] {
			p.t.Errorf("%s: the terminal is not sane, %s is off:\n%s", how, want, b)
		}
	}
	p.line("clear") // the next screens are the resumed tandem's only
	p.wait(Patience, how+": the shell cleared", func(s string) bool { return !strings.Contains(s, "Stopped") })
}

// Job control from an interactive shell: Ctrl+Z, and a SIGTSTP sent from
// outside (kill -TSTP), both give the shell its prompt back with the
// terminal sane (cooked, echo on); fg brings tandem back redrawn, with
// the draft, taking keys again — and Ctrl+C is a key again (it clears
// the draft), not a signal that ends tandem.
func TestSuspendAndResumeInTmux(t *testing.T) {
	e := NewEnv(t)
	p := startShellInTmux(t)
	p.line(fmt.Sprintf("cd %s && env XDG_STATE_HOME=%s/state XDG_CONFIG_HOME=%s/config CODEX_HOME=%s TANDEM_CODEX=%s %s -a never -s read-only 2>%s/stderr; echo tandem-exit=$?",
		e.Dir, p.dir, p.dir, e.Home, e.Codex, p.bin, p.dir))
	p.wait(Patience, "tandem ready", Contains("Ask Codex to do anything", "approval:never"))
	p.keys("abc")
	p.wait(Patience, "the draft", Contains("› abc"))

	p.run("send-keys", "-t", p.name, "C-z")
	p.stoppedAndSane("Ctrl+Z")
	p.line("fg")
	p.wait(Patience, "fg after Ctrl+Z: tandem redrawn", Contains("› abc", "approval:never"))
	p.keys("def")
	p.wait(Patience, "fg after Ctrl+Z: keys reach tandem", Contains("› abcdef"))

	if err := syscall.Kill(p.pid(), syscall.SIGTSTP); err != nil {
		t.Fatal(err)
	}
	p.stoppedAndSane("kill -TSTP")
	p.line("fg")
	p.wait(Patience, "fg after kill -TSTP: tandem redrawn", Contains("› abcdef", "approval:never"))
	p.keys("ghi")
	p.wait(Patience, "fg after kill -TSTP: keys reach tandem", Contains("› abcdefghi"))

	p.run("send-keys", "-t", p.name, "C-c")
	p.wait(Patience, "Ctrl+C clears the draft", func(s string) bool {
		return !strings.Contains(s, "abcdefghi") && strings.Contains(s, "Ask Codex to do anything")
	})
	if s, _ := p.tmux("capture-pane", "-p", "-t", p.name); strings.Contains(s, "tandem-exit=") {
		t.Fatalf("tandem ended:\n%s", s)
	}
}
