package model

import (
	"tandem/model/act"
	"tandem/model/transcript"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tandem/model/composer"
	"tandem/model/keys"
)

// quitHint ends the status notice while Ctrl+C is armed to quit.
const quitHint = "press Ctrl+C again to quit"

// onKey routes a key press: Ctrl+Z first, then a command's confirmation
// (model/commands), then F5; then a full-screen form; then the pager; then
// the overlay when the key is its (an open picker or login form while the
// form does not have the keyboard); then, unless the form has the
// keyboard, the composer's side (popup, Enter, Tab, history); then the
// global keys, the form and the composer's text (globalKey).
func (m *Model) onKey(k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, m.keys.Suspend) { // anywhere: the pager, a form, a question
		m.commands.Suspend() // model/commands: tea.Suspend, or why not
		return nil
	}
	if m.commands.Key(k) { // model/commands: a command's confirmation
		return nil
	}
	if key.Matches(k, m.keys.Restart) && !m.env.Role.Watches() {
		m.turn.F5() // model/turn: a restart of a server gone or not answering, or why not
		return nil
	}
	if m.overlay.FullScreen() { // model/overlay: every key but Ctrl+C
		if m.overlay.Key(k) {
			return nil
		}
		return m.globalKey(k)
	}
	switch {
	case m.panes.PagerOpen():
		return m.pagerKey(k)
	case m.panes.Finding(): // model/transcript: the search line has every key
		m.panes.FindKey(k, m.keys, transcript.FindFacts{Height: m.transcriptHeight(), CanRead: m.turn.Client() != nil})
		return nil
	case m.overlay.Takes(k): // model/overlay: a picker or the login form
		m.overlay.Key(k)
		return nil
	case !m.overlay.HasKeys() && !m.env.Role.Watches():
		return m.composerKey(k)
	}
	return m.globalKey(k)
}

// composerKey handles a key while the composer's side has the keyboard:
// the composer (model/composer) takes its own — a paste burst's keys, the popup's,
// Enter, Tab, Up, Down, Ctrl+R, Ctrl+G, Ctrl+V — and hands the rest back:
// Shift+Tab switches the collaboration mode, everything else is a global
// key or text, after which the popup follows the draft.
func (m *Model) composerKey(k tea.KeyPressMsg) tea.Cmd {
	switch m.composer.Key(k) {
	case composer.Handled:
		return nil
	case composer.Global:
		return m.globalKey(k)
	}
	if key.Matches(k, m.keys.Collab) {
		m.turn.SwitchMode(false) // model/turn: the next collaboration mode
		return nil
	}
	cmd := m.globalKey(k)
	m.composer.Follow()
	return cmd
}

// globalKey handles the view's keys, Ctrl+C, scrolling, the shown form
// (once it has the keyboard), Esc and Ctrl+D, and otherwise types into
// the composer.
func (m *Model) globalKey(k tea.KeyPressMsg) tea.Cmd {
	if m.overlay.WindowKey(k) { // model/overlay: the drawn form's diff scrolls first
		return nil
	}
	if cmd, done := m.viewKey(k); done {
		return cmd
	}
	km := m.keys
	switch {
	case key.Matches(k, km.Quit):
		return m.ctrlC()
	case key.Matches(k, km.QuitEmpty) && m.composer.Value() == "" && m.stat.OthersBusy() && !m.stat.Quitting(m.env.Clock.Now()):
		// Other threads of the command center run or wait (model/status):
		// the first Ctrl+D names them and asks for it again.
		m.env.Out.Notice(act.NoticeQuit, m.stat.QuitNote(keys.Display(km.QuitEmpty), quitHint))
		return m.stat.ArmQuit(m.env.Clock.Now())
	case key.Matches(k, km.ScrollUp):
		return m.scroll(0, -1)
	case key.Matches(k, km.ScrollDown):
		return m.scroll(0, 1)
	}
	if k, _ := m.stat.Notice(); k == act.NoticeQuit {
		m.env.Out.Clear(act.NoticeQuit)
		m.stat.DisarmQuit()
	}
	if m.overlay.FormKey(k) { // model/overlay: the form's, or an Esc meant for it
		return nil
	}
	switch {
	case key.Matches(k, km.Interrupt):
		if m.panes.AgentShown() { // model/transcript: back to the thread
			m.panes.ShowAgent("")
			return nil
		}
		if m.turn.Running() {
			m.turn.Interrupt(false) // model/turn
			return nil
		}
		if m.composer.Value() == "" {
			m.rewind.Esc() // model/rewind: Esc Esc edits an earlier message
		}
		return nil
	case key.Matches(k, km.RewindEsc):
		// Two Escs in one read (tmux, a slow link) arrive as one key.
		if m.panes.AgentShown() {
			m.panes.ShowAgent("")
			return nil
		}
		if !m.turn.Running() && m.composer.Value() == "" {
			m.rewind.EscEsc() // model/rewind
		}
		return nil
	case key.Matches(k, km.QuitEmpty) && m.composer.Value() == "":
		return m.Quit()

	case key.Matches(k, km.Clipboard): // a form that did not take it: the composer's
		m.composer.ReadClipboard()
		return nil
	}
	m.composer.Edit(k) // the draft's editing keys and text
	return nil
}

