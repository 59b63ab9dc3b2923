// Package keys is tandem's one keymap: every key binding of the TUI, a
// bubbles key.Binding with its help, by action name. The components ask
// it (key.Matches(msg, km.Submit)); /help, docs/KEYS.md and the README's
// key table are generated from it (Groups), and the config may rebind any
// action by name ([keys] in config.toml, Rebind). No other package spells
// a key.
//
// It imports nothing of tandem: bubbles' key and huh's keymap only.
package keys

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/huh/v2"
)

// Scope is where a binding acts. Bindings of one scope must not share a
// key (Rebind refuses a clash), but for the pairs listed in shared, which
// mean one thing or the other by context.
type Scope int

const (
	// Compose: while the composer has the keyboard, the session's keys.
	Compose Scope = iota
	// Edit: the draft's editing keys, at the same time as Compose's (the
	// two may not share a key either).
	Edit
	// List: a list above the composer (the / @ $ popups, a picker).
	List
	// Pager: the full-screen transcript.
	Pager
	// Form: an approval, a question or an elicitation that has the keys.
	Form
	// Watch: a watcher of a shared session.
	Watch
	// Replay: the playback of `tandem replay` and `tandem demo`, ahead of
	// the session's keys (the wrapper around the model takes them first).
	Replay
	// Deck: the command center (internal/deck): the list of threads and
	// the inbox. Printable keys type into its filter (or the prompt it
	// asks), so none of its actions is a plain letter.
	Deck
	// Search: the search line of the transcript or the pager (Find,
	// PagerFind). Printable keys type into it, so none of its actions
	// is a plain letter.
	Search
)

var scopeNames = [...]string{"the session", "editing the message", "lists", "the pager", "forms", "watching", "replaying", "the command center", "the search line"}

// scopes is every scope, in the order /help and docs/KEYS.md list them.
func scopes() []Scope {
	out := make([]Scope, len(scopeNames))
	for i := range out {
		out[i] = Scope(i)
	}
	return out
}

// String names the scope as /help and docs/KEYS.md head its table.
func (s Scope) String() string { return scopeNames[s] }

// Map is the keymap. Each field is one action; its name in the config is
// the field's action name (Action.Name: "submit", "pager", …).
type Map struct {
	// The composer and the session.
	Submit, Newline, Queue, Interrupt, Quit, QuitEmpty, ScrollUp, ScrollDown,
	Pager, Expand, Output, Copy, Mouse, Restart, Agents, Editor, Clipboard,
	Collab, HistorySearch, HistoryPrev, HistoryNext, RewindEsc, Suspend, Find key.Binding
	// Editing the draft.
	DeleteBack, DeleteForward, DeleteWordBack, DeleteWordForward, KillToEnd,
	KillToStart, Left, Right, Up, Down, WordLeft, WordRight, LineStart, LineEnd,
	DraftStart, DraftEnd, Upcase, Downcase, Capitalize key.Binding
	// Lists: the popups and the pickers.
	ListUp, ListDown, ListPageUp, ListPageDown, ListChoose, ListComplete,
	ListClose, ListErase, ResumeScope, ResumeSort key.Binding
	// The transcript pager.
	PagerUp, PagerDown, PagerPageUp, PagerPageDown, PagerTop, PagerBottom,
	PagerClose, PagerOutput, PagerFind, PagerFindOlder, PagerFindNewer key.Binding
	// The search line (Find in the transcript, PagerFind in the pager).
	FindOlder, FindNewer, FindStay, FindClose, FindErase key.Binding
	// Forms.
	FormUp, FormDown, FormTop, FormBottom, FormChoose, FormAbort, FormToggle,
	DiffLineUp, DiffLineDown, DiffHalfUp, DiffHalfDown, DiffPageUp, DiffPageDown,
	FullScreen key.Binding
	// A watcher's leave key.
	Leave key.Binding
	// Replaying a recording (tandem replay, tandem demo).
	ReplayPause, ReplayStep, ReplayFaster, ReplaySlower, ReplayQuit key.Binding
	// A replay's search (#29, recordings): the search line and its steps.
	ReplayFind, ReplayFindNext, ReplayFindPrev, ReplayFindClose key.Binding
	// The command center (Deck opens it from a thread, in Compose).
	Deck, DeckUp, DeckDown, DeckOpen, DeckClose, DeckInbox, DeckScope, DeckNew,
	DeckNewWorktree, DeckRename, DeckArchive, DeckInterrupt, DeckStop, DeckMerge,
	DeckRemove, DeckErase, DeckQuit key.Binding
	// Your prompts (#29): jump to the previous or next prompt you sent,
	// in the transcript and in the pager.
	PromptPrev, PromptNext, PagerPromptPrev, PagerPromptNext key.Binding

	actions []Action
}

