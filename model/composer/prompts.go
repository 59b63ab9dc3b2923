package composer

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"tandem/model/act"
	"tandem/model/keys"
	"tandem/sessions"
)

// promptPreviewLines is how many lines of a multi-line prompt the
// Ctrl+R picker shows under the list while it is highlighted.
const promptPreviewLines = 6

// promptSearch is Ctrl+R's picker (act.Pick, the overlay's), opened on
// the draft as its query: this workspace's prompts, newest first (this
// session's too), then every other workspace's in the state file and
// codex's own history (Options.CodexHistory), newest first, each with
// its workspace (or "codex"); a prompt listed once. Typing filters it
// fuzzily and keeps that order (Ordered); Enter puts the prompt chosen in
// the draft (act.SetDraft), Esc leaves the draft as it was. Both files
// are read now (other runs may have added prompts), each a bounded read:
// the state file as ↑ reads it, codex's its last CodexHistoryTail bytes.
func (c *Composer) promptSearch() act.Pick {
	var others, codex []sessions.Prompt
	if c.opts.State != nil {
		others = c.opts.State.Prompts()
	}
	if c.opts.CodexHistory != "" {
		codex, _ = sessions.CodexPrompts(c.opts.CodexHistory) // unreadable: tandem's alone
	}
	p := promptPick(c.History(), c.opts.Workspace, sessions.MergePrompts(others, codex), c.Value())
	p.Hint = "this workspace's, then every workspace's · type to search · " +
		keys.Short(c.keys.ListChoose, 1) + " to use · " + keys.Short(c.keys.ListClose, 1) + " to close"
	return p
}

// promptPick builds the picker from this workspace's prompts (own,
// oldest first), every workspace's (all, newest first) and the query.
func promptPick(own []string, workspace string, all []sessions.Prompt, query string) act.Pick {
	items := make([]act.PickItem, 0, len(own)+len(all))
	seen := make(map[string]bool, len(own)+len(all))
	add := func(text, detail string) {
		if seen[text] || strings.TrimSpace(text) == "" {
			return
		}
		seen[text] = true
		items = append(items, act.PickItem{Label: promptLabel(text), Detail: detail, Choose: act.SetDraft{Text: text}, Preview: promptPreview(text)})
	}
	for i := len(own) - 1; i >= 0; i-- {
		add(own[i], "")
	}
	for _, p := range all {
		switch {
		case p.FromCodex:
			add(p.Text, "codex")
		case p.Workspace != workspace:
			add(p.Text, shortPath(p.Workspace))
		}
	}
	return act.Pick{Title: "Your prompts",
		Empty: "no prompts sent yet", Query: query, Items: items, Ordered: true}
}

// promptLabel is a prompt on one row: its lines joined by " ⏎ ", runs
// of blanks squeezed (an indented block reads as its words).
func promptLabel(text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	out := lines[:0]
	for _, l := range lines {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, " ⏎ ")
}

// promptPreview is a multi-line prompt as written, its first
// promptPreviewLines lines and how many more (nil for one line: the row
// shows it).
func promptPreview(text string) []string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) < 2 {
		return nil
	}
	if n := len(lines) - promptPreviewLines; n > 0 {
		lines = append(lines[:promptPreviewLines:promptPreviewLines], "… "+strconv.Itoa(n)+" more lines")
	}
	return lines
}

// shortPath is a workspace as the picker names it: under the home
// directory with "~".
func shortPath(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if rel, err := filepath.Rel(home, p); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			return "~" + string(filepath.Separator) + rel
		}
	}
	return p
}
