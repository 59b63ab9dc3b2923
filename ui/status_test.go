package ui

import (
	"tandem/thread"

	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// The status line fits its width exactly, keeps left and right apart by
// two spaces at least, and cuts the right side before the left.
func TestStatusLineFits(t *testing.T) {
	st := NewStyles(true)
	base := StatusInfo{Model: "gpt-test", Cwd: "~/src/tandem", Approval: "on-request", Sandbox: "workspace-write"}
	running := base
	running.Running, running.Spinner, running.Elapsed = true, "⣾", 65*time.Second
	notice := base
	notice.Notice = "codex app-server is not running — F5 or /restart; your message stays here"
	cases := []struct {
		name    string
		s       StatusInfo
		width   int
		left    string // the left side's text, "" when there is none
		hasMore bool   // some of the right side still shows
	}{
		{"wide", running, 200, "⣾ Working 1m 05s · esc to interrupt", true},
		{"right cut", running, 70, "⣾ Working 1m 05s · esc to interrupt", true},
		{"right dropped", notice, 76, "codex app-server is not running", false},
		{"left cut", notice, 30, "codex app-server is not run", false},
		{"right only", base, 40, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// A memo drawing the same line twice, and after another line,
			// gives what StatusLine does.
			var memo StatusMemo
			memo.Line(st, cases[0].s, 200)
			for range 2 {
				if got, want := memo.Line(st, tc.s, tc.width), StatusLine(st, tc.s, tc.width); got != want {
					t.Fatalf("memo drew\n%q\nStatusLine\n%q", got, want)
				}
			}
			line := ansi.Strip(StatusLine(st, tc.s, tc.width))
			if w := ansi.StringWidth(line); w > tc.width {
				t.Fatalf("width %d > %d: %q", w, tc.width, line)
			}
			if !strings.HasPrefix(line, tc.left) {
				t.Errorf("line %q does not start with %q", line, tc.left)
			}
			if shown := strings.Contains(line, "gpt"); shown != tc.hasMore {
				t.Errorf("right side shown=%v; want %v: %q", shown, tc.hasMore, line)
			}
			if tc.left != "" && tc.hasMore {
				rest := strings.TrimPrefix(line, tc.left)
				if !strings.HasPrefix(rest, "  ") {
					t.Errorf("left and right run together: %q", line)
				}
			}
		})
	}
}

// A running turn's status line changes every frame on its left side
// only: the memo styles and cuts the right side once.
func TestStatusMemoReusesTheRightSide(t *testing.T) {
	st := NewStyles(true)
	s := StatusInfo{Model: "gpt-test", Cwd: "~/src/tandem", Approval: "on-request", Sandbox: "workspace-write", Running: true, TotalTokens: 12000}
	var memo StatusMemo
	for i := range 50 {
		s.Spinner, s.Elapsed = string("⣾⣽⣻⢿"[i%4*3:i%4*3+3]), time.Duration(i)*time.Second
		if got, want := memo.Line(st, s, 60), StatusLine(st, s, 60); got != want {
			t.Fatalf("frame %d: memo %q, StatusLine %q", i, got, want)
		}
	}
	// The left side grows at 10 s: the room changes once.
	if memo.miss != 2 || memo.hits != 48 {
		t.Fatalf("right side drawn %d times (reused %d) over 50 frames", memo.miss, memo.hits)
	}
}

func TestElapsedLabel(t *testing.T) {
	cases := []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"}, {-time.Second, "0s"}, {999 * time.Millisecond, "0s"}, {59 * time.Second, "59s"},
		{60 * time.Second, "1m 00s"}, {3599 * time.Second, "59m 59s"}, {3723 * time.Second, "1h 02m 03s"},
	}
	for _, tc := range cases {
		if got := ElapsedLabel(tc.d); got != tc.want {
			t.Errorf("ElapsedLabel(%v) = %q; want %q", tc.d, got, tc.want)
		}
	}
}

// A session this terminal cannot steer (replay, watcher) shows no
// interrupt hint while a turn runs.
func TestStatusLineNoInterrupt(t *testing.T) {
	st := NewStyles(true)
	s := StatusInfo{Running: true, Spinner: "⣾", Model: "m"}
	if l := ansi.Strip(StatusLine(st, s, 100)); !strings.Contains(l, "esc to interrupt") {
		t.Errorf("running turn lacks the hint: %q", l)
	}
	s.NoInterrupt = true
	if l := ansi.Strip(StatusLine(st, s, 100)); strings.Contains(l, "esc to interrupt") || !strings.Contains(l, "Working 0s") {
		t.Errorf("NoInterrupt line = %q", l)
	}
}

// A tool cell's wrapped list items hang under their text.
func TestToolCellListItemsHang(t *testing.T) {
	c := &ToolCell{Item: &thread.Item{Kind: thread.Tool, Title: "Plan", Status: "completed",
		Detail: "1. Change the echo line in greet.sh to a pirate greeting.\n- a bullet that is long enough to wrap here"}}
	lines := c.Render(testCtx(), 40)
	var got []string
	for _, l := range lines {
		got = append(got, ansi.Strip(l))
	}
	want := []string{"  │ 1. Change the echo line in", "  │    greet.sh to a pirate greeting.", "  │ - a bullet that is long enough to", "  │   wrap here"}
	if strings.Join(got[2:], "\n") != strings.Join(want, "\n") {
		t.Errorf("detail lines:\n%s\nwant:\n%s", strings.Join(got[2:], "\n"), strings.Join(want, "\n"))
	}
}

// The other threads waiting (the command center's count): the long flag
// while the left side fits, the short one when not, never past the width;
// none at 0.
func TestStatusLineOthersWaiting(t *testing.T) {
	st := NewStyles(true)
	base := StatusInfo{Model: "gpt-test", Cwd: "~/src/tandem", DeckKey: "f4"}
	running := base
	running.Running, running.Spinner, running.Elapsed = true, "⣾", 5*time.Second
	with := func(s StatusInfo, n int, key string) StatusInfo { s.OthersWaiting, s.DeckKey = n, key; return s }
	cases := []struct {
		name  string
		s     StatusInfo
		width int
		want  string // the line starts with it, "" for no flag
	}{
		{"none", with(base, 0, "f4"), 100, ""},
		{"two, wide", with(base, 2, "f4"), 100, "⚑ 2 other threads wait for you · f4  "},
		{"one", with(base, 1, "f4"), 100, "⚑ 1 other thread waits for you · f4"},
		{"no key", with(base, 3, ""), 100, "⚑ 3 other threads wait for you  "},
		{"running, narrow", with(running, 2, "f4"), 50, "⚑ 2 waiting · f4  ⣾ Working 5s"},
		{"20 columns", with(base, 2, "f4"), 20, "⚑ 2 waiting · f4"},
		{"12 columns", with(running, 2, "f4"), 12, "⚑ 2 waiting…"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			line := ansi.Strip(StatusLine(st, c.s, c.width))
			if w := ansi.StringWidth(line); w > c.width {
				t.Errorf("%d columns wide, more than %d: %q", w, c.width, line)
			}
			if c.want == "" && strings.Contains(line, "⚑") || !strings.HasPrefix(line, c.want) {
				t.Errorf("got %q, want it to start with %q", line, c.want)
			}
		})
	}
}