// Action is one binding of the map with its name, scope and place in it.
type Action struct {
	Name    string
	Scope   Scope
	Binding *key.Binding
}

// shared are the action pairs of one scope that share a key on purpose:
// which one acts depends on the state (an empty draft, the cursor's row, a
// popup). A rebinding may keep such a pair together.
var shared = [][2]string{
	{"delete_forward", "quit_empty"},  // Ctrl+D: delete forward, or quit on an empty draft
	{"history_prev", "up"},            // ↑: the history on an empty draft or in it, else a row up
	{"history_next", "down"},          // ↓
	{"kill_to_start", "diff_half_up"}, // Ctrl+U edits the draft; in a form it scrolls
	{"queue", "list_complete"},        // Tab: queue while a turn runs; complete in a popup
}

// Default returns the default keymap.
func Default() *Map {
	m := &Map{}
	// The composer and the session.
	m.def(&m.Submit, "submit", Compose, "send the message · while a turn runs: steer it · before the session is ready or while the turn starts: queued, sent once in order", "enter")
	m.def(&m.Newline, "newline", Edit, "new line", "shift+enter", "ctrl+j", "alt+enter")
	m.def(&m.Queue, "queue", Compose, "while a turn runs: queue the message for the next turn", "tab")
	m.def(&m.Interrupt, "interrupt", Compose, "interrupt the running turn (queued messages come back to the input)", "esc")
	m.def(&m.RewindEsc, "rewind_esc", Compose, "Esc Esc arriving as one key (tmux, a slow link): on an empty input, edit an earlier message", "alt+esc")
	m.def(&m.Quit, "quit", Compose, "clear the input; on an empty input twice to quit; mid-turn with a request up: refuse it and interrupt", "ctrl+c")
	m.def(&m.QuitEmpty, "quit_empty", Compose, "quit (on an empty input)", "ctrl+d")
	m.def(&m.Suspend, "suspend", Compose, "suspend tandem to the shell; fg resumes it (not under tandem serve)", "ctrl+z")
	m.def(&m.ScrollUp, "scroll_up", Compose, "scroll the transcript up (at the top: read earlier turns)", "pgup")
	m.def(&m.ScrollDown, "scroll_down", Compose, "scroll the transcript down", "pgdown")
	m.def(&m.Pager, "pager", Compose, "the whole transcript in a pager; a request too large for its room, full screen", "ctrl+t")
	m.def(&m.Expand, "expand", Compose, "expand or collapse the last command's output", "ctrl+o")
	m.def(&m.Output, "output", Compose, "the last command's whole output in $PAGER", "alt+o")
	m.def(&m.Copy, "copy", Compose, "copy the last answer (also /copy)", "alt+y")
	m.def(&m.Mouse, "mouse", Compose, "release or capture the mouse (the terminal's own selection)", "f2")
	m.def(&m.Restart, "restart", Compose, "restart an app-server that is gone or not answering (killed first) and resume the thread; /restart restarts a live one", "f5")
	m.def(&m.Agents, "agents", Compose, "the sub-agents; open one, esc comes back (also /agents)", "f3")
	m.def(&m.Editor, "editor", Compose, "edit the message in $VISUAL or $EDITOR", "ctrl+g")
	m.def(&m.Clipboard, "clipboard", Compose, "attach the clipboard's image", "ctrl+v")
	m.def(&m.Collab, "collab", Compose, "switch the collaboration mode: plan ↔ default (also /plan)", "shift+tab")
	m.def(&m.HistorySearch, "history_search", Compose, "search your prompts: this workspace's, then every workspace's and codex's own (docs/SEARCH.md)", "ctrl+r")
	m.def(&m.HistoryPrev, "history_prev", Compose, "the previous prompt (on an empty input or in the history)", "up")
	m.def(&m.HistoryNext, "history_next", Compose, "the next prompt in the history", "down")
	m.def(&m.Find, "find", Compose, "search the thread: prompts, answers, reasoning, commands and their output, diffs, tool calls, earlier turns not read yet too (docs/SEARCH.md)", "ctrl+f")
	m.def(&m.Deck, "deck", Compose, "the command center: every thread, the inbox of what waits (docs/AGENTS.md); again: back to the thread", "f4")
	// Editing the draft.
	m.def(&m.DeleteBack, "delete_back", Edit, "delete the character before the cursor", "backspace", "ctrl+h")
	m.def(&m.DeleteForward, "delete_forward", Edit, "delete the character after the cursor", "delete", "ctrl+d")
	m.def(&m.DeleteWordBack, "delete_word_back", Edit, "delete the word before the cursor", "alt+backspace", "ctrl+w", "ctrl+backspace")
	m.def(&m.DeleteWordForward, "delete_word_forward", Edit, "delete the word after the cursor", "alt+delete", "alt+d", "ctrl+delete")
	m.def(&m.KillToEnd, "kill_to_end", Edit, "delete to the end of the line", "ctrl+k")
	m.def(&m.KillToStart, "kill_to_start", Edit, "delete to the start of the line", "ctrl+u")
	m.def(&m.Left, "left", Edit, "one character left", "left", "ctrl+b")
	m.def(&m.Right, "right", Edit, "one character right (Ctrl+F searches the thread)", "right")
	m.def(&m.Up, "up", Edit, "one row up in the message", "up", "ctrl+p")
	m.def(&m.Down, "down", Edit, "one row down in the message", "down", "ctrl+n")
	m.def(&m.WordLeft, "word_left", Edit, "one word left", "alt+left", "ctrl+left", "alt+b")
	m.def(&m.WordRight, "word_right", Edit, "one word right", "alt+right", "ctrl+right", "alt+f")
	m.def(&m.LineStart, "line_start", Edit, "start of the line", "home", "ctrl+a")
	m.def(&m.LineEnd, "line_end", Edit, "end of the line", "end", "ctrl+e")
	m.def(&m.DraftStart, "draft_start", Edit, "start of the message", "alt+<", "ctrl+home")
	m.def(&m.DraftEnd, "draft_end", Edit, "end of the message", "alt+>", "ctrl+end")
	m.def(&m.Upcase, "upcase", Edit, "upper-case the next word", "alt+u")
	m.def(&m.Downcase, "downcase", Edit, "lower-case the next word", "alt+l")
	m.def(&m.Capitalize, "capitalize", Edit, "capitalize the next word", "alt+c")
	// Lists.
	m.def(&m.ListUp, "list_up", List, "move up", "up", "ctrl+p")
	m.def(&m.ListDown, "list_down", List, "move down", "down", "ctrl+n")
	m.def(&m.ListPageUp, "list_page_up", List, "a page up", "pgup")
	m.def(&m.ListPageDown, "list_page_down", List, "a page down", "pgdown")
	m.def(&m.ListChoose, "list_choose", List, "choose (a command: only one moved onto or typed whole)", "enter")
	m.def(&m.ListComplete, "list_complete", List, "complete the highlighted item", "tab")
	m.def(&m.ListClose, "list_close", List, "close the list", "esc", "ctrl+c")
	m.def(&m.ListErase, "list_erase", List, "erase the filter's last character", "backspace")
	m.def(&m.ResumeScope, "resume_scope", List, "resume picker: this workspace or all threads", "ctrl+a")
	m.def(&m.ResumeSort, "resume_sort", List, "resume picker: sort by update or creation", "ctrl+s")
	// The pager.
	m.def(&m.PagerUp, "pager_up", Pager, "a line up", "up", "k")
	m.def(&m.PagerDown, "pager_down", Pager, "a line down", "down", "j", "enter")
	m.def(&m.PagerPageUp, "pager_page_up", Pager, "a page up", "pgup", "b", "shift+space")
	m.def(&m.PagerPageDown, "pager_page_down", Pager, "a page down", "pgdown", "space", "f")
	m.def(&m.PagerTop, "pager_top", Pager, "the top", "home", "g")
	m.def(&m.PagerBottom, "pager_bottom", Pager, "the bottom", "end", "G")
	m.def(&m.PagerClose, "pager_close", Pager, "close the pager", "q", "esc", "ctrl+t", "ctrl+c")
	m.def(&m.PagerOutput, "pager_output", Pager, "the last command's whole output in $PAGER", "o")
	m.def(&m.PagerFind, "pager_find", Pager, "search the pager's text (the search line)", "/")
	m.def(&m.PagerFindOlder, "pager_find_older", Pager, "the search's match above (older)", "n")
	m.def(&m.PagerFindNewer, "pager_find_newer", Pager, "the search's match below (newer)", "N")
	// The search line.
	m.def(&m.FindOlder, "find_older", Search, "the match above (older); past the oldest loaded: earlier turns, read from the server", "enter", "up", "ctrl+p")
	m.def(&m.FindNewer, "find_newer", Search, "the match below (newer)", "shift+enter", "down", "ctrl+n")
	m.def(&m.FindStay, "find_stay", Search, "close the search line, staying at the match (the pager: n/N step on)", "tab")
	m.def(&m.FindClose, "find_close", Search, "close the search line, back where the search began; while earlier turns are read: stop reading", "esc", "ctrl+c")
	m.def(&m.FindErase, "find_erase", Search, "erase the query's last character", "backspace", "ctrl+h")
	// Forms.
	m.def(&m.FormUp, "form_up", Form, "the choice above", "up", "ctrl+p")
	m.def(&m.FormDown, "form_down", Form, "the choice below", "down", "ctrl+n")
	m.def(&m.FormTop, "form_top", Form, "the first choice", "home")
	m.def(&m.FormBottom, "form_bottom", Form, "the last choice", "end")
	m.def(&m.FormChoose, "form_choose", Form, "answer with the highlighted choice (or go to the next field)", "enter")
	m.def(&m.FormAbort, "form_abort", Form, "refuse: cancel (an approval also stops the turn)", "esc")
	m.def(&m.FormToggle, "form_toggle", Form, "toggle an option of a multiple choice", "space")
	m.def(&m.DiffLineUp, "diff_line_up", Form, "scroll the request's window a line up", "shift+up")
	m.DiffLineUp.SetHelp("shift+↑", m.DiffLineUp.Help().Desc)
	m.def(&m.DiffLineDown, "diff_line_down", Form, "scroll the request's window a line down (read on)", "shift+down")
	m.DiffLineDown.SetHelp("shift+↓", m.DiffLineDown.Help().Desc)
	m.def(&m.DiffHalfUp, "diff_half_up", Form, "scroll the request's window half up", "ctrl+u")
	m.def(&m.DiffHalfDown, "diff_half_down", Form, "scroll the request's window half down (read on)", "ctrl+d")
	m.def(&m.DiffPageUp, "diff_page_up", Form, "scroll the request's window a page up", "pgup")
	m.def(&m.DiffPageDown, "diff_page_down", Form, "scroll the request's window a page down (read on)", "pgdown")
	m.def(&m.FullScreen, "full_screen", Form, "the request full screen, and back", "ctrl+t")
	// Watching.
	m.def(&m.Leave, "leave", Watch, "leave the shared session", "q", "ctrl+c", "ctrl+d")
	// Replaying.
	m.def(&m.ReplayPause, "replay_pause", Replay, "pause or resume the playback", "space")
	m.def(&m.ReplayStep, "replay_step", Replay, "the next event at once (also while paused)", "right")
	m.ReplayStep.SetHelp("→", m.ReplayStep.Help().Desc)
	m.def(&m.ReplayFaster, "replay_faster", Replay, "play faster (the next speed)", "+", "=")
	m.def(&m.ReplaySlower, "replay_slower", Replay, "play slower (the previous speed)", "-", "_", "−")
	m.def(&m.ReplayQuit, "replay_quit", Replay, "quit the replay at once (a replayed turn can't be interrupted)", "ctrl+c")
	// A replay's search (#29, recordings).
	m.def(&m.ReplayFind, "replay_find", Replay, "search the recording: a search line; the playback jumps to the matches", "ctrl+f")
	m.def(&m.ReplayFindNext, "replay_find_next", Replay, "on the search line: jump to the next match", "enter")
	m.def(&m.ReplayFindPrev, "replay_find_prev", Replay, "on the search line: jump to the previous match", "shift+enter")
	m.def(&m.ReplayFindClose, "replay_find_close", Replay, "close the search line", "esc")
	// The command center.
	m.def(&m.DeckUp, "deck_up", Deck, "the thread (or request) above", "up", "ctrl+p")
	m.def(&m.DeckDown, "deck_down", Deck, "the thread (or request) below", "down", "ctrl+n")
	m.def(&m.DeckOpen, "deck_open", Deck, "open the thread; in the inbox: answer the request there, back to the inbox once answered; asking a prompt or a name: done", "enter")
	m.def(&m.DeckClose, "deck_close", Deck, "clear the filter (or drop the prompt asked); else back to the thread (answering from the inbox, the `deck` key goes back to the inbox unanswered)", "esc", "f4")
	m.def(&m.DeckInbox, "deck_inbox", Deck, "the inbox (every request waiting, oldest first) ↔ the list", "tab")
	m.def(&m.DeckScope, "deck_scope", Deck, "this workspace's threads or all", "ctrl+a")
	m.def(&m.DeckNew, "deck_new", Deck, "a new thread: asks its prompt", "alt+n")
	m.def(&m.DeckNewWorktree, "deck_new_worktree", Deck, "a new thread in a new git worktree: asks its prompt", "alt+w")
	m.def(&m.DeckRename, "deck_rename", Deck, "rename the thread: asks its name", "alt+r")
	m.def(&m.DeckArchive, "deck_archive", Deck, "archive the thread", "alt+a")
	m.def(&m.DeckInterrupt, "deck_interrupt", Deck, "interrupt the thread's running turn", "alt+i")
	m.def(&m.DeckStop, "deck_stop", Deck, "stop the thread (unload it; it can be resumed)", "alt+x")
	m.def(&m.DeckMerge, "deck_merge", Deck, "merge the thread's worktree branch back into the checkout it came from (refused while its turn runs, or with the files named on a conflict)", "alt+m")
	m.def(&m.DeckRemove, "deck_remove", Deck, "remove the thread's worktree and its branch, and close the thread; uncommitted changes or unmerged commits are named and asked about: again to remove anyway", "alt+d")
	m.def(&m.DeckErase, "deck_erase", Deck, "erase the filter's (or the prompt's) last character", "backspace")
	m.def(&m.DeckQuit, "deck_quit", Deck, "quit tandem (twice: every thread's requests are refused)", "ctrl+c")
	// Your prompts (#29; docs/SEARCH.md).
	m.def(&m.PromptPrev, "prompt_prev", Compose, "scroll the transcript to your previous prompt (above the first: read earlier turns)", "alt+up")
	m.def(&m.PromptNext, "prompt_next", Compose, "scroll the transcript to your next prompt (after the last: the bottom)", "alt+down")
	m.def(&m.PagerPromptPrev, "pager_prompt_prev", Pager, "your previous prompt", "[", "alt+up")
	m.def(&m.PagerPromptNext, "pager_prompt_next", Pager, "your next prompt", "]", "alt+down")
	return m
}

