package commands

import (
	"strings"
	"time"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"tandem/model/act"
	"tandem/ui"
)

// Slash commands run only by name (what you approve is what runs): Enter
// runs a command when the draft starts with its whole name ("/stop",
// "/goal TEXT"), or when it was picked in the popup by moving onto it
// (↑/↓, Ctrl+P/N: the composer then puts its whole name in the draft).
// Enter on anything else that reads as a command — a prefix ("/st"), a
// fuzzy match ("/no"), an unknown name — runs nothing and sends nothing:
// the draft stays, and the status line says what it matches (Tab
// completes the highlighted one, as in Codex's TUI). A draft whose first
// word holds another "/" (a path) or that starts with "/ " is a message,
// and a space before the "/" sends any draft as one. A command that takes
// no arguments, given some ("/restart keep this"), runs nothing: the line
// stays (a queued one is kept), so no text after it is dropped.
//
// A command that asks first (command.ask: /stop during a turn) keeps its
// draft and shows its question above the composer; Enter again confirms,
// Esc keeps things as they are, any other key cancels it. The confirming
// Enter counts only once the question has been shown for Options.Grace
// and no key came for Options.Quiet (as a form's grace, model/overlay),
// so neither keys in flight nor a held Enter answer a question not yet
// read.

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

// parse splits a "/name args" draft at the first space or new line; ok
// is false when the draft does not start with a command's whole name.
func parse(text string) (*command, string, bool) {
	if !strings.HasPrefix(text, "/") {
		return nil, "", false
	}
	name, args := text[1:], ""
	if i := strings.IndexFunc(name, unicode.IsSpace); i >= 0 {
		name, args = name[:i], name[i:]
	}
	cmd := find(name)
	if cmd == nil {
		return nil, "", false
	}
	return cmd, strings.TrimSpace(args), true
}

// matching returns the commands whose name matches query fuzzily, best
// first (as the composer's popup lists them); an empty query lists them
// all in their usual order.
func matching(query string) []*command {
	if query == "" {
		return table
	}
	names := make([]string, len(table))
	for i, cmd := range table {
		names[i] = cmd.name
	}
	var out []*command
	for _, m := range fuzzy.Find(query, names) {
		out = append(out, table[m.Index])
	}
	return out
}

// Enter handles Enter on the draft raw (as typed, placeholders
// unexpanded) and reports whether it was a command's: it runs the command
// named whole (or asks first), or refuses anything else that reads as a
// command. A command that runs empties the draft (act.SetDraft); one
// refused keeps it. handled is false for a draft that is a message.
func (c *Commands) Enter(raw string) (handled bool) {
	cmd, args, ok := parse(raw)
	if !ok {
		name, slash := slashWord(raw)
		if !slash {
			return false
		}
		c.refuseSlash(raw, name)
		return true
	}
	if why := argsRefusal(cmd, args); why != "" {
		c.out().Notice(act.NoticeInfo, why+" — the line stays")
		c.out().Want(act.SetDraft{Text: raw})
		return true
	}
	args = c.world.Expand(args) // a pasted goal or name is its text, not its placeholder
	// (With a sub-agent shown the command is refused: nothing to ask.)
	if cmd.ask != nil && (!c.world.AgentShown() || cmd.agentSafe) {
		if q := cmd.ask(c); q != "" {
			now := c.env.Clock.Now()
			c.ask = &asking{cmd: cmd, args: args, draft: raw, question: q, seq: c.world.Turn().Seq, shown: now, last: now}
			c.out().Want(act.ClosePopup{})
			c.out().Clear(act.NoticeInfo)
			return true
		}
	}
	c.runDraft(cmd, args, raw)
	return true
}

// runDraft runs cmd from the draft raw: the draft is emptied and the
// notice cleared before it runs. A command that can't run now says why,
// and raw is put back as the draft (its popup closed).
func (c *Commands) runDraft(cmd *command, args, raw string) {
	if why := c.refusal(cmd); why != "" {
		c.out().Notice(act.NoticeInfo, why)
		c.out().Want(act.SetDraft{Text: raw})
		return
	}
	c.out().Want(act.SetDraft{})
	c.out().Clear()
	c.run(cmd, args, raw, false)
}

// run runs cmd with args, from raw (a draft, or a queued line): raw is
// kept while it runs (cur) and until its call's answer (drafts), so a
// refusal decided then gives it back (refuse, failed).
func (c *Commands) run(cmd *command, args, raw string, queued bool) {
	c.cur = running{name: cmd.name, raw: raw, queued: queued}
	c.drafts[cmd.name] = raw
	cmd.run(c, args)
	c.cur = running{}
}

// Queued runs raw, a line queued with Tab whose turn came that reads as
// a command (act.RunQueued), as Codex's TUI runs a queued slash command:
// the command named whole runs, the draft untouched; one refused now, or
// a line that only reads as a command, is kept (keep) with a notice. It
// reports false for a line that is a message after all.
func (c *Commands) Queued(raw string) (handled bool) {
	cmd, args, ok := parse(raw)
	if !ok {
		name, slash := slashWord(raw)
		if !slash {
			return false
		}
		c.keep(raw, "queued "+ui.Truncate("/"+name, 24)+" is not a command — not run")
		return true
	}
	why := argsRefusal(cmd, args)
	if why == "" {
		why = c.refusal(cmd)
	}
	if why != "" {
		c.keep(raw, "queued /"+cmd.name+" not run: "+why)
		return true
	}
	c.out().Clear()
	c.run(cmd, c.world.Expand(args), raw, true)
	return true
}

