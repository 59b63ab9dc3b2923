package model

import (
	"reflect"

	"charm.land/bubbles/v2/cursor"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/model/transcript"
	"tandem/ui"
)

// onEvent folds one backend event: the turn machine takes the events
// about turns and the connection (model/turn); the thread's items go
// through the fold (thread.State.Apply) and are drawn as cells.
func (m *Model) onEvent(ev backend.Event) tea.Cmd {
	if m.turn.OnEvent(ev) {
		return nil
	}
	switch e := ev.(type) {
	case backend.RequestResolvedEvent:
		if e.By != "" { // a shared session says who answered and what
			m.panes.Banner(act.Banner{Kind: ui.BannerQuiet, Text: e.By + " " + e.Answer + " " + backend.DescribeRequest(e.Method)})
		}
		m.overlay.Resolved(e.RequestID) // model/overlay
		return nil
	case backend.UnknownEvent:
		m.panes.OnUnknown(e) // model/transcript: noted once per method
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
	case backend.McpLoginEvent:
		if e.Success {
			m.panes.Banner(act.Banner{Kind: ui.BannerInfo, Text: "MCP server " + e.Name + ": signed in"})
		} else {
			why := "no reason given"
			if e.Error != nil && *e.Error != "" {
				why = *e.Error
			}
			m.panes.Banner(act.Banner{Kind: ui.BannerError, Text: "MCP server " + e.Name + ": sign-in failed: " + why})
		}
		return nil
	}
	ch := m.panes.Fold(ev, transcript.FoldFacts{OwnTurn: m.turn.Own()})
	m.rewind.Folded(ch.Item) // model/rewind: how the agent left the files of a change
	if ch.Status {
		// Labelled once per update, not once per frame.
		limits := make([]ui.RateLimit, 0, len(m.panes.Thread().RateLimits))
		for _, r := range m.panes.Thread().RateLimits {
			limits = append(limits, ui.RateLimit{Label: ui.RateLimitLabel(r.WindowMins), UsedPercent: r.UsedPercent})
		}
		m.stat.Apply(act.Settings{RateLimits: &limits})
	}
	return nil
}

// isDelta reports whether msg is a streaming delta, which is coalesced:
// it changes a live cell without forcing a re-render, so a burst of
// deltas costs one render per frame (the 33 ms tick, or the next other
// message). An answer's, a command's output and a reasoning summary's
// deltas are, the thread's own or a sub-agent's.
func isDelta(msg tea.Msg) bool {
	switch e := msg.(type) {
	case backend.AgentMessageDeltaEvent, backend.CommandOutputDeltaEvent, backend.ReasoningSummaryDeltaEvent:
		return true
	case backend.SubAgentEvent:
		return isDelta(e.Event)
	}
	return false
}

// cursorPkg is the package of the composer's cursor, whose blink
// messages (some unexported: a blink canceled by the next key) change at
// most the cursor.
var cursorPkg = reflect.TypeOf(cursor.BlinkMsg{}).PkgPath()

// bottomOnly reports whether msg changes at most the bottom of the
// screen: the cursor's blink (each key cancels one, which comes back as a
// message) or the spinner's tick. It does not flush the transcript: a
// streaming answer is drawn on its frame tick, not again for these (with
// an answer streaming, each key was drawn twice: for itself and for the
// blink it canceled).
func bottomOnly(msg tea.Msg) bool {
	if _, ok := msg.(spinner.TickMsg); ok {
		return true
	}
	t := reflect.TypeOf(msg)
	return t != nil && t.PkgPath() == cursorPkg
}
