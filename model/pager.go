package model

import (
	tea "charm.land/bubbletea/v2"

	"tandem/model/transcript"
)

// pagerKey handles every key while the pager (model/transcript) is
// open: it closes, or gives way to a command's output.
func (m *Model) pagerKey(k tea.KeyPressMsg) tea.Cmd {
	do := m.panes.PagerKey(k, m.keys)
	if do == transcript.PagerOutput && m.env.Role.Watches() {
		return nil
	}
	if do == transcript.PagerClose || do == transcript.PagerOutput {
		m.panes.ClosePager(m.transcriptHeight(), m.turn.Client() != nil)
	}
	if do == transcript.PagerOutput {
		return m.panes.OpenOutput()
	}
	return nil
}