// keep gives back raw, a command that was not run or failed, with a
// notice (why): as the draft when the composer is empty, else in the
// history (↑, Ctrl+R), so nothing typed since is lost.
func (c *Commands) keep(raw, why string) {
	if strings.TrimSpace(c.world.Draft()) == "" {
		c.out().Want(act.SetDraft{Text: raw})
		c.out().Notice(act.NoticeInfo, why+" — the command is back in the composer")
		return
	}
	c.out().Want(act.AddHistory{Entry: raw})
	c.out().Notice(act.NoticeInfo, why+" — the command is in the history (↑, ctrl+r)")
}

// refuse is a running command's refusal (a usage, a state it can't run
// in): the notice, and its draft back (a queued line is kept).
func (c *Commands) refuse(why string) {
	if c.cur.queued {
		c.keep(c.cur.raw, why)
		return
	}
	c.out().Notice(act.NoticeInfo, why)
	c.out().Want(act.SetDraft{Text: c.cur.raw})
}

// refuseSlash says why Enter on raw (read as the command name) ran
// nothing: the commands it matches, or that there is none.
func (c *Commands) refuseSlash(raw, name string) {
	if name == "" {
		c.out().Notice(act.NoticeInfo, "/ runs nothing — type a command's whole name, or pick one with ↑/↓ and Enter")
		return
	}
	typed := ui.Truncate("/"+name, 24)
	matches := matching(name)
	if len(matches) == 0 {
		c.out().Notice(act.NoticeInfo, typed+" is not a command — /help lists them; a space before the / sends it as a message")
		return
	}
	var names []string
	for i, cmd := range matches {
		if i == maxMatchesNamed {
			names = append(names, "…")
			break
		}
		names = append(names, "/"+cmd.name)
	}
	how := " — type the whole name"
	if strings.IndexFunc(raw, unicode.IsSpace) < 0 {
		// The popup shows for this draft (again, after an Esc): Tab
		// completes its highlighted command.
		c.out().Want(act.ReopenPopup{})
		how += ", or Tab to complete"
	}
	c.out().Notice(act.NoticeInfo, typed+" matches "+strings.Join(names, ", ")+how)
}

// asking is a command waiting for its confirmation: the command and its
// arguments, the draft it came from, the question, the turn it was asked
// in (Turn.Seq), when the question was shown and the last key since.
type asking struct {
	cmd         *command
	args, draft string
	question    string
	seq         int
	shown, last time.Time
}

// Question returns the question waiting for a confirmation, if it is on
// the screen now: the composer has the keyboard, holds the same draft,
// the same turn runs, and the command still asks. "" otherwise (then
// Enter is an Enter like any other).
func (c *Commands) Question() string {
	a := c.ask
	if a == nil || c.world.Draft() != a.draft || c.world.Turn().Seq != a.seq ||
		c.world.Covered() || c.env.Role.Watches() {
		return ""
	}
	if q := a.cmd.ask(c); q != a.question {
		return ""
	}
	return a.question
}

// Key handles a key while a side question runs (Esc, the composer
// having the keys, cuts it) or a command waits for its confirmation, and
// reports whether it used the key up: Enter confirms once the question
// has been read (an earlier one is swallowed), Esc cancels it and keeps
// the draft, any other key cancels it and then acts as usual (false).
func (c *Commands) Key(k tea.KeyPressMsg) (done bool) {
	if c.aside != nil && key.Matches(k, c.keys.Interrupt) && !c.world.Covered() {
		return c.cutAside() // aside.go: Esc cuts a side question before it interrupts a turn
	}
	a := c.ask
	if a == nil {
		return false
	}
	if c.Question() == "" {
		c.ask = nil
		return false
	}
	switch {
	case key.Matches(k, c.keys.Submit):
		now := c.env.Clock.Now()
		due := a.shown.Add(c.opts.Grace)
		if quiet := a.last.Add(c.opts.Quiet); quiet.After(due) {
			due = quiet
		}
		if now.Before(due) {
			a.last = now // too soon to be an answer: keys in flight, a held Enter
			return true
		}
		c.ask = nil
		c.runDraft(a.cmd, a.args, a.draft)
		return true
	case key.Matches(k, c.keys.Interrupt):
		c.ask = nil
		c.out().Notice(act.NoticeInfo, "/"+a.cmd.name+" not run — the draft stays")
		return true
	}
	c.ask = nil
	return false
}

// View draws the question waiting for a confirmation, if any, at width.
func (c *Commands) View(st ui.Styles, width int) []string {
	q := c.Question()
	if q == "" {
		return nil
	}
	var out []string
	for _, l := range ui.Wrap(q, max(10, width-4)) {
		out = append(out, st.Warn.Render("  "+l))
	}
	return out
}
