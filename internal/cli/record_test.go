package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"

	"tandem/internal/lib/redact"
	"tandem/internal/lib/screen"
	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// tandemBinary builds tandem into a directory of its own that holds
// nothing else (so no codex is found next to it); it is removed with t.
func tandemBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tandem")
	// The main package, by import path: the test runs in internal/cli.
	if out, err := exec.Command("go", "build", "-o", bin, "tandem").CombinedOutput(); err != nil {
		t.Fatalf("building tandem: %v\n%s", err, out)
	}
	return bin
}

// castFile is a parsed asciicast file (v3, or v2).
type castFile struct {
	header map[string]any
	codes  string
	output string
	resize []string
	marks  []string
}

func readCast(t *testing.T, path string) castFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	var c castFile
	if err := json.Unmarshal([]byte(lines[0]), &c.header); err != nil {
		t.Fatalf("cast header: %v", err)
	}
	keys := []string{"version", "width", "height", "timestamp", "idle_time_limit", "env"}
	v3 := c.header["version"] == 3.0
	if v3 {
		// asciicast v3: the size and TERM in "term".
		keys = []string{"version", "term", "timestamp", "idle_time_limit", "env"}
		term, _ := c.header["term"].(map[string]any)
		if term["cols"] == nil || term["rows"] == nil || term["type"] == nil {
			t.Errorf("cast term = %v", c.header["term"])
		}
		c.header["width"], c.header["height"] = term["cols"], term["rows"]
	} else if c.header["version"] != 2.0 {
		t.Errorf("cast version = %v", c.header["version"])
	}
	for _, k := range keys {
		if _, ok := c.header[k]; !ok {
			t.Errorf("cast header lacks %q: %s", k, lines[0])
		}
	}
	last := 0.0
	for i, l := range lines[1:] {
		var ev []json.RawMessage
		if err := json.Unmarshal([]byte(l), &ev); err != nil || len(ev) != 3 {
			t.Fatalf("cast event %d malformed: %s", i, l)
		}
		ts, err := strconv.ParseFloat(string(ev[0]), 64)
		if v3 && err == nil && ts >= 0 {
			ts += last // v3: the time since the event before
		}
		if err != nil || ts < last {
			t.Fatalf("cast event %d: time %s after %f", i, ev[0], last)
		}
		last = ts
		var code, data string
		_ = json.Unmarshal(ev[1], &code)
		_ = json.Unmarshal(ev[2], &data)
		switch code {
		case "o":
			c.output += data
		case "r":
			c.resize = append(c.resize, data)
		case "m":
			c.marks = append(c.marks, data)
		default:
			t.Fatalf("cast event %d has code %q (only o, r, m are written)", i, code)
		}
		c.codes += code
	}
	return c
}

// startRecord runs `tandem record -o cast -- args` in a pty of w×h.
func startRecord(t *testing.T, env []string, cast string, w, h int, args ...string) (*os.File, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(tandemBinary(t), append([]string{"record", "-o", cast, "--idle-time-limit", "1.5", "--"}, args...)...)
	cmd.Env = append(env, "TERM=xterm-256color")
	cmd.Dir = t.TempDir()
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(w), Rows: uint16(h)})
	if err != nil {
		t.Fatal(err)
	}
	// Drain the mirrored screen so tandem never blocks on output.
	go func() {
		buf := make([]byte, 32<<10)
		for {
			if _, err := ptmx.Read(buf); err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		ptmx.Close()
	})
	return ptmx, cmd
}

// waitFile polls path until cond holds on its content.
func waitFile(t *testing.T, path string, timeout time.Duration, what string, cond func(string) bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(path)
		if cond(string(b)) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	b, _ := os.ReadFile(path)
	t.Fatalf("timed out waiting for %s; %d bytes so far", what, len(b))
}

func waitExit(t *testing.T, cmd *exec.Cmd, timeout time.Duration) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(timeout):
		t.Fatal("tandem record did not exit")
	}
}

