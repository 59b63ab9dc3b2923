package forms

import (
	"fmt"
	"strings"

	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Fitting an approval into a small terminal. huh sizes a field from its
// text before wrapping it, so a description that wraps pushes the choices
// out of the field's window; and a form taller than the screen loses its
// top or bottom. The description is therefore wrapped here, and with a
// height budget (ApprovalSpec.MaxHeight) the help line, then the diff
// window, then the description give way, so the choices always show.

// helpRows is the blank line and the key help under a form.
const helpRows = 2

// descSection is one part of an approval's description.
type descSection struct {
	lines []string
	prio  int // lower keeps its lines first when space is short
}

// approvalLayout is what fits: the description lines, whether the help
// line shows, the diff window's height, and how many choices show at once
// (fewer than all only in a terminal too short for them: they scroll).
// whole says nothing asked about was cut: the whole description, a diff
// window (when there is a diff) and at least the highlighted choice. With
// scroll (full screen, too short for it all) the description heads the
// window instead (scrollDesc lines of it) and desc is empty.
type approvalLayout struct {
	desc       []string
	showHelp   bool
	diffH      int
	choiceRows int
	whole      bool
	cutLabel   bool // a choice's label was cut to fit (not whole)
	scroll     bool
	window     []string // the window's lines when scroll (description, then diff)
	scrollDesc int
}

// fitApproval lays spec out at width within spec.MaxHeight rows; its
// diff takes diffRows rows at width (long lines broken). full asks for
// the full-screen layout: what does not fit scrolls in the window rather
// than being cut.
func fitApproval(spec ApprovalSpec, diffRows, width, diffH int, full bool) approvalLayout {
	w := max(8, width-3) // the field's border and padding
	wrap := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			out = append(out, strings.Split(ansi.Wrap(l, w, ""), "\n")...)
		}
		return out
	}
	// Shown in this order; when space is short the command keeps its
	// lines first, then the body, the cwd and the reason.
	var secs []descSection
	if spec.Reason != "" {
		secs = append(secs, descSection{wrap("Reason: " + spec.Reason), 3})
	}
	if spec.Command != "" {
		secs = append(secs, descSection{wrap("$ " + spec.Command), 0})
	}
	if spec.Cwd != "" {
		secs = append(secs, descSection{wrap("in " + spec.Cwd), 2})
	}
	if spec.Body != "" {
		secs = append(secs, descSection{wrap(spec.Body), 1})
	}
	lay := approvalLayout{showHelp: true, diffH: diffH, choiceRows: len(spec.Choices)}
	total := 0
	for _, s := range secs {
		total += len(s.lines)
	}
	// What is asked about is never hidden: the command's first line (or
	// the first line of whatever is described) stays even when the
	// choices must scroll for it.
	minDesc := min(1, total)
	diffShown := func() int {
		if len(spec.Diff) == 0 || lay.diffH == 0 {
			return 0
		}
		return min(diffRows, lay.diffH) + 1 // + the position line
	}
	fixed := func() int {
		h := 1 + lay.choiceRows + diffShown()
		if lay.showHelp {
			h += helpRows
		}
		return h
	}
	if b := spec.MaxHeight; b > 0 {
		if fixed()+total > b {
			lay.showHelp = false
		}
		for fixed()+total > b && lay.diffH > 1 && diffRows > 1 {
			lay.diffH--
		}
		if fixed()+minDesc > b && len(spec.Diff) > 0 {
			lay.diffH = 0 // the diff is in the transcript too (ctrl+t)
		}
		for fixed()+minDesc > b && lay.choiceRows > 1 {
			lay.choiceRows--
		}
		room := b - fixed()
		lay.whole = total <= room && (len(spec.Diff) == 0 || lay.diffH > 0)
		if !lay.whole && full {
			return scrollApproval(spec, secs, b)
		}
		if total > room {
			secs = capSections(secs, max(minDesc, room), w, spec.MoreHint)
		}
	} else {
		lay.whole = true
	}
	for _, s := range secs {
		lay.desc = append(lay.desc, s.lines...)
	}
	return lay
}

// scrollApproval is the full-screen layout of an approval too long for b
// rows: the title, then one window over the description and the diff,
// its position line, and as many choices as leave the window a few rows
// (at least the highlighted one). It is whole once the window has shown
// the description's last line (Approval.Whole).
func scrollApproval(spec ApprovalSpec, secs []descSection, b int) approvalLayout {
	lay := approvalLayout{scroll: true}
	for _, s := range secs {
		lay.window = append(lay.window, s.lines...)
	}
	lay.scrollDesc = len(lay.window)
	lay.window = append(lay.window, spec.Diff...)
	const fixed = 2 // the title and the window's position line
	lay.choiceRows = min(len(spec.Choices), max(1, b-fixed-min(len(lay.window), 3)))
	lay.diffH = b - fixed - lay.choiceRows
	if lay.diffH < 1 {
		lay.diffH = 0 // not even one row: never whole
	}
	return lay
}