// def binds keys to the action field b named name in scope, with desc
// as its help; the help's key is the keys as /help shows them.
func (m *Map) def(b *key.Binding, name string, scope Scope, desc string, keys ...string) {
	*b = key.NewBinding(key.WithKeys(keys...), key.WithHelp(strings.Join(keys, "/"), desc))
	m.actions = append(m.actions, Action{Name: name, Scope: scope, Binding: b})
}

// Actions returns every action of the map, in the order /help lists them.
func (m *Map) Actions() []Action { return m.actions }

// Lookup returns the action named name.
func (m *Map) Lookup(name string) (Action, bool) {
	for _, a := range m.actions {
		if a.Name == name {
			return a, true
		}
	}
	return Action{}, false
}

// RebindError is a [keys] entry the map refuses: Action names the entry
// ("" for none: a clash names both in Msg).
type RebindError struct {
	Action string
	Msg    string
}

func (e *RebindError) Error() string { return e.Msg }

// Rebind binds each named action to its new keys (tea's key names:
// "ctrl+t", "alt+o", "f5", "enter", "q"). An unknown action name, an
// empty key list or a key that two actions of one scope would share (but
// for the shared pairs) is an error naming them; the map is left as it
// was then.
func (m *Map) Rebind(binds map[string][]string) error {
	names := make([]string, 0, len(binds))
	for n := range binds {
		names = append(names, n)
	}
	sort.Strings(names)
	// Every entry is checked before any is applied, so a refused one
	// leaves the map as it was.
	for _, n := range names {
		if _, ok := m.Lookup(n); !ok {
			return &RebindError{Action: n, Msg: fmt.Sprintf("unknown action %q (the actions are in docs/KEYS.md)", n)}
		}
		if ks := binds[n]; len(ks) == 0 || slices.Contains(ks, "") {
			return &RebindError{Action: n, Msg: fmt.Sprintf("%s: no key given", n)}
		}
	}
	old := make(map[string]key.Binding, len(binds))
	for _, n := range names {
		a, _ := m.Lookup(n)
		ks := binds[n]
		old[n] = *a.Binding
		a.Binding.SetKeys(ks...)
		a.Binding.SetHelp(strings.Join(ks, "/"), a.Binding.Help().Desc)
	}
	if err := m.clash(binds); err != nil {
		for n, b := range old { // keys and help as they were (shift+↑)
			a, _ := m.Lookup(n)
			*a.Binding = b
		}
		return err
	}
	return nil
}

