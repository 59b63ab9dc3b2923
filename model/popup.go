package model

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"tandem/backend"
	"tandem/ui"
)

// popup kinds.
const (
	popupNone = iota
	popupSlash
	popupFile
	popupSkill // skills.go
)

// popup is the list above the composer that follows the draft: the
// commands matching "/xyz", the files matching the "@xyz" being typed
// (from `fuzzyFileSearch`), or the skills matching "$xyz" (skills.go). It
// is derived from the draft by refreshPopup.
type popup struct {
	kind int
	// for is the draft (slash) or the @ token (file) the items match.
	source string
	items  []popupItem
	sel    int
	// picked: the selection was moved (↑/↓, Ctrl+P/N) since the popup
	// last followed the draft, so Enter runs the highlighted command;
	// otherwise only a whole name typed runs (slash.go).
	picked bool
	// dismissed is the draft on which Esc closed the popup.
	dismissed string
	loading   bool
}

type popupItem struct {
	label, detail string
	cmd           *command // slash
	path          string   // file; a skill's SKILL.md
}

// maxPopupRows is how many popup rows are shown.
const maxPopupRows = 8

func (p popup) active() bool { return p.kind != popupNone }

// fileSearchMsg is a `fuzzyFileSearch` answer for the query of request seq.
type fileSearchMsg struct {
	seq   int
	query string
	files []backend.FuzzyFileMatch
	err   error
}

// filterCommands returns the commands whose name matches query fuzzily,
// best first; an empty query lists them all in their usual order.
func filterCommands(cmds []*command, query string) []*command {
	if query == "" {
		return cmds
	}
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.name
	}
	var out []*command
	for _, match := range fuzzy.Find(query, names) {
		out = append(out, cmds[match.Index])
	}
	return out
}

// mentionToken returns the "@xyz" word at the end of the draft, if any.
func mentionToken(draft string) (string, bool) {
	i := strings.LastIndexAny(draft, " \t\n")
	tok := draft[i+1:]
	if strings.HasPrefix(tok, "@") {
		return tok, true
	}
	return "", false
}

// refreshPopup recomputes the popup from the draft, and returns the
// `fuzzyFileSearch` request when the @ query changed.
func (m *Model) refreshPopup() tea.Cmd {
	draft := m.composer.popupDraft()
	p := &m.popup
	if p.dismissed != "" && p.dismissed == draft {
		return nil
	}
	p.dismissed = ""
	if strings.HasPrefix(draft, "/") && !strings.ContainsAny(draft, " \t\n") {
		if p.kind == popupSlash && p.source == draft {
			return nil
		}
		cmds := filterCommands(commands(), draft[1:])
		items := make([]popupItem, 0, len(cmds))
		for _, c := range cmds {
			items = append(items, popupItem{label: "/" + c.name, detail: c.about(m.keys), cmd: c})
		}
		*p = popup{kind: popupSlash, source: draft, items: items}
		return nil
	}
	if tok, ok := skillToken(draft); ok {
		return m.skillPopup(tok) // skills.go
	}
	if tok, ok := mentionToken(draft); ok {
		if p.kind == popupFile && p.source == tok {
			return nil
		}
		sel := 0
		items := p.items
		if p.kind != popupFile {
			items = nil
		}
		*p = popup{kind: popupFile, source: tok, items: items, sel: sel}
		query := tok[1:]
		c := m.client
		// The thread's workspace as the server knows it (a remote path
		// under --ssh), else the local one.
		root := m.panes.Cwd()
		if root == "" {
			root = m.opts.Workspace
		}
		if query == "" || c == nil || root == "" {
			p.items = nil
			return nil
		}
		p.loading = true
		m.fileSeq++
		seq := m.fileSeq
		return callCmd(func(ctx context.Context) tea.Msg {
			files, err := c.FuzzyFileSearch(ctx, query, []string{root})
			return fileSearchMsg{seq: seq, query: query, files: files, err: err}
		})
	}
	*p = popup{}
	return nil
}

