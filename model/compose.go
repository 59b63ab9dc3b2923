package model

import (
	tea "charm.land/bubbletea/v2"

	"tandem/model/composer"
)

// The composer (model/composer) is the message being written; the root
// builds it, gates every key through it, routes the pastes and keys of
// its side to it, and carries out what it asks (apply.go).

// PasteBurstIdle and PasteBurstLinesIdle are how long after its last key
// a paste typed as keys ends, without and with a newline (model/composer):
// a test that types keys and then presses Enter waits this long between
// the two.
const (
	PasteBurstIdle      = composer.PasteBurstIdle
	PasteBurstLinesIdle = composer.PasteBurstLinesIdle
)

// ImageFileError says why a local file can't be attached
// (composer.ImageFileError).
type ImageFileError = composer.ImageFileError

// CheckImageFile checks a local image to attach (`-i FILE`): p is made
// absolute against dir when relative and must name an existing regular
// file with an image's extension and content, of MaxImageBytes at most.
// It returns the absolute path and the size in bytes; the error is an
// *ImageFileError (composer.CheckImageFile).
func CheckImageFile(p, dir string) (abs string, size int64, err error) {
	return composer.CheckImageFile(p, dir)
}

// MaxImageBytes is the largest image file tandem attaches.
const MaxImageBytes = composer.MaxImageBytes

// newComposer builds the composer of m: its facts are read from m when
// the composer needs them.
func newComposer(m *Model) *composer.Composer {
	opts := composer.Options{Keys: m.keys, State: m.opts.State, Workspace: m.opts.Workspace, CodexHistory: m.opts.CodexHistory,
		Facts: func() composer.Facts {
			return composer.Facts{Queued: m.turn.Queued(), Busy: m.turn.Busy(), Online: m.turn.Client() != nil, Ready: m.turn.Ready(),
				Remote: m.turn.Remote(), ThreadCwd: m.panes.Cwd()}
		}}
	if m.env.Role.Watches() {
		opts.Placeholder = "watching (read-only) — PgUp/PgDn scroll, Ctrl+T pager, q leaves"
	}
	for _, c := range m.commands.Entries() { // model/commands: the / popup lists them
		opts.Commands = append(opts.Commands, composer.Command{Name: c.Name, About: c.About})
	}
	return composer.New(m.env, opts)
}

// keyIn takes a key press through the composer's gate: a decisive key
// waits to see whether a paste follows it, a key right after it makes
// both a paste, and every other key acts now (onKey).
func (m *Model) keyIn(k tea.KeyPressMsg) tea.Cmd {
	g := composer.Gate{Elsewhere: m.env.Role.Watches() || m.panes.PagerOpen() || m.panes.Finding() || m.overlay.Open(),
		Form: m.overlay.HasKeys()}
	g.FormWants = g.Form && m.overlay.Wants(k)
	switch v := m.composer.KeyIn(k, g); v.Do {
	case composer.Hold:
		return nil
	case composer.Release: // the held key acts, and what it asked is done, before k
		first := tea.Batch(m.composer.Act(v, m.onKey), m.apply())
		return tea.Batch(first, m.keyIn(k))
	case composer.Pasted: // the form gives the keys up (act.YieldKeys) before k goes on as the paste's
		yield := m.apply()
		return tea.Batch(yield, m.onKey(k))
	}
	return m.onKey(k)
}

// onPaste takes a bracketed paste, after settling a paste burst under way
// (what came as keys goes first), and routes it: to the shown form once
// it has the keys, to the login form's key field, else to the composer.
func (m *Model) onPaste(text string) tea.Cmd {
	m.composer.EndBurst()
	ended := m.apply()
	if m.panes.Finding() { // model/transcript: into the search line
		m.panes.FindPaste(text, m.transcriptHeight())
		return ended
	}
	if m.overlay.Paste(text) { // model/overlay: the login form's key, the form's field
		return ended
	}
	yield := m.apply() // a form that yielded the keys says so before the paste's notice
	m.composer.Paste(text)
	return tea.Batch(ended, yield)
}
