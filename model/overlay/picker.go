package overlay

import (
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"tandem/model/act"
	"tandem/model/keys"
	"tandem/ui"
)

// Pick opens p (act.Pick) above the composer, in place of any other
// picker.
func (o *Overlay) Pick(p act.Pick) {
	items := make([]pickItem, len(p.Items))
	for i, it := range p.Items {
		items[i] = pickItem{label: it.Label, detail: it.Detail, value: it}
	}
	pk := &picker{title: p.Title, hint: p.Hint, empty: p.Empty, query: p.Query, ordered: p.Ordered}
	pk.setItems(items)
	pk.onChoose = func(it pickItem) {
		if c := it.value.(act.PickItem).Choose; c != nil {
			o.out().Want(c)
		}
	}
	if p.Cancel != nil {
		pk.onCancel = func() { o.out().Want(p.Cancel) }
	}
	pk.preview = func(it pickItem) []string { return it.value.(act.PickItem).Preview }
	o.openPicker(pk)
}

// pickItem is one row of a picker: a label, a dim detail and the value
// handed to onChoose.
type pickItem struct {
	label, detail string
	value         any
}

// picker is the list shown in the bottom pane above the composer. Typing
// filters it: locally with fuzzy matching on the labels, or — when
// onQuery is set — by asking the server again. It is a plain struct the
// overlay drives; it owns no goroutine.
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
	onQuery func(q string)
	// onKey handles extra keys (returns handled).
	onKey    func(k tea.KeyPressMsg) bool
	onChoose func(pickItem)
	onCancel func()
	// onMore is called when the selection reaches the last row (next page).
	onMore  func()
	preview func(pickItem) []string
	loading bool
	empty   string // what to say when nothing matches
	// ordered keeps the items' order when filtering (act.Pick.Ordered).
	ordered bool
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
		if p.ordered {
			slices.Sort(p.shown)
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

// key handles one key press; it reports that the picker closed.
func (p *picker) key(k tea.KeyPressMsg, km *keys.Map) (done bool) {
	if p.onKey != nil && p.onKey(k) {
		return false
	}
	switch {
	case key.Matches(k, km.ListClose):
		if p.onCancel != nil {
			p.onCancel()
		}
		return true
	case key.Matches(k, km.ListChoose, km.ListComplete):
		it, ok := p.selected()
		if !ok {
			return false
		}
		if p.onChoose != nil {
			p.onChoose(it)
		}
		return true
	case key.Matches(k, km.ListUp):
		if p.sel > 0 {
			p.sel--
		}
		return false
	case key.Matches(k, km.ListDown):
		if p.sel < len(p.shown)-1 {
			p.sel++
		}
		p.more()
		return false
	case key.Matches(k, km.ListPageDown):
		p.sel = min(len(p.shown)-1, p.sel+maxPickerRows)
		p.more()
		return false
	case key.Matches(k, km.ListPageUp):
		p.sel = max(0, p.sel-maxPickerRows)
		return false
	case key.Matches(k, km.ListErase):
		if p.query == "" {
			return false
		}
		r := []rune(p.query)
		p.query = string(r[:len(r)-1])
		p.queryChanged()
		return false
	}
	if t := k.Text; t != "" && !strings.ContainsAny(t, "\r\n\t") {
		p.query += t
		p.queryChanged()
	}
	return false
}

// more asks for the next page once the selection is on the last row.
func (p *picker) more() {
	if p.sel >= len(p.shown)-1 && p.onMore != nil && !p.loading {
		p.onMore()
	}
}

func (p *picker) queryChanged() {
	p.sel = 0
	if p.onQuery != nil {
		p.onQuery(p.query)
		return
	}
	p.refilter()
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
		} else if msg == "" || len(p.items) > 0 { // the query filtered every item out
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
			s = "  ↓ " + strconv.Itoa(more) + " more"
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
func (o *Overlay) openPicker(p *picker) {
	if p.shown == nil {
		p.refilter()
	}
	o.pick = p
}

// closePicker removes the picker, if p is still the one shown (its
// choice may have opened the next).
func (o *Overlay) closePicker(p *picker) {
	if o.pick == p {
		o.pick = nil
	}
}

// PanelView is the open login form or picker, under a rule, as drawn
// above the composer (nil when neither is open).
func (o *Overlay) PanelView() []string {
	w := o.opts.World.Room().Width
	switch {
	case o.login != nil:
		return append([]string{o.rule(w)}, o.login.view(o.look.Styles, o.keys, w)...)
	case o.pick != nil:
		return append([]string{o.rule(w)}, o.pick.view(o.look.Styles, w)...)
	}
	return nil
}
