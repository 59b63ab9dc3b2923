package model

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/model/transcript"
	"tandem/thread"
	"tandem/ui"
)

// onEvent folds one backend event: the thread's items go through the
// fold (thread.State.Apply) and are drawn as cells; turn, error and
// connection events drive this viewer's turn state, banners and recovery.
func (m *Model) onEvent(ev backend.Event) tea.Cmd {
	switch e := ev.(type) {
	case backend.TurnStartedEvent:
		return m.followTurn() // turn.go: ours is running already
	case backend.TurnCompletedEvent:
		mine, d := m.turn.busy(), m.now().Sub(m.turn.started)
		m.endTurn(e.Turn)
		var note tea.Cmd
		if mine { // this viewer's turn: the title and a notification (notify.go)
			note = m.stat.TurnEnded(e.Turn, d, m.stat.Label(m.panes.Name(), m.panes.Thread()), m.live())
		}
		return tea.Batch(note, m.flushQueue()) // send the next queued prompt
	case backend.ErrorEvent:
		if e.WillRetry {
			m.banner(ui.BannerWarning, e.Error.Message+" (retrying)", nil)
		} else {
			m.banner(ui.BannerError, e.Error.Message, detailLines(e.Error.AdditionalDetails))
			m.turn.err = e.Error.Message
		}
		return nil
	case backend.WarningEvent:
		if e.Thread() == "" && !m.recovery.firstWarning(e.Text()) {
			return nil // a restarted server says its server-wide warnings again
		}
		m.banner(ui.BannerWarning, e.Text(), nil)
		return nil
	case backend.ThreadStatusEvent:
		if e.Status.Type == "idle" {
			return m.onThreadIdle()
		}
		return nil
	case backend.RequestResolvedEvent:
		if e.By != "" { // a shared session says who answered and what
			m.banner(ui.BannerQuiet, e.By+" "+e.Answer+" "+backend.DescribeRequest(e.Method), nil)
		}
		m.overlay.Resolved(e.RequestID) // model/overlay
		return nil
	case backend.ServerExitedEvent:
		if e.Detached && m.canReattach() {
			return m.onDetached(e) // reattach.go: the agent goes on
		}
		m.onServerExited(e) // recovery.go
		return nil
	case backend.UnknownEvent:
		if !m.seenUnknown[e.Method] {
			if m.seenUnknown == nil {
				m.seenUnknown = map[string]bool{}
			}
			m.seenUnknown[e.Method] = true
			m.banner(ui.BannerQuiet, "codex sent "+e.Method+", which tandem does not show yet (noted once)", nil)
		}
		return nil
	case backend.ModelReroutedEvent:
		why := e.Reason
		if why == "highRiskCyberActivity" {
			why = "flagged as high-risk cyber activity"
		}
		m.banner(ui.BannerWarning, fmt.Sprintf("%s is not answering this turn: %s answers instead (%s)", e.FromModel, e.ToModel, why), nil)
		m.stat.Apply(act.Settings{Model: &e.ToModel})
		return nil
	case backend.ThreadNameEvent:
		m.panes.OnName(e) // model/transcript
		return nil
	case backend.McpStartupEvent:
		m.stat.OnMcpStartup(e) // model/status
		return nil
	case backend.SkillsChangedEvent:
		m.composer.FetchSkills(true) // model/composer: the $ popup's skills, re-scanned
		return nil
	case backend.GoalUpdatedEvent, backend.GoalClearedEvent:
		m.onGoalEvent(e) // goal.go
		return nil
	case backend.McpLoginEvent:
		if e.Success {
			m.banner(ui.BannerInfo, "MCP server "+e.Name+": signed in", nil)
		} else {
			why := "no reason given"
			if e.Error != nil && *e.Error != "" {
				why = *e.Error
			}
			m.banner(ui.BannerError, "MCP server "+e.Name+": sign-in failed: "+why, nil)
		}
		return nil
	}
	ch := m.panes.Fold(ev, transcript.FoldFacts{OwnTurn: m.turn.running && !m.turn.foreign && !m.opts.Shared})
	var snap tea.Cmd
	if it := ch.Item; it != nil && it.Kind == thread.FileChange && it.Done {
		snap = m.snapCmd(it) // rewind.go: how the agent left the files
	}
	if ch.Status {
		// Labelled once per update, not once per frame.
		limits := make([]ui.RateLimit, 0, len(m.panes.Thread().RateLimits))
		for _, r := range m.panes.Thread().RateLimits {
			limits = append(limits, ui.RateLimit{Label: ui.RateLimitLabel(r.WindowMins), UsedPercent: r.UsedPercent})
		}
		m.stat.Apply(act.Settings{RateLimits: &limits})
	}
	return snap
}

func detailLines(s *string) []string {
	if s == nil || *s == "" {
		return nil
	}
	return strings.Split(*s, "\n")
}

// isDelta reports whether msg is a streaming delta, which is coalesced:
// it changes a live cell without forcing a re-render, so a burst of
// deltas costs one render per frame (the 33 ms tick, or the next other
// message).
func isDelta(msg tea.Msg) bool {
	switch msg.(type) {
	case backend.AgentMessageDeltaEvent, backend.CommandOutputDeltaEvent:
		return true
	}
	return false
}
