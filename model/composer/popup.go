package composer

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"tandem/model/act"
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
// commands matching "/xyz" (Options.Commands), the files matching the
// "@xyz" being typed (act.SearchFiles), or the skills matching "$xyz"
// (skills.go). It is derived from the draft by refreshPopup.
type popup struct {
	kind int
	// source is the draft (slash) or the @ or $ token the items match.
	source string
	items  []popupItem
	sel    int
	// picked: the selection was moved (↑/↓, Ctrl+P/N) since the popup
	// last followed the draft, so Enter runs the highlighted command;
	// otherwise only a whole name typed runs.
	picked bool
	// dismissed is the draft on which Esc closed the popup.
	dismissed string
	loading   bool
}

type popupItem struct {
	label, detail string
	name          string // slash: the command's name
	path          string // file; a skill's SKILL.md
}

// maxPopupRows is how many popup rows are shown.
const maxPopupRows = 8

func (p popup) active() bool { return p.kind != popupNone }

// Filter returns the items whose name matches query fuzzily, best first;
// an empty query keeps them all, in their order.
func Filter[T any](items []T, query string, name func(T) string) []T {
	if query == "" {
		return items
	}
	names := make([]string, len(items))
	for i, it := range items {
		names[i] = name(it)
	}
	var out []T
	for _, match := range fuzzy.Find(query, names) {
		out = append(out, items[match.Index])
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

// refreshPopup recomputes the popup from the draft, and asks for the
// files of an @ query that changed (act.SearchFiles).
func (c *Composer) refreshPopup() {
	draft := c.popupDraft()
	p := &c.popup
	if p.dismissed != "" && p.dismissed == draft {
		return
	}
	p.dismissed = ""
	if strings.HasPrefix(draft, "/") && !strings.ContainsAny(draft, " \t\n") {
		if p.kind == popupSlash && p.source == draft {
			return
		}
		cmds := Filter(c.opts.Commands, draft[1:], func(x Command) string { return x.Name })
		items := make([]popupItem, 0, len(cmds))
		for _, x := range cmds {
			items = append(items, popupItem{label: "/" + x.Name, detail: x.About, name: x.Name})
		}
		*p = popup{kind: popupSlash, source: draft, items: items}
		return
	}
	if tok, ok := skillToken(draft); ok {
		c.skillPopup(tok) // skills.go
		return
	}
	if tok, ok := mentionToken(draft); ok {
		if p.kind == popupFile && p.source == tok {
			return
		}
		items := p.items
		if p.kind != popupFile {
			items = nil
		}
		*p = popup{kind: popupFile, source: tok, items: items}
		query := tok[1:]
		f := c.facts()
		// The thread's workspace as the server knows it (a remote path
		// under --ssh), else the local one.
		root := f.ThreadCwd
		if root == "" {
			root = c.opts.Workspace
		}
		if query == "" || !f.Online || root == "" {
			p.items = nil
			return
		}
		p.loading = true
		c.fileSeq++
		c.out().Call(act.ToComposer, act.SearchFiles{Seq: c.fileSeq, Query: query, Roots: []string{root}})
		return
	}
	*p = popup{}
}

// onFilesFound lists the files of the newest @ search.
func (c *Composer) onFilesFound(msg act.FilesFound) {
	p := &c.popup
	if msg.Seq != c.fileSeq || p.kind != popupFile {
		return
	}
	p.loading = false
	p.items = nil
	p.sel = 0
	for _, f := range msg.Files {
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
// completes (a command's whole name, while a turn runs, it queues as
// any draft: act.Queue), Enter submits the command picked by moving onto it or the
// draft as it is (the root runs a command named whole, never the first
// fuzzy match by itself), or inserts the file or skill; Esc closes it.
func (c *Composer) popupKey(k tea.KeyPressMsg) {
	p := &c.popup
	km := c.keys
	switch {
	case key.Matches(k, km.ListUp):
		if p.sel > 0 {
			p.sel--
		}
		p.picked = true
		return
	case key.Matches(k, km.ListDown):
		if p.sel < len(p.items)-1 {
			p.sel++
		}
		p.picked = true
		return
	case key.Matches(k, km.ListClose):
		p.dismissed = c.popupDraft()
		p.kind = popupNone
		return
	}
	if p.sel >= len(p.items) {
		return
	}
	it := p.items[p.sel]
	switch p.kind {
	case popupSlash:
		if key.Matches(k, km.ListComplete) {
			if draft := c.Value(); c.facts().Busy && key.Matches(k, km.Queue) && c.isCommand(draft) {
				// A whole name has nothing to complete: the Tab queues
				// it, as it does any draft while a turn runs.
				c.out().Want(act.Queue{Raw: draft})
				return
			}
			c.SetDraft("/" + it.name + " ")
			return
		}
		if p.picked {
			// Moved onto: the pick is the command, as if named whole.
			c.SetDraft("/" + it.name)
		}
		c.out().Want(c.Submission()) // the draft's whole name, or nothing
	case popupFile:
		draft := c.Value()
		tok, _ := mentionToken(draft)
		path := it.path
		if strings.ContainsAny(path, " \t") {
			path = `"` + path + `"`
		}
		c.SetDraft(strings.TrimSuffix(draft, tok) + path + " ")
		p.dismissed = c.popupDraft()
	case popupSkill:
		c.insertSkill(it) // skills.go
	}
}

// isCommand reports whether draft is "/" and a command's whole name.
func (c *Composer) isCommand(draft string) bool {
	for _, x := range c.opts.Commands {
		if draft == "/"+x.Name {
			return true
		}
	}
	return false
}

// ClosePopup closes the popup (a command's question took its place).
func (c *Composer) ClosePopup() { c.popup = popup{} }

// ReopenPopup shows the popup for the draft again, also after an Esc
// closed it (a refused command names its matches: Tab completes).
func (c *Composer) ReopenPopup() {
	c.popup.dismissed = ""
	c.refreshPopup()
}

// Popup returns what the popup lists (the labels: "/model", a file's
// path, "$deploy") and the index highlighted; open is false when no
// popup is shown.
func (c *Composer) Popup() (labels []string, sel int, open bool) {
	p := c.popup
	if !p.active() {
		return nil, 0, false
	}
	labels = make([]string, len(p.items))
	for i, it := range p.items {
		labels[i] = it.label
	}
	return labels, p.sel, true
}

// PopupView draws the popup's rows at width (none when it is closed).
func (c *Composer) PopupView(st ui.Styles, width int) []string {
	p := c.popup
	if !p.active() {
		return nil
	}
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
			msg = c.skillPopupEmpty() // skills.go
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
		out = append(out, st.Dim.Render("  ↓ "+strconv.Itoa(more)+" more"+hint))
	}
	return out
}