// capSections cuts secs to room lines in all, giving lines by priority; a
// cut section's last line ends in a "…+N" note (N lines hidden) and hint.
func capSections(secs []descSection, room, w int, hint string) []descSection {
	keep := make([]int, len(secs))
	for p := 0; p <= 3; p++ {
		for i, s := range secs {
			if s.prio == p {
				keep[i] = min(len(s.lines), room)
				room -= keep[i]
			}
		}
	}
	out := make([]descSection, 0, len(secs))
	for i, s := range secs {
		k := keep[i]
		if k == 0 {
			continue
		}
		lines := append([]string(nil), s.lines[:k]...)
		if n := len(s.lines) - k; n > 0 {
			note := fmt.Sprintf(" …+%d", n)
			if withHint := note + " · " + hint; hint != "" && ansi.StringWidth(withHint)+8 <= w {
				note = withHint // room for it and some of the line
			}
			lines[k-1] = ansi.Truncate(lines[k-1], max(1, w-ansi.StringWidth(note)), "") + note
		}
		out = append(out, descSection{lines, s.prio})
	}
	return out
}

// Sizing selects. Left alone, huh sizes a multi-select's option window
// as its option count less its title and description rows, so the last
// options hide without a hint (and a form's group keeps the height it had
// before its width and theme were known). choiceFit sets every select's
// height from its own rows instead: the title and description as huh
// wraps them, plus one row per option (labels are cut to one line). With
// a row budget, options beyond it scroll and the description says so.

// choiceFit is a select or multi-select laid out by tandem. A select
// is over the options' indexes (choices.go); acc sets its answer.
type choiceFit struct {
	title, desc string
	opts        []huh.Option[string] // labels and values as given
	sel         *huh.Select[int]
	acc         *indexAccessor
	ms          *huh.MultiSelect[string]
	shown       []string // the labels last set on the field
}

// selectFit is a single choice among opts whose answer (an option's
// value) goes to target; register it with the form (base.addChoices).
func selectFit(title, desc string, opts []huh.Option[string], target *string) *choiceFit {
	values := make([]string, len(opts))
	for i, o := range opts {
		values[i] = o.Value
	}
	acc := newIndexAccessor(values, target)
	return &choiceFit{title: title, desc: desc, opts: opts, sel: huh.NewSelect[int]().Accessor(acc), acc: acc}
}

// addChoices registers the single choices among cs as the form's lists.
func (b *base) addChoices(cs ...*choiceFit) {
	for _, c := range cs {
		if c != nil && c.sel != nil {
			b.addList(c.sel, len(c.opts), c.acc)
		}
	}
}

// huhRows counts the rows s takes in a field of the given width, wrapped
// the way huh wraps titles and descriptions.
func huhRows(s string, width int) int {
	if s == "" {
		return 0
	}
	return lipgloss.Height(lipgloss.Wrap(s, max(1, width-2), ",.-; "))
}

// fit lays the field out at width; budget (> 0) caps the rows the field
// may take, less extra rows other fields of its group need. It reports
// whether it had to cut what the field asks: its question to one row
// (tight) or an option's label to the width. The form is not whole then.
func (c *choiceFit) fit(width, budget int) (cut bool) {
	labels := make([]string, len(c.opts))
	opts := make([]huh.Option[string], len(c.opts))
	picks := make([]huh.Option[int], len(c.opts))
	for i, o := range c.opts {
		labels[i] = ansi.Truncate(o.Key, max(10, width-8), "…")
		cut = cut || labels[i] != o.Key
		opts[i] = huh.NewOption(labels[i], o.Value)
		picks[i] = huh.NewOption(labels[i], i)
	}
	n := len(opts)
	title, desc := c.title, c.desc
	rows := func() int { return huhRows(title, width) + huhRows(desc, width) }
	visible := n
	if tight := budget > 0 && rows()+1 > budget; tight {
		cut = true
		// Too short for it all: the question keeps one row, the
		// description and the hint go, the highlighted option stays.
		title, desc = ansi.Truncate(strings.Join(strings.Fields(title), " "), max(10, width-3), "…"), ""
		visible = min(n, max(1, budget-rows()))
	} else if budget > 0 && rows()+n > budget {
		hint := fmt.Sprintf("(%d options, ↑/↓ to see all)", n)
		if desc != "" {
			desc += "\n"
		}
		desc += hint
		visible = min(n, max(1, budget-rows()))
	}
	h := rows() + max(1, visible)
	changed := strings.Join(labels, "\x00") != strings.Join(c.shown, "\x00")
	c.shown = labels
	switch {
	case c.sel != nil:
		c.sel.Title(title).Description(desc)
		if changed {
			c.sel.Options(picks...) // keeps the bound value highlighted
		}
		c.sel.Height(h)
	case c.ms != nil:
		c.ms.Title(title).Description(desc)
		if changed {
			c.ms.Options(opts...) // keeps the bound selection
		}
		c.ms.Height(h)
	}
	return cut
}

// fitGroup sizes g's window to its fields as they now draw, so no field
// is cut and no blank rows pad it.
func fitGroup(g *huh.Group) {
	h := lipgloss.Height(g.Content())
	if f := g.Footer(); f != "" { // as huh counts it: no footer, no row
		h += lipgloss.Height(f)
	}
	g.WithHeight(h)
}