func (m *Model) onFileSearch(msg fileSearchMsg) {
	p := &m.popup
	if msg.seq != m.fileSeq || p.kind != popupFile {
		return
	}
	p.loading = false
	p.items = nil
	p.sel = 0
	for _, f := range msg.files {
		if len(p.items) >= 50 {
			break
		}
		if inGitDir(f.Path) {
			continue // the repository's internals are never what is meant
		}
		p.items = append(p.items, popupItem{label: f.Path, path: f.Path})
	}
}

// inGitDir reports whether path (relative to the search root, "/"
// separated as codex sends it) lies inside a .git directory.
func inGitDir(path string) bool {
	return strings.HasPrefix(path, ".git/") || strings.Contains(path, "/.git/")
}

// popupKey handles the popup's keys: Up/Down (Ctrl+P/N) move, Tab
// completes, Enter runs the command picked by moving onto it or named
// whole (slash.go) — never the first fuzzy match by itself — or inserts
// the file or skill; Esc closes it.
func (m *Model) popupKey(k tea.KeyPressMsg) tea.Cmd {
	p := &m.popup
	km := m.keys
	switch {
	case key.Matches(k, km.ListUp):
		if p.sel > 0 {
			p.sel--
		}
		p.picked = true
		return nil
	case key.Matches(k, km.ListDown):
		if p.sel < len(p.items)-1 {
			p.sel++
		}
		p.picked = true
		return nil
	case key.Matches(k, km.ListClose):
		p.dismissed = m.composer.popupDraft()
		p.kind = popupNone
		return nil
	}
	if p.sel >= len(p.items) {
		return nil
	}
	it := p.items[p.sel]
	switch p.kind {
	case popupSlash:
		if key.Matches(k, km.ListComplete) {
			m.setDraft("/" + it.cmd.name + " ")
			return nil
		}
		if p.picked {
			// Moved onto: the pick is the command, as if named whole.
			m.setDraft("/" + it.cmd.name)
		}
		return m.onEnter() // turn.go → slash.go: the draft's whole name, or nothing
	case popupFile:
		draft := m.composer.Value()
		tok, _ := mentionToken(draft)
		path := it.path
		if strings.ContainsAny(path, " \t") {
			path = `"` + path + `"`
		}
		m.setDraft(strings.TrimSuffix(draft, tok) + path + " ")
		p.dismissed = m.composer.popupDraft()
	case popupSkill:
		m.insertSkill(it) // skills.go
	}
	return nil
}

// popupView draws the popup rows.
func (m *Model) popupView(width int) []string {
	p := m.popup
	if !p.active() {
		return nil
	}
	st := m.styles
	out := []string{st.Dim.Render(strings.Repeat("╌", width))}
	if len(p.items) == 0 {
		msg := "no matching command"
		if p.kind == popupFile {
			switch {
			case p.loading:
				msg = "searching files…"
			case p.source == "@":
				msg = "type to search files"
			default:
				msg = "no matching file"
			}
		}
		if p.kind == popupSkill {
			msg = m.skillPopupEmpty() // skills.go
		}
		for _, l := range ui.Wrap(msg, max(10, width-2)) {
			out = append(out, st.Dim.Render("  "+l))
		}
		return out
	}
	rows, end := ui.ListRows(st, st.Dim, len(p.items), p.sel, maxPopupRows, width, func(i int) (string, string) {
		return p.items[i].label, p.items[i].detail
	})
	out = append(out, rows...)
	if more := len(p.items) - end; more > 0 {
		hint := " · tab completes · ↑/↓ picks · esc closes"
		if p.kind == popupFile || p.kind == popupSkill {
			hint = " · tab or enter inserts · esc closes"
		}
		out = append(out, st.Dim.Render("  ↓ "+itoa(more)+" more"+hint))
	}
	return out
}
