package model

import (
	"strings"
	"time"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tandem/ui"
)

// Slash commands run only by name (what you approve is what runs): Enter
// runs a command when the draft starts with its whole name ("/stop",
// "/goal TEXT"), or when it was picked in the popup by moving onto it
// (↑/↓, Ctrl+P/N). Enter on anything else that reads as a command — a
// prefix ("/st"), a fuzzy match ("/no"), an unknown name — runs nothing
// and sends nothing: the draft stays, and the status line says what it
// matches (Tab completes the highlighted one, as in Codex's TUI). A draft
// whose first word holds another "/" (a path) or that starts with "/ "
// is a message, and a space before the "/" sends any draft as one.
//
// A command that asks first (command.ask: /stop during a turn) keeps its
// draft and shows its question above the composer; Enter again confirms,
// Esc keeps things as they are, any other key cancels it. The confirming
// Enter counts only once the question has been shown for FormGrace and
// no key came for FormQuiet (as a form's grace, model/overlay), so neither
// keys in flight nor a held Enter answer a question not yet read.

// maxMatchesNamed is how many matching commands a refusal names.
const maxMatchesNamed = 4

// slashWord returns the command name a draft starts with, and whether
// the draft reads as a command at all ("/" alone does, with name "").
func slashWord(raw string) (name string, ok bool) {
	if !strings.HasPrefix(raw, "/") {
		return "", false
	}
	name = raw[1:]
	if i := strings.IndexFunc(name, unicode.IsSpace); i >= 0 {
		name = name[:i]
	}
	if strings.Contains(name, "/") || (name == "" && strings.TrimSpace(raw) != "/") {
		return "", false
	}
	return name, true
}

// slashEnter handles Enter on a draft that reads as a command: it runs
// the command named whole (or asks first), or refuses anything else and
// keeps the draft. done is false for a draft that is a message.
func (m *Model) slashEnter(raw string) (cmd tea.Cmd, done bool) {
	c, args, ok := parseCommand(raw)
	if !ok {
		name, slash := slashWord(raw)
		if !slash {
			return nil, false
		}
		m.refuseSlash(raw, name)
		return nil, true
	}
	args = m.composer.Expand(args) // a pasted goal or name is its text, not its placeholder
	// (With a sub-agent shown runCommand refuses c: nothing to ask.)
	if c.ask != nil && (!m.panes.AgentShown() || agentSafe[c.name]) {
		if q := c.ask(m); q != "" {
			now := m.opts.GraceNow()
			m.ask = &slashAsk{cmd: c, args: args, draft: raw, question: q, seq: m.turn.Seq(), shown: now, last: now}
			m.composer.ClosePopup()
			m.clearNotice(noticeInfo)
			return nil, true
		}
	}
	return m.runDraftCommand(c, args, raw), true
}

// runDraftCommand runs c from the draft raw: the draft is emptied, and
// put back when the command refused to run (refuse).
func (m *Model) runDraftCommand(c *command, args, raw string) tea.Cmd {
	m.refused = false
	m.composer.Replace("")
	cmd := m.runCommand(c, args)
	if m.refused && m.composer.Empty() {
		m.composer.Replace(raw)
	}
	m.refused = false
	m.composer.Prune() // after the draft came back: its pastes stay
	return cmd
}

// refuseSlash says why Enter on raw (read as the command name) ran
// nothing: the commands it matches, or that there is none.
func (m *Model) refuseSlash(raw, name string) {
	if name == "" {
		m.setNotice(noticeInfo, "/ runs nothing — type a command's whole name, or pick one with ↑/↓ and Enter")
		return
	}
	typed := ui.Truncate("/"+name, 24)
	matches := filterCommands(commands(), name)
	if len(matches) == 0 {
		m.setNotice(noticeInfo, typed+" is not a command — /help lists them; a space before the / sends it as a message")
		return
	}
	var names []string
	for i, c := range matches {
		if i == maxMatchesNamed {
			names = append(names, "…")
			break
		}
		names = append(names, "/"+c.name)
	}
	how := " — type the whole name"
	if strings.IndexFunc(raw, unicode.IsSpace) < 0 {
		// The popup shows for this draft (again, after an Esc): Tab
		// completes its highlighted command.
		m.composer.ReopenPopup()
		how += ", or Tab to complete"
	}
	m.setNotice(noticeInfo, typed+" matches "+strings.Join(names, ", ")+how)
}

// slashAsk is a command waiting for its confirmation: the command and its
// arguments, the draft it came from, the question, the turn it was asked
// in (turnState.seq), when the question was shown and the last key since.
type slashAsk struct {
	cmd         *command
	args, draft string
	question    string
	seq         int
	shown, last time.Time
}

// askShown returns the question waiting for a confirmation, if it is on
// the screen now: the composer has the keyboard, holds the same draft,
// the same turn runs, and the command still asks. "" otherwise (then
// Enter is an Enter like any other).
func (m *Model) askShown() string {
	a := m.ask
	if a == nil || m.composer.Value() != a.draft || m.turn.Seq() != a.seq ||
		m.overlay.HasKeys() || m.panes.PagerOpen() || m.overlay.Open() || m.opts.ReadOnly {
		return ""
	}
	if q := a.cmd.ask(m); q != a.question {
		return ""
	}
	return a.question
}

// askKey handles a key while a command waits for its confirmation (done
// when the key was used up): Enter confirms once the question has been
// read (an earlier one is swallowed), Esc cancels it and keeps the draft,
// any other key cancels it and then acts as usual.
func (m *Model) askKey(k tea.KeyPressMsg) (cmd tea.Cmd, done bool) {
	a := m.ask
	if a == nil {
		return nil, false
	}
	if m.askShown() == "" {
		m.ask = nil
		return nil, false
	}
	switch {
	case key.Matches(k, m.keys.Submit):
		now := m.opts.GraceNow()
		due := a.shown.Add(m.opts.FormGrace)
		if quiet := a.last.Add(m.opts.FormQuiet); quiet.After(due) {
			due = quiet
		}
		if now.Before(due) {
			a.last = now // too soon to be an answer: keys in flight, a held Enter
			return nil, true
		}
		m.ask = nil
		return m.runDraftCommand(a.cmd, a.args, a.draft), true
	case key.Matches(k, m.keys.Interrupt):
		m.ask = nil
		m.setNotice(noticeInfo, "/"+a.cmd.name+" not run — the draft stays")
		return nil, true
	}
	m.ask = nil
	return nil, false
}

// askView draws the question waiting for a confirmation, if any.
func (m *Model) askView(w int) []string {
	q := m.askShown()
	if q == "" {
		return nil
	}
	var out []string
	for _, l := range ui.Wrap(q, max(10, w-4)) {
		out = append(out, m.styles.Warn.Render("  "+l))
	}
	return out
}