// TestRecordCastOfDemo records the demo: a valid asciicast v3 with a
// chapter per turn (labelled with its prompt), approval and question, and
// an "r" event when the terminal is resized.
func TestRecordCastOfDemo(t *testing.T) {
	cast := filepath.Join(t.TempDir(), "demo.cast")
	ptmx, cmd := startRecord(t, os.Environ(), cast, 100, 30, "demo", "--speed", "4", "--idle-limit", "0.3")
	waitFile(t, cast, patience, "the first output", func(s string) bool { return strings.Contains(s, `"o"`) })
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: 72, Rows: 22}); err != nil {
		t.Fatal(err)
	}
	waitFile(t, cast, patience, "four turns", func(s string) bool { return strings.Contains(s, `"turn 4: Go ahead"`) })
	waitFile(t, cast, patience, "the last answer", func(s string) bool { return strings.Contains(castScreen(s), "greets like a pirate") })
	time.Sleep(300 * time.Millisecond)
	if _, err := ptmx.Write([]byte{3}); err != nil { // ctrl+c quits a replay
		t.Fatal(err)
	}
	waitExit(t, cmd, patience)

	c := readCast(t, cast)
	if c.header["width"] != 100.0 || c.header["height"] != 30.0 {
		t.Errorf("cast size = %v×%v, want 100×30", c.header["width"], c.header["height"])
	}
	if len(c.resize) != 1 || c.resize[0] != "72x22" {
		t.Errorf("resize events = %q, want [72x22]", c.resize)
	}
	if c.header["version"] != 3.0 {
		t.Errorf("cast version = %v; want 3", c.header["version"])
	}
	wantMarks := []string{
		"turn 1: How does tandem render a streamed answer?",
		"turn 2: Add a greeting script and run it",
		"approval: edit files",
		"approval: sh greet.sh tandem | tee greeting.txt",
		"turn 3: Plan how to make the greeting more fun",
		"question: Which tone should the greeting use?",
		"turn 4: Go ahead",
		"approval: edit files",
		"approval: sh greet.sh tandem",
	}
	if strings.Join(c.marks, "\n") != strings.Join(wantMarks, "\n") {
		t.Errorf("markers:\n%s\nwant:\n%s", strings.Join(c.marks, "\n"), strings.Join(wantMarks, "\n"))
	}
	if !strings.Contains(c.output, "Asked: Greeting style") || !strings.Contains(c.output, "\x1b[") {
		t.Errorf("cast output misses the demo (%d bytes)", len(c.output))
	}
}

// TestRecordCastRedactsLiveSession records a live session (real codex,
// mock model) whose answer and command output carry secrets: the cast
// holds none of them.
func TestRecordCastRedactsLiveSession(t *testing.T) {
	const (
		bearer = "eyJhbGciOiJIUzI1NiJ9.Y2FzdC1iZWFyZXI.Q2FzdFNlY3JldA"
		sk     = "sk-proj-CastPlantedKey0123456789abcdefXY"
		apiKey = "castMcpKey0a1b2c3d4e5f"
	)
	env := e2e.NewEnv(t,
		// Text streams in 4-rune deltas: the secrets arrive in pieces.
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Send `Authorization: Bearer " + bearer + "`.\n\nMCP env: api_key=" + apiKey + "\n"), mockapi.ExecCommand("echo OPENAI_API_KEY=" + sk)}, ChunkDelay: 5 * time.Millisecond},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Done.")}},
	)
	cast := filepath.Join(t.TempDir(), "live.cast")
	ptmx, cmd := startRecord(t, env.Environ(), cast, 110, 32,
		"--codex", env.Codex, "-C", env.Dir, "-a", "never", "-s", "workspace-write", "show me the key")
	waitFile(t, cast, patience, "the turn's chapter", func(s string) bool { return strings.Contains(s, `"turn 1: show me the key"`) })
	waitFile(t, cast, patience, "the turn to complete", func(s string) bool { return strings.Contains(s, `Done.`) })
	time.Sleep(500 * time.Millisecond)
	_, _ = ptmx.Write([]byte{3})
	time.Sleep(200 * time.Millisecond)
	_, _ = ptmx.Write([]byte{3})
	waitExit(t, cmd, patience)

	raw, _ := os.ReadFile(cast)
	for _, s := range []string{bearer, sk, apiKey} {
		if bytes.Contains(raw, []byte(s)) {
			t.Errorf("cast contains planted secret %q", s)
		}
	}
	c := readCast(t, cast)
	// Not even a piece of a secret is drawn (the screen is redacted at
	// the source, so frame diffs can't leak it either).
	plain := ansi.Strip(c.output)
	for _, s := range []string{bearer, sk[8:], apiKey} {
		for i := 0; i+6 <= len(s); i += 6 {
			if strings.Contains(plain, s[i:i+6]) {
				t.Errorf("cast output shows %q, a piece of a planted secret", s[i:i+6])
			}
		}
	}
	if !strings.Contains(c.output, "OPENAI_API_KEY") || !strings.Contains(c.output, "Authorization") {
		t.Errorf("cast misses the session output")
	}
	// The redactor acted on the stream (not merely a lucky split).
	if !strings.Contains(c.output, redact.Marker) {
		t.Errorf("cast output shows no %s marker", redact.Marker)
	}
}

