package model

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"tandem/model/keys"
	"tandem/ui"
)

// pickItem is one row of a picker: a label, a dim detail and the value
// handed to onChoose.
type pickItem struct {
	label, detail string
	value         any
}

// picker is the list shown in the bottom pane above the composer (the
// /model, /approvals and resume pickers, Ctrl+R history search). Typing
// filters it: locally with fuzzy matching on the labels, or — when
// onQuery is set — by asking the server again. It is a plain struct the
// model drives; it owns no goroutine.
type picker struct {
	title string
	hint  string // key help under the title
	items []pickItem
	// shown are indexes into items that match the query, best first.
	shown []int
	sel   int
	query string
	// onQuery, if set, is called when the query changes instead of
	// filtering locally (the resume picker searches with thread/list).
	onQuery func(q string) tea.Cmd
	// onKey handles extra keys (returns handled).
	onKey    func(k tea.KeyPressMsg) (tea.Cmd, bool)
	onChoose func(pickItem) tea.Cmd
	onCancel func() tea.Cmd
	// onMore is called when the selection reaches the last row (next page).
	onMore  func() tea.Cmd
	preview func(pickItem) []string
	loading bool
	empty   string // what to say when nothing matches
}

// maxPickerRows is how many rows a picker shows at once.
const maxPickerRows = 10

func (p *picker) setItems(items []pickItem) {
	p.items = items
	p.refilter()
}

func (p *picker) refilter() {
	p.shown = p.shown[:0]
	if p.onQuery != nil || p.query == "" {
		for i := range p.items {
			p.shown = append(p.shown, i)
		}
	} else {
		labels := make([]string, len(p.items))
		for i, it := range p.items {
			labels[i] = it.label
		}
		for _, match := range fuzzy.Find(p.query, labels) {
			p.shown = append(p.shown, match.Index)
		}
	}
	if p.sel >= len(p.shown) {
		p.sel = max(0, len(p.shown)-1)
	}
}

func (p *picker) selected() (pickItem, bool) {
	if p.sel < 0 || p.sel >= len(p.shown) {
		return pickItem{}, false
	}
	return p.items[p.shown[p.sel]], true
}

// key handles one key press; done reports that the picker closed.
func (p *picker) key(k tea.KeyPressMsg, km *keys.Map) (cmd tea.Cmd, done bool) {
	if p.onKey != nil {
		if cmd, ok := p.onKey(k); ok {
			return cmd, false
		}
	}
	switch {
	case key.Matches(k, km.ListClose):
		if p.onCancel != nil {
			return p.onCancel(), true
		}
		return nil, true
	case key.Matches(k, km.ListChoose, km.ListComplete):
		it, ok := p.selected()
		if !ok {
			return nil, false
		}
		if p.onChoose != nil {
			return p.onChoose(it), true
		}
		return nil, true
	case key.Matches(k, km.ListUp):
		if p.sel > 0 {
			p.sel--
		}
		return nil, false
	case key.Matches(k, km.ListDown):
		if p.sel < len(p.shown)-1 {
			p.sel++
		}
		if p.sel >= len(p.shown)-1 && p.onMore != nil && !p.loading {
			return p.onMore(), false
		}
		return nil, false
	case key.Matches(k, km.ListPageDown):
		p.sel = min(len(p.shown)-1, p.sel+maxPickerRows)
		if p.sel >= len(p.shown)-1 && p.onMore != nil && !p.loading {
			return p.onMore(), false
		}
		return nil, false
	case key.Matches(k, km.ListPageUp):
		p.sel = max(0, p.sel-maxPickerRows)
		return nil, false
	case key.Matches(k, km.ListErase):
		if p.query == "" {
			return nil, false
		}
		r := []rune(p.query)
		p.query = string(r[:len(r)-1])
		return p.queryChanged(), false
	}
	if t := k.Text; t != "" && !strings.ContainsAny(t, "\r\n\t") {
		p.query += t
		return p.queryChanged(), false
	}
	return nil, false
}

func (p *picker) queryChanged() tea.Cmd {
	p.sel = 0
	if p.onQuery != nil {
		return p.onQuery(p.query)
	}
	p.refilter()
	return nil
}

// view draws the picker in width columns.
func (p *picker) view(st ui.Styles, width int) []string {
	var out []string
	title := st.Accent.Render(p.title)
	if p.query != "" || p.onQuery != nil {
		title += st.Dim.Render("  search: ") + p.query + st.Dim.Render("▏")
	}
	out = append(out, ui.Truncate(title, width))
	if p.hint != "" {
		out = append(out, st.Dim.Render(ui.Truncate(p.hint, width)))
	}
	if len(p.shown) == 0 {
		msg := p.empty
		if p.loading {
			msg = "loading…"
		} else if msg == "" {
			msg = "no matches"
		}
		out = append(out, st.Dim.Render("  "+msg))
		return out
	}
	rows, end := ui.ListRows(st, st.User.UnsetBold(), len(p.shown), p.sel, maxPickerRows, width, func(i int) (string, string) {
		it := p.items[p.shown[i]]
		return it.label, it.detail
	})
	out = append(out, rows...)
	if more := len(p.shown) - end; more > 0 || p.loading {
		s := ""
		if more > 0 {
			s = "  ↓ " + itoa(more) + " more"
		}
		if p.loading {
			s += "  loading…"
		}
		out = append(out, st.Dim.Render(s))
	}
	if p.preview != nil {
		if it, ok := p.selected(); ok {
			if lines := p.preview(it); len(lines) > 0 {
				out = append(out, st.Dim.Render(strings.Repeat("╌", min(width, 40))))
				for _, l := range lines {
					out = append(out, st.Dim.Render(ui.Truncate(ui.SanitizeLine(l), width)))
				}
			}
		}
	}
	return out
}

// openPicker shows p in the bottom pane (replacing any other picker).
func (m *Model) openPicker(p *picker) {
	if p.shown == nil {
		p.refilter()
	}
	m.picker = p
}

// closePicker removes the picker, if p is still the one shown.
func (m *Model) closePicker(p *picker) {
	if m.picker == p {
		m.picker = nil
	}
}