// ctrlC: with a form up mid-turn it refuses every request (never
// accepting) and interrupts; with a draft it clears it (into the
// history); during a turn it interrupts; otherwise twice within 3 s
// quits.
func (m *Model) ctrlC() tea.Cmd {
	if m.turn.Running() && m.overlay.HasForm() && !m.turn.Interrupting() {
		// Mid-turn with a question or approval up: refuse it (never
		// accept) and interrupt the turn once refused; the draft stays. A
		// second Ctrl+C quits, as anywhere else.
		m.turn.Interrupt(true)                                       // model/turn
		m.env.Out.Notice(act.NoticeQuit, "interrupting — "+quitHint) // after the turn's own
		return m.stat.ArmQuit(m.env.Clock.Now())                     // model/status: the quit window
	}
	if m.composer.Discard() { // into the history: Up brings it back
		m.env.Out.Clear(act.NoticeInfo) // "image attached", "large paste …": of the draft
		m.stat.DisarmQuit()
		m.rewind.Cancel() // model/rewind: a rewind chosen goes with its draft
		return nil
	}
	if m.turn.Running() && !m.overlay.HasForm() && !m.turn.Interrupting() && m.turn.Client() != nil {
		// The first Ctrl+C of a turn interrupts it; while that is
		// unanswered a further one arms quit. (With no client — the link
		// to the daemon is down — it arms quit at once.)
		m.turn.Interrupt(false)
		return nil
	}
	if m.stat.Quitting(m.env.Clock.Now()) {
		return m.Quit()
	}
	if m.turn.Running() && m.turn.Interrupting() {
		m.env.Out.Notice(act.NoticeQuit, "interrupt not confirmed — "+quitHint)
	} else { // model/status: other threads of the command center still busy are named
		m.env.Out.Notice(act.NoticeQuit, m.stat.QuitNote(keys.Display(m.keys.Quit), quitHint))
	}
	return m.stat.ArmQuit(m.env.Clock.Now()) // model/status: the quit window
}

// viewKey handles the transcript view's keys.
func (m *Model) viewKey(k tea.KeyPressMsg) (cmd tea.Cmd, done bool) {
	km := m.keys
	switch {
	case key.Matches(k, km.Agents):
		m.commands.Agents() // model/commands: /agents
		return nil, true
	case key.Matches(k, km.Pager):
		if m.overlay.OpenFull() { // model/overlay: a form too long for the window
			return nil, true
		}
		// The transcript pager; with an approval up it ends with all the
		// approval asks about, uncut: its detail, then its whole diff.
		detail, diff := m.overlay.PagerTail() // model/overlay
		return m.panes.OpenPager(transcript.PagerTail{Detail: detail, Diff: diff}), true
	case key.Matches(k, km.Find):
		m.panes.OpenFind(m.transcriptHeight() - 1) // model/transcript: the search line
		return nil, true
	case key.Matches(k, km.Expand):
		if m.env.Role.Watches() {
			return nil, false
		}
		m.panes.ToggleLastCommand()
		return nil, true
	case key.Matches(k, km.Mouse):
		if m.panes.ToggleMouse() {
			m.env.Out.Notice(act.NoticeInfo, "mouse released: select text with the terminal; "+km.Mouse.Help().Key+" captures it again")
		} else {
			m.env.Out.Clear()
		}
		return nil, true
	case key.Matches(k, km.Copy):
		if m.env.Role.Watches() {
			return nil, false
		}
		m.commands.Copy() // model/commands: /copy
		return nil, true
	case key.Matches(k, km.Output):
		return m.panes.OpenOutput(), true
	case key.Matches(k, km.PromptPrev, km.PromptNext):
		dir, d := 1, 0
		if key.Matches(k, km.PromptPrev) {
			dir = -1
		}
		if !m.panes.Inline() || m.panes.FullScreen() {
			d, _ = m.panes.PromptJump(dir, m.transcriptHeight()) // model/transcript: your previous or next prompt
		}
		return m.scroll(d, 0), true
	}
	return nil, false
}

// scroll moves the transcript by lines plus pages (model/transcript); at
// the top it reads the thread's earlier turns. With --no-alt-screen the
// terminal scrolls its own scrollback instead, and a notice says so.
func (m *Model) scroll(lines, pages int) tea.Cmd {
	if m.panes.Inline() && !m.panes.FullScreen() {
		m.env.Out.Notice(act.NoticeInfo, transcript.ScrollbackHint)
		return nil
	}
	m.panes.Scroll(lines, pages, m.transcriptHeight(), m.turn.Client() != nil)
	return nil
}

// onWheel scrolls the pager or the transcript by three lines.
func (m *Model) onWheel(msg tea.MouseWheelMsg) tea.Cmd {
	d := 0
	switch msg.Button {
	case tea.MouseWheelUp:
		d = -3
	case tea.MouseWheelDown:
		d = 3
	}
	if m.panes.PagerOpen() {
		m.panes.PagerWheel(d)
		return nil
	}
	return m.scroll(d, 0)
}