// castScreens plays the events of a cast (its text so far) on a terminal
// of the cast's size and returns what the screen shows after each "o"
// event: the rows, then the rows run together without their indentation
// (a word wrapped at the edge made whole).
func castScreens(cast string) []string {
	lines := strings.Split(cast, "\n")
	var h struct {
		Width, Height int
		Term          struct{ Cols, Rows int } // asciicast v3
	}
	if json.Unmarshal([]byte(lines[0]), &h) != nil {
		return nil
	}
	if h.Width <= 0 || h.Height <= 0 {
		h.Width, h.Height = h.Term.Cols, h.Term.Rows
	}
	if h.Width <= 0 || h.Height <= 0 {
		return nil
	}
	scr := screen.New(h.Width, h.Height)
	defer scr.Close()
	var out []string
	var f *screen.Frame
	for _, l := range lines[1:] {
		var ev []any
		if json.Unmarshal([]byte(l), &ev) != nil || len(ev) != 3 {
			continue
		}
		switch data, _ := ev[2].(string); ev[1] {
		case "o":
			_, _ = scr.Write([]byte(data))
			f = scr.Snapshot(f)
			var rows, joined strings.Builder
			for y := 0; y < f.Rows; y++ {
				rows.WriteString(f.Text(y) + "\n")
				joined.WriteString(strings.TrimLeft(f.Text(y), " ›▌│"))
			}
			out = append(out, rows.String()+joined.String())
		case "r":
			var w, h int
			if _, err := fmt.Sscanf(data, "%dx%d", &w, &h); err == nil {
				scr.Resize(w, h)
			}
		}
	}
	return out
}

// castScreen returns the screen a cast (its text so far) leaves, or "".
func castScreen(cast string) string {
	s := castScreens(cast)
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}

// typeKeys writes s to the pty one key at a time, gap apart, as a person
// types.
func typeKeys(t *testing.T, ptmx *os.File, s string, gap time.Duration) {
	t.Helper()
	for _, r := range s {
		if _, err := ptmx.Write([]byte(string(r))); err != nil {
			t.Fatal(err)
		}
		time.Sleep(gap)
	}
}

// TestRecordCastHidesTypedSecrets types two secrets into the composer of
// a live session (real codex, mock model), key by key: one sent as a
// prompt, one long enough to wrap at the screen's edge and left in the
// composer. The cast holds neither, not in any one event nor in all the
// drawn text put together, and played it shows the rest of what was
// typed.
func TestRecordCastHidesTypedSecrets(t *testing.T) {
	const (
		typedSK = "sk-proj-Q7vX2mLp9RtZ4wKc8NbJ3hFy6GdS1aEu"
		wrapPAT = "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s9Df4Gh7"
	)
	env := e2e.NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("Noted.")}})
	cast := filepath.Join(t.TempDir(), "typed.cast")
	const cols = 72
	ptmx, cmd := startRecord(t, env.Environ(), cast, cols, 24,
		"--codex", env.Codex, "-C", env.Dir, "-a", "never", "-s", "read-only")
	waitFile(t, cast, patience, "the composer", func(s string) bool { return strings.Contains(castScreen(s), "Ask Codex to do anything") })
	time.Sleep(300 * time.Millisecond)
	typeKeys(t, ptmx, "please keep "+typedSK+" safe", 25*time.Millisecond)
	// Enter once the draft is drawn and a burst's idle has passed: on a
	// busy machine the keys may reach tandem bunched, as a paste, and an
	// Enter inside the burst would be a new line, not a send.
	waitFile(t, cast, patience, "the typed draft", func(s string) bool { return strings.Contains(castScreen(s), "safe") })
	time.Sleep(model.PasteBurstLinesIdle + 100*time.Millisecond)
	_, _ = ptmx.Write([]byte("\r"))
	waitFile(t, cast, patience, "the turn's chapter", func(s string) bool { return strings.Contains(s, `"turn 1: please keep `) })
	waitFile(t, cast, patience, "the answer", func(s string) bool { return strings.Contains(castScreen(s), "Noted.") })
	if len(wrapPAT) < cols+20 {
		t.Fatal("the second secret must wrap, well past the edge")
	}
	typeKeys(t, ptmx, "and "+wrapPAT+" wraps", 15*time.Millisecond)
	waitFile(t, cast, patience, "the wrapped draft", func(s string) bool { return strings.Contains(castScreen(s), "wraps") })
	// The cast, played, shows the prompt sent and the draft, masked.
	b, _ := os.ReadFile(cast)
	shown := castScreen(string(b))
	for _, want := range []string{"please keep " + redact.Marker, "safe", "› and", "  " + redact.Marker, "wraps"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the cast's screen lacks %q:\n%s", want, shown)
		}
	}
	// The first Ctrl+C clears the draft, two more quit.
	_, _ = ptmx.Write([]byte{3})
	waitFile(t, cast, patience, "the draft cleared", func(s string) bool { return !strings.Contains(castScreen(s), "wraps") })
	_, _ = ptmx.Write([]byte{3})
	waitFile(t, cast, patience, "the quit hint", func(s string) bool { return strings.Contains(castScreen(s), "Ctrl+C again") })
	_, _ = ptmx.Write([]byte{3})
	waitExit(t, cmd, patience)

	raw, err := os.ReadFile(cast)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{typedSK, wrapPAT} {
		if bytes.Contains(raw, []byte(s)) {
			t.Errorf("cast contains the typed secret %q", s)
		}
	}
	c := readCast(t, cast)
	// Each event, everything drawn run together, and the screen after
	// each event: no five characters of either secret show, but for the
	// prefix and the first two after it (masking starts at the third).
	texts := append([]string{ansi.Strip(c.output)}, castScreens(string(raw))...)
	for _, l := range strings.Split(string(raw), "\n")[1:] {
		var ev []any
		if json.Unmarshal([]byte(l), &ev) == nil && len(ev) == 3 && ev[1] == "o" {
			texts = append(texts, ev[2].(string), ansi.Strip(ev[2].(string)))
		}
	}
	for _, s := range []struct {
		secret string
		from   int
	}{{typedSK, len("sk-proj-") - 2}, {wrapPAT, len("github_pat_") - 2}} {
		for i := s.from; i+5 <= len(s.secret); i++ {
			piece := s.secret[i : i+5]
			for _, text := range texts {
				if strings.Contains(text, piece) {
					t.Fatalf("cast shows %q, a piece of %q", piece, s.secret)
				}
			}
		}
	}
}

