package model

import (
	tea "charm.land/bubbletea/v2"

	"tandem/model/transcript"
)

// openPager opens the transcript pager (model/transcript). With an
// approval up it ends with everything the approval asks about, uncut:
// its detail, then its whole diff.
func (m *Model) openPager() tea.Cmd {
	detail, diff := m.overlay.PagerTail() // model/overlay
	return m.panes.OpenPager(transcript.PagerTail{Detail: detail, Diff: diff})
}

// closePager closes the pager.
func (m *Model) closePager() { m.panes.ClosePager(m.transcriptHeight(), m.turn.Client() != nil) }

// pagerKey handles every key while the pager is open.
func (m *Model) pagerKey(k tea.KeyPressMsg) tea.Cmd {
	switch m.panes.PagerKey(k, m.keys) {
	case transcript.PagerClose:
		m.closePager()
	case transcript.PagerOutput:
		if !m.opts.ReadOnly {
			m.closePager()
			return m.panes.OpenOutput()
		}
	}
	return nil
}
