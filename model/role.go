package model

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
	"tandem/model/transcript"
)

// guestNoHostProgram is the notice for a key that would run a program
// on the host (Options.Guest).
const guestNoHostProgram = act.GuestNoHostProgram

// watcherReadOnlyHint is shown to a watcher who types.
const watcherReadOnlyHint = "you are watching — PgUp/PgDn scroll, Ctrl+T pager, q leaves"

// roleFilter runs first in Update. For a watcher (Options.ReadOnly) it
// consumes every key press and paste except the ones in watcherKeys, so
// no other key path (composer, commands, forms) ever sees them: q, Ctrl+C
// and Ctrl+D leave (this viewer only), anything else shows a hint. While
// the pager is open its keys go straight to it (q, Esc and Ctrl+C close
// it). Drivers pass through untouched.
func (m *Model) roleFilter(msg tea.Msg) (cmd tea.Cmd, done bool) {
	if !m.env.Role.Watches() {
		return nil, false
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		km := m.keys
		switch {
		case m.panes.PagerOpen() && !key.Matches(msg, km.QuitEmpty):
			m.pagerKey(msg) // q, esc and Ctrl+C close the pager
			return nil, true
		case m.panes.Finding(): // the search line
			m.panes.FindKey(msg, km, transcript.FindFacts{Height: m.transcriptHeight()})
			return nil, true
		case key.Matches(msg, km.Leave):
			return m.Quit(), true
		case key.Matches(msg, km.ScrollUp, km.ScrollDown, km.Pager, km.Mouse, km.Find):
			// scrolling, the transcript pager, mouse capture and the search
			return nil, false
		}
		m.env.Out.Notice(act.NoticeInfo, watcherReadOnlyHint)
		return nil, true
	case tea.PasteMsg:
		m.env.Out.Notice(act.NoticeInfo, watcherReadOnlyHint)
		return nil, true
	}
	return nil, false
}
