package model

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
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
	if !m.opts.ReadOnly {
		return nil, false
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		km := m.keys
		switch {
		case m.panes.PagerOpen() && !key.Matches(msg, km.QuitEmpty):
			m.pagerKey(msg) // q, esc and Ctrl+C close the pager
			return nil, true
		case key.Matches(msg, km.Leave):
			return m.quit(), true
		case key.Matches(msg, km.ScrollUp, km.ScrollDown, km.Pager, km.Mouse):
			// scrolling, the transcript pager and mouse capture
			return nil, false
		}
		m.setNotice(noticeInfo, watcherReadOnlyHint)
		return nil, true
	case tea.PasteMsg:
		m.setNotice(noticeInfo, watcherReadOnlyHint)
		return nil, true
	}
	return nil, false
}

// guestBlocked are the slash commands a guest of tandem serve may not
// run: /approvals would loosen the host's approval policy and sandbox for
// the guest's turns.
var guestBlocked = map[string]bool{"approvals": true}

// sharedBlocked are the slash commands that would switch or restart the
// one thread every viewer of a shared session folds: they are refused
// there, since the other viewers' models would not follow.
var sharedBlocked = map[string]bool{
	"new": true, "resume": true, "fork": true, "archive": true, "restart": true, "undo": true,
}

// sharedBlocks reports whether slash command name is refused because the
// session is shared (Options.Shared) or the viewer is a guest
// (Options.Guest), and says so in the status line.
func (m *Model) sharedBlocks(name string) bool {
	if m.opts.Guest && guestBlocked[name] {
		m.setNotice(noticeInfo, "/"+name+" is the host's: guests keep the approval policy and sandbox tandem serve started with")
		return true
	}
	if !m.opts.Shared || !sharedBlocked[name] {
		return false
	}
	m.setNotice(noticeInfo, "/"+name+" is not available in a shared session")
	return true
}
