package ui

import (
	"fmt"
	"strings"
	"time"
)

// StatusInfo is what the status line shows.
type StatusInfo struct {
	Model, Cwd, Approval, Sandbox, Peer string
	// Tokens used in the thread so far, and the model's context window
	// (0 when unknown).
	TotalTokens, ContextWindow, LastInputTokens int64
	Running                                    bool
	Spinner                                    string
	Elapsed                                    time.Duration
	Notice                                     string // transient hint, e.g. "press Ctrl+C again to quit"
}

// StatusLine renders the one-line status bar at width.
func StatusLine(st Styles, s StatusInfo, width int) string {
	var left []string
	if s.Running {
		left = append(left, st.Running.Render(s.Spinner+" Working "+FormatDuration(s.Elapsed.Truncate(time.Second)))+st.Dim.Render(" · esc to interrupt"))
	}
	if s.Notice != "" {
		left = append(left, st.Warn.Render(s.Notice))
	}
	var right []string
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
		if s.ContextWindow > 0 && s.LastInputTokens > 0 {
			left := 100 - int(100*s.LastInputTokens/s.ContextWindow)
			if left < 0 {
				left = 0
			}
			t += fmt.Sprintf(" · %d%% context left", left)
		}
		right = append(right, t)
	}
	l := strings.Join(left, "  ")
	r := st.Status.Render(strings.Join(right, " · "))
	gap := width - ansiWidth(l) - ansiWidth(r)
	if gap < 1 {
		r = Truncate(r, max(0, width-ansiWidth(l)-1))
		gap = width - ansiWidth(l) - ansiWidth(r)
		if gap < 0 {
			return Truncate(l, width)
		}
	}
	return l + strings.Repeat(" ", gap) + r
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