// clash finds two actions of one scope that share a key, one of them
// rebound (in changed), and not a shared pair.
func (m *Map) clash(changed map[string][]string) error {
	for _, a := range m.actions {
		if _, ok := changed[a.Name]; !ok {
			continue
		}
		for _, b := range m.actions {
			if a.Name == b.Name || !together(a.Scope, b.Scope) || isShared(a.Name, b.Name) {
				continue
			}
			for _, k := range a.Binding.Keys() {
				if slices.Contains(b.Binding.Keys(), k) {
					return &RebindError{Action: a.Name, Msg: fmt.Sprintf("%s: %q is %s's key already (%s)", a.Name, k, b.Name, a.Scope)}
				}
			}
		}
	}
	return nil
}

// together reports whether bindings of scopes a and b act at the same
// time: one scope, or the session's and the editing keys.
func together(a, b Scope) bool {
	return a == b || (a == Compose || a == Edit) && (b == Compose || b == Edit)
}

func isShared(a, b string) bool {
	for _, p := range shared {
		if p == [2]string{a, b} || p == [2]string{b, a} {
			return true
		}
	}
	return false
}

// Clashes lists every pair of actions of one scope that share a key and
// are not a shared pair (the default map has none; a test keeps it so).
func (m *Map) Clashes() []string {
	var out []string
	for i, a := range m.actions {
		for _, b := range m.actions[i+1:] {
			if !together(a.Scope, b.Scope) || isShared(a.Name, b.Name) {
				continue
			}
			for _, k := range a.Binding.Keys() {
				if slices.Contains(b.Binding.Keys(), k) {
					out = append(out, fmt.Sprintf("%s and %s: %q", a.Name, b.Name, k))
				}
			}
		}
	}
	return out
}

