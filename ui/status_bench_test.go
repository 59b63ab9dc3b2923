package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// BenchmarkStatusLine draws a running turn's status line at 100 columns
// in a session of 100 guests, a frame at a time (the spinner and the
// seconds change): "every" as before #17's last step, every guest named
// and the whole line styled and cut each frame; "memo" as now, four
// named and the right side reused (StatusMemo).
func BenchmarkStatusLine(b *testing.B) {
	st := NewStyles(true)
	var all []string
	for i := range 100 {
		all = append(all, fmt.Sprintf("guest%d (watcher)", i))
	}
	base := StatusInfo{Model: "gpt-5-codex", Cwd: "~/src/tandem", Approval: "on-request", Sandbox: "workspace-write",
		Running: true, TotalTokens: 120000, ContextWindow: 272000, LastInputTokens: 90000, Peer: "ssh dev@box"}
	for _, tc := range []struct {
		name     string
		presence string
		memo     bool
	}{
		{"every", strings.Join(all, ", "), false},
		{"memo", strings.Join(all[:3], ", ") + ", +97 more", true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			s := base
			s.Presence = tc.presence
			var memo StatusMemo
			for i := 0; b.Loop(); i++ {
				s.Spinner, s.Elapsed = string("⣾⣽⣻⢿"[i%4*3:i%4*3+3]), time.Duration(i/30)*time.Second
				if tc.memo {
					memo.Line(st, s, 100)
				} else {
					StatusLine(st, s, 100)
				}
			}
		})
	}
}
