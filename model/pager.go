package model

import (
	"github.com/atotto/clipboard"

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

// LastAnswer returns the text of the last agent message ("" if none).
func (m *Model) LastAnswer() string {
	return m.panes.LastAnswer()
}

// CopyLastAnswer copies the last agent message to the clipboard: by OSC 52
// (works over SSH) and, where one exists, the native clipboard. It sets a
// status notice either way; /copy calls it.
func (m *Model) CopyLastAnswer() tea.Cmd {
	text := m.LastAnswer()
	if text == "" {
		m.setNotice(noticeInfo, "nothing to copy yet")
		return nil
	}
	m.setNotice(noticeInfo, "copied the last answer")
	if m.opts.Guest { // the host's clipboard is not the guest's
		return tea.SetClipboard(text)
	}
	native := func() tea.Msg {
		_ = clipboard.WriteAll(text) // no native clipboard: OSC 52 alone
		return nil
	}
	return tea.Batch(tea.SetClipboard(text), native)
}
