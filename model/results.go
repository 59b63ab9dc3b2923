package model

import (
	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
	"tandem/model/transcript"
)

// onResult handles what the model's commands come back with (the outcome
// of a request sent, a timer, the pager or editor closing); ok is false
// for any other message.
func (m *Model) onResult(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case ThreadOpenedMsg: // a replay's switch (model/turn)
		note := ""
		if msg.How == act.HowRewound {
			note = m.rewind.Note(msg.BeforeTurn) // model/rewind: from the thread left
		}
		m.env.Out.Want(act.OpenThread{Response: msg.Response, How: msg.How, Note: note})
	case transcript.OutputDone:
		if msg.Err != nil {
			m.env.Out.Notice(act.NoticeInfo, "pager: "+msg.Err.Error())
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
