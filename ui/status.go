package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// StatusInfo is what the status line shows.
type StatusInfo struct {
	Model, Cwd, Approval, Sandbox, Peer string
	// Tokens used in the thread so far, and the model's context window
	// (0 when unknown).
	TotalTokens, ContextWindow, LastInputTokens int64
	Running                                     bool
	// NoInterrupt drops the "esc to interrupt" hint of a running turn,
	// for a session this terminal cannot steer (a replay, a watcher).
	NoInterrupt bool
	Spinner     string
	Elapsed     time.Duration
	Notice      string // transient hint, e.g. "press Ctrl+C again to quit"
	// Presence lists who is connected to a shared session (`tandem
	// serve`), e.g. "alice (driver), bob (watcher)"; "" when not shared.
	Presence string
	// Header is the "working" header while a turn runs: the latest bold
	// heading of the reasoning summary ("" shows "Working").
	Header string
	// RateLimits are the account's rate-limit windows, when known
	// (`account/rateLimits/updated`).
	RateLimits []RateLimit
	// Hints are short key hints shown on the right ("mouse off").
	Hints []string
	// Mcp is the MCP servers' start-up, while any is not ready: "MCP 2
	// starting", "MCP github failed" ("" once all are ready).
	Mcp string
	// Mode is the collaboration mode the next turns run in when it is not
	// the default one ("plan"), shown as a badge first on the left.
	Mode string
	// Goal is the thread's goal (its objective, cut to 32 cells) and
	// GoalStatus its status ("active", "complete", …); "" when none.
	Goal, GoalStatus string
	// OthersWaiting counts the other threads of the command center that
	// wait for an answer, DeckKey the key that opens it ("f4"): "⚑ 2
	// other threads wait for you · f4" on the left, after the sandbox's
	// warning ("⚑ 2 waiting · f4" when the left side would not fit).
	OthersWaiting int
	DeckKey       string
}

// RateLimit is one rate-limit window: Label ("5h", "weekly") and the
// percentage of it used (0–100).
type RateLimit struct {
	Label       string
	UsedPercent float64
}

// RateLimitLabel names a window of mins minutes: "5h", "weekly", "90m".
func RateLimitLabel(mins int64) string {
	switch {
	case mins <= 0:
		return "limit"
	case mins == 7*24*60:
		return "weekly"
	case mins%(24*60) == 0:
		return fmt.Sprintf("%dd", mins/(24*60))
	case mins%60 == 0:
		return fmt.Sprintf("%dh", mins/60)
	}
	return fmt.Sprintf("%dm", mins)
}

// StatusLine renders the one-line status bar at width.
func StatusLine(st Styles, s StatusInfo, width int) string { return statusLine(st, s, width, nil) }

// StatusMemo keeps the right side of the last status line drawn: its
// text, the room it had and what it came to. That side (model, workspace,
// policy, tokens) changes far less often than the left one (the spinner,
// the elapsed time), and styling and cutting it was most of a status
// line's cost — with 100 viewers, a quarter of the pairing server's CPU
// (#17). The zero value is ready; one per viewer, not safe for
// concurrent use.
type StatusMemo struct {
	text       string
	room       int
	dark       bool
	m          ansi.Method
	out        string
	outW       int
	hits, miss int
}

// Line is StatusLine, reusing the right side drawn last time when it is
// the same text with the same room.
func (m *StatusMemo) Line(st Styles, s StatusInfo, width int) string {
	return statusLine(st, s, width, m)
}

func statusLine(st Styles, s StatusInfo, width int, memo *StatusMemo) string {
	// Model, cwd, header and notices come from the server or the user's
	// files: one line each, no controls (Sanitize).
	for _, f := range []*string{&s.Model, &s.Cwd, &s.Approval, &s.Sandbox, &s.Peer, &s.Notice, &s.Header, &s.Presence, &s.Mode, &s.Goal, &s.GoalStatus} {
		*f = SanitizeLine(*f)
	}
	left := leftSide(st, s, false)
	minGap := 2
	if len(left) == 0 {
		minGap = 1 // a margin
	}
	l := strings.Join(left, "  ")
	lw := Width(l, st.Width)
	if s.OthersWaiting > 0 && lw+minGap > width {
		l = strings.Join(leftSide(st, s, true), "  ") // the short flag
		lw = Width(l, st.Width)
	}
	var right []string
	if s.Mcp != "" { // first: it says why a tool is not there yet
		right = append(right, s.Mcp)
	}
	if s.Goal != "" {
		right = append(right, GoalLabel(s.Goal, s.GoalStatus))
	}
	if s.Model != "" {
		right = append(right, s.Model)
	}
	if s.Peer != "" && s.Peer != "local" {
		right = append(right, s.Peer)
	}
	if s.Cwd != "" {
		right = append(right, s.Cwd)
	}
	if s.Approval != "" || s.Sandbox != "" {
		right = append(right, "approval:"+s.Approval+" sandbox:"+s.Sandbox)
	}
	if s.TotalTokens > 0 {
		t := fmt.Sprintf("%s tokens", humanCount(s.TotalTokens))
		if s.ContextWindow > 0 {
			left := 100 - int(100*s.LastInputTokens/s.ContextWindow)
			if left < 0 {
				left = 0
			}
			t += fmt.Sprintf(" · %d%% context left", left)
		}
		right = append(right, t)
	}
	for _, rl := range s.RateLimits {
		right = append(right, fmt.Sprintf("%s %.0f%% used", rl.Label, rl.UsedPercent))
	}
	right = append(right, s.Hints...)
	// Left and right stay apart by at least two spaces; the right side is
	// cut first, then dropped.
	r, rw := rightSide(st, strings.Join(right, " · "), width-lw-minGap, memo)
	if rw < 0 { // nothing left but the ellipsis
		return Cut(l, width, st.Width)
	}
	return l + strings.Repeat(" ", width-lw-rw) + r
}

