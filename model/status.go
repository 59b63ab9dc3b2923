package model

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/ui"
)

// cmdStatus shows the session's settings, then fills in the account from
// `account/read`.
func (m *Model) cmdStatus(string) tea.Cmd {
	s := m.statusInfo()
	o := m.turn.TurnOptions()
	model := s.Model
	if o.Model != "" {
		model = o.Model + " (next turn)"
	}
	effort := m.turn.Effort()
	if o.Effort != "" {
		effort = o.Effort + " (next turn)"
	}
	approval, sandbox := s.Approval, s.Sandbox
	if o.ApprovalPolicy != "" {
		approval = o.ApprovalPolicy + " (next turn)"
	}
	if o.Sandbox != "" {
		sandbox = o.Sandbox + " (next turn)"
	}
	lines := []string{
		"model:      " + orDash(model),
		"effort:     " + orDash(effort),
		"cwd:        " + orDash(s.Cwd),
		"approvals:  " + orDash(approval),
		"sandbox:    " + orDash(sandbox),
		"tokens:     " + fmt.Sprintf("%d used in this thread", s.TotalTokens),
	}
	if s.ContextWindow > 0 {
		left := 100 - int(100*s.LastInputTokens/max(1, s.ContextWindow))
		lines = append(lines, fmt.Sprintf("context:    %d%% left of %d", max(0, left), s.ContextWindow))
	} else {
		lines = append(lines, "context:    unknown")
	}
	c := m.turn.Client()
	if c != nil {
		lines = append(lines, "thread:     "+orDash(c.ThreadID()), "server:     "+orDash(serverVersion(c.UserAgent())))
	}
	if s.Peer != "" {
		lines = append(lines, "peer:       "+s.Peer)
	}
	if c == nil || !m.turn.Ready() {
		m.banner(ui.BannerInfo, "Status", lines)
		return nil
	}
	return call("status", func(ctx context.Context) (string, []string, error) {
		if acct, err := c.ReadAccount(ctx); err != nil {
			lines = append(lines, "account:    unknown ("+oneLine(err)+")")
		} else if acct.Account == nil && !acct.RequiresOpenaiAuth {
			lines = append(lines, "account:    not needed by this provider")
		} else {
			lines = append(lines, "account:    "+acct.Account.Describe())
		}
		if rl, err := c.ReadRateLimits(ctx); err != nil {
			lines = append(lines, "limits:     unavailable")
		} else {
			lines = append(lines, "limits:     "+describeLimits(rl))
		}
		return "Status", lines, nil
	})
}

// describeLimits renders the primary and secondary rate-limit windows.
func describeLimits(s backend.RateLimitSnapshot) string {
	var parts []string
	for _, w := range []*backend.RateLimitWindow{s.Primary, s.Secondary} {
		if w == nil {
			continue
		}
		p := fmt.Sprintf("%.0f%% used", w.UsedPercent)
		if w.WindowDurationMins != nil {
			p += fmt.Sprintf(" of %s", ui.FormatDuration(time.Duration(*w.WindowDurationMins)*time.Minute))
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return "none reported"
	}
	return strings.Join(parts, ", ")
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