// TestNoCodexOffersDemo: without codex, tandem names the demo instead of
// failing bare.
func TestNoCodexOffersDemo(t *testing.T) {
	cmd := exec.Command(tandemBinary(t))
	cmd.Dir = t.TempDir()
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("tandem without codex succeeded: %s", out)
	}
	if !strings.Contains(string(out), "codex not found") || !strings.Contains(string(out), "tandem demo") || !strings.Contains(string(out), "scripts/install-codex.sh") {
		t.Errorf("message = %q", out)
	}
}

// TestDemoRunsToEndInTmux runs `tandem demo` in tmux with no codex on PATH
// and checks the final screen.
func TestDemoRunsToEndInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is required in CI")
		}
		t.Skip("tmux not installed")
	}
	bin := tandemBinary(t)
	if _, err := exec.LookPath("codex"); err == nil {
		t.Log("codex is on this PATH; the demo runs with PATH=/usr/bin:/bin")
	}
	name := "tandem-demo-test-" + strconv.Itoa(os.Getpid())
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	tmux := func(args ...string) (string, error) {
		out, err := exec.Command("tmux", append([]string{"-S", sock}, args...)...).CombinedOutput()
		return string(out), err
	}
	script := "cd " + t.TempDir() + " && env -i PATH=/usr/bin:/bin HOME=" + t.TempDir() + " TERM=xterm-256color " + bin + " demo --speed 4 --idle-limit 0.3; sleep 60"
	if out, err := tmux("new-session", "-d", "-s", name, "-x", "90", "-y", "28", script); err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	t.Cleanup(func() { _, _ = tmux("kill-server") })
	deadline := time.Now().Add(patience)
	var screen string
	for time.Now().Before(deadline) {
		screen, _ = tmux("capture-pane", "-p", "-t", name)
		if strings.Contains(screen, "replay finished") {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !strings.Contains(screen, "replay finished") {
		t.Fatalf("the demo did not finish; screen:\n%s", screen)
	}
	for _, want := range []string{"greets like a pirate", "Ahoy", "Go ahead"} {
		if !strings.Contains(screen, want) {
			t.Errorf("final screen lacks %q:\n%s", want, screen)
		}
	}
}

// Terminals that let the renderer repeat characters (REP) are recorded as
// xterm-256color, so no secret leaves the cast as "a" plus "repeat 9".
func TestCastTerm(t *testing.T) {
	cases := map[string]string{
		"":                "xterm-256color",
		"tmux-256color":   "xterm-256color",
		"xterm-kitty":     "xterm-256color",
		"foot":            "xterm-256color",
		"alacritty":       "xterm-256color",
		"xterm-256color":  "xterm-256color",
		"xterm":           "xterm",
		"screen-256color": "screen-256color",
		"linux":           "linux",
	}
	for in, want := range cases {
		if got := castTerm(in); got != want {
			t.Errorf("castTerm(%q) = %q; want %q", in, got, want)
		}
	}
}