// leftSide is the status line's left side, its parts styled: the
// sandbox's warning, the other threads waiting (short: "⚑ 2 waiting"),
// the collaboration mode, the running turn, the notice, the roster.
func leftSide(st Styles, s StatusInfo, short bool) []string {
	var left []string
	if b := DangerBadge(s.Approval, s.Sandbox); b != "" { // first: never cut
		left = append(left, st.Danger.Render(" "+b+" "))
	}
	if s.OthersWaiting > 0 {
		left = append(left, st.Warn.Render(OthersWaitingLabel(s.OthersWaiting, SanitizeLine(s.DeckKey), short)))
	}
	if s.Mode != "" {
		left = append(left, st.Accent.Render("["+s.Mode+" mode]"))
	}
	if s.Running {
		h := s.Header
		if h == "" {
			h = "Working"
		}
		run := st.Running.Render(strings.TrimSpace(s.Spinner) + " " + Truncate(h, 48) + " " + ElapsedLabel(s.Elapsed))
		if !s.NoInterrupt {
			run += st.Dim.Render(" · esc to interrupt")
		}
		left = append(left, run)
	}
	if s.Notice != "" {
		left = append(left, st.Warn.Render(s.Notice))
	}
	if s.Presence != "" {
		left = append(left, st.Dim.Render("⇄ "+s.Presence))
	}
	return left
}

// OthersWaitingLabel is the status line's count of the other threads
// that wait for an answer (n > 0), and the key that opens the command
// center ("" for none): "⚑ 2 other threads wait for you · f4", or short
// "⚑ 2 waiting · f4".
func OthersWaitingLabel(n int, key string, short bool) string {
	var l string
	switch {
	case short:
		l = fmt.Sprintf("⚑ %d waiting", n)
	case n == 1:
		l = "⚑ 1 other thread waits for you"
	default:
		l = fmt.Sprintf("⚑ %d other threads wait for you", n)
	}
	if key != "" {
		l += " · " + key
	}
	return l
}

// rightSide styles text and cuts it to room cells; rw is its width, -1
// when nothing but an ellipsis would be left (the side is dropped).
func rightSide(st Styles, text string, room int, memo *StatusMemo) (r string, rw int) {
	if memo != nil && memo.text == text && memo.room == room && memo.dark == st.Dark && memo.m == st.Width {
		memo.hits++
		return memo.out, memo.outW
	}
	r = st.Status.Render(text)
	rw = Width(r, st.Width)
	if rw > room {
		r = Cut(r, max(0, room), st.Width)
		if rw = Width(r, st.Width); rw <= 1 {
			r, rw = "", -1
		}
	}
	if memo != nil {
		memo.miss++
		memo.text, memo.room, memo.dark, memo.m, memo.out, memo.outW = text, room, st.Dark, st.Width, r, rw
	}
	return r, rw
}

// DangerBadge is the status line's warning for a thread whose commands
// run without a sandbox (sandbox danger-full-access, as --yolo sets it):
// "YOLO" when nothing is asked either (approval never), "NO SANDBOX"
// otherwise; "" for a sandboxed thread. A "(next turn)" suffix counts.
func DangerBadge(approval, sandbox string) string {
	if !strings.HasPrefix(sandbox, "danger-full-access") {
		return ""
	}
	if strings.HasPrefix(approval, "never") {
		return "YOLO"
	}
	return "NO SANDBOX"
}

// ElapsedLabel is a running turn's elapsed time as the status line shows
// it, to the second: "0s", "59s", "1m 05s", "1h 02m 03s".
func ElapsedLabel(d time.Duration) string {
	secs := int64(max(0, d/time.Second))
	switch {
	case secs < 60:
		return fmt.Sprintf("%ds", secs)
	case secs < 3600:
		return fmt.Sprintf("%dm %02ds", secs/60, secs%60)
	}
	return fmt.Sprintf("%dh %02dm %02ds", secs/3600, secs%3600/60, secs%60)
}

func humanCount(n int64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	case n >= 1_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// GoalLabel is a thread goal as the status line shows it: "◎ goal: ship
// the release (active)", the objective cut to 32 cells.
func GoalLabel(objective, status string) string {
	l := "◎ goal: " + Truncate(objective, 32)
	if status != "" {
		l += " (" + status + ")"
	}
	return l
}