// Is reports whether a key press named k (tea.KeyPressMsg.String()) is
// one of b's keys, for a key that arrives as a name (a pager's or a
// picker's hooks).
func Is(k string, b key.Binding) bool { return b.Enabled() && slices.Contains(b.Keys(), k) }

// Huh returns huh's keymap for the forms, the map's form bindings set on
// huh's own (whose help the forms show): no letter is a form key, so text
// typed while a form is up never picks a choice and no filter opens; Tab
// never submits a choice; and no half page moves a choice (Ctrl+D and
// Ctrl+U scroll the request's window instead, DiffHalfDown/Up). Every
// field's next and submit keys are FormChoose's (an input's next also
// Tab), and the help names them: whatever key answers is the one the
// forms check (an unread diff) and show.
func (m *Map) Huh() *huh.KeyMap {
	km := huh.NewDefaultKeyMap()
	km.Quit.SetKeys(m.FormAbort.Keys()...)
	choose := m.FormChoose.Keys()
	for _, b := range []*key.Binding{&km.Select.Next, &km.Select.Submit, &km.MultiSelect.Next, &km.MultiSelect.Submit,
		&km.Input.Submit, &km.Confirm.Submit, &km.Text.Submit, &km.Note.Next, &km.Note.Submit} {
		b.SetKeys(choose...)
		b.SetHelp(m.FormChoose.Help().Key, b.Help().Desc)
	}
	for _, b := range []*key.Binding{&km.Input.Next, &km.Confirm.Next, &km.Text.Next} {
		b.SetKeys(append(slices.Clone(choose), "tab")...)
		b.SetHelp(m.FormChoose.Help().Key, b.Help().Desc)
	}
	for _, sel := range []struct{ up, down, top, bottom, filter, halfUp, halfDown *key.Binding }{
		{&km.Select.Up, &km.Select.Down, &km.Select.GotoTop, &km.Select.GotoBottom, &km.Select.Filter, &km.Select.HalfPageUp, &km.Select.HalfPageDown},
		{&km.MultiSelect.Up, &km.MultiSelect.Down, &km.MultiSelect.GotoTop, &km.MultiSelect.GotoBottom, &km.MultiSelect.Filter, &km.MultiSelect.HalfPageUp, &km.MultiSelect.HalfPageDown},
	} {
		sel.up.SetKeys(m.FormUp.Keys()...)
		if !slices.Contains(m.FormUp.Keys(), "up") {
			sel.up.SetHelp(m.FormUp.Help().Key, sel.up.Help().Desc)
		}
		sel.down.SetKeys(m.FormDown.Keys()...)
		if !slices.Contains(m.FormDown.Keys(), "down") {
			sel.down.SetHelp(m.FormDown.Help().Key, sel.down.Help().Desc)
		}
		sel.top.SetKeys(m.FormTop.Keys()...)
		sel.top.SetHelp(m.FormTop.Help().Key, "go to start")
		sel.bottom.SetKeys(m.FormBottom.Keys()...)
		sel.bottom.SetHelp(m.FormBottom.Help().Key, "go to end")
		sel.filter.SetKeys() // no keys: off for good (setFiltering re-enables a disabled one)
		sel.halfUp.SetKeys()
		sel.halfDown.SetKeys()
	}
	km.MultiSelect.Toggle.SetKeys(m.FormToggle.Keys()...)
	km.MultiSelect.Toggle.SetHelp(m.FormToggle.Help().Key, "toggle")
	return km
}
