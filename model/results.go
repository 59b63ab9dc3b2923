package model

import (
	tea "charm.land/bubbletea/v2"

	"tandem/model/transcript"
	"tandem/ui"
)

// onResult handles what the model's commands come back with (the outcome
// of a request sent, a timer, the pager or editor closing); ok is false
// for any other message.
func (m *Model) onResult(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case turnStartResult:
		m.onTurnStartResult(msg)
	case interruptResult:
		if msg.err != nil {
			m.banner(ui.BannerWarning, "interrupt failed: "+msg.err.Error(), nil)
		}
	case steerResult:
		return m.onSteerResult(msg), true
	case idleCheckMsg:
		m.onIdleCheck(msg)
	case threadSwitchedMsg:
		return tea.Batch(m.onThreadSwitched(msg), m.flushQueue()), true
	case resumeCheckMsg:
		return m.onResumeCheck(msg), true
	case ThreadOpenedMsg:
		return m.onThreadSwitched(threadSwitchedMsg{resp: msg.Response, how: msg.How, before: msg.BeforeTurn}), true
	case rewindDoneMsg:
		return m.onRewindDone(msg), true
	case snapMsg:
		m.onSnap(msg)
	case commandResultMsg: // turn.go: a ! command
		if msg.err != nil {
			m.banner(ui.BannerError, "/"+msg.name+": "+oneLine(msg.err), nil)
		}
	case imageModelsMsg: // images.go
		return m.onImageModels(msg), true
	case collabListedMsg:
		m.onCollabListed(msg) // collab.go
	case goalLoadedMsg:
		m.onGoalLoaded(msg)
	case restartDoneMsg:
		return m.onRestartDone(msg), true
	case reattachTickMsg:
		return m.onReattachTick(msg), true
	case stopDoneMsg:
		return m.onStopDone(msg), true
	case transcript.OutputDone:
		if msg.Err != nil {
			m.setNotice(noticeInfo, "pager: "+msg.Err.Error())
		}
	default:
		return nil, false
	}
	return nil, true
}

// inOrder runs cmds one after another in one command and delivers what
// each yields, in that order: a refusal is written before the interrupt
// or restart that follows it.
func inOrder(cmds ...tea.Cmd) tea.Cmd {
	var run []tea.Cmd
	for _, c := range cmds {
		if c != nil {
			run = append(run, c)
		}
	}
	switch len(run) {
	case 0:
		return nil
	case 1:
		return run[0]
	}
	return func() tea.Msg {
		var out tea.BatchMsg
		for _, c := range run {
			msg := c()
			out = append(out, func() tea.Msg { return msg })
		}
		return out
	}
}
