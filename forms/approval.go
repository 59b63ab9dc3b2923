package forms

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"
)

// Choice is one answer offered by an approval: Label is what the user
// reads, Value what choosing it means to the caller (a typed decision,
// handed back as it was by Approval.Choice). Grants marks a choice that
// lets the agent act (a yes): with a diff it answers only once every line
// of the diff has been on screen; a refusal always answers.
type Choice struct {
	Label  string
	Value  any
	Grants bool
}

// ApprovalSpec describes an approval request to show. Title is the
// question ("Run this command?"); Body lines (command, files, diff) are
// shown verbatim under it; Reason and Cwd are optional.
type ApprovalSpec struct {
	Title   string
	Reason  string
	Command string
	Cwd     string
	Body    string
	Choices []Choice
	// Diff, when set, is shown above the choices in a scrollable window of
	// DiffHeight lines (0 = 12): pre-rendered lines, one per row.
	Diff       []string
	DiffHeight int
	// MaxHeight, when > 0, is the most rows the form may take, diff
	// included: the help line, then the diff window, then the description
	// give way so the choices stay visible (fit.go).
	MaxHeight int
	// MoreHint follows the "…+N" note of a description cut to fit, and
	// says where the whole of it shows ("ctrl+t shows all").
	MoreHint string
}

// Approval is an inline approval form; Choice returns the selected
// choice's Value once Done.
type Approval struct {
	base
	choice int
	diff   diffView
	spec   ApprovalSpec
	sel    *huh.Select[int]
	group  *huh.Group
	// lay is the last layout (fit.go); full asks for the full-screen one
	// (SetFull); width is the last width laid out for; note says why the
	// last Enter did not answer (a yes before the diff was read).
	lay   approvalLayout
	full  bool
	width int
	note  string
}

// NewApproval builds the approval form for spec at width.
func NewApproval(spec ApprovalSpec, look Look, width int) *Approval {
	a := &Approval{spec: spec, diff: diffView{src: spec.Diff}, width: width}
	a.diff.keys = look.Keys
	if look.Theme != nil {
		// Theme's themes ignore huh's dark guess; true is any value.
		a.diff.info = look.Theme.Theme(true).Focused.Description
	}
	acc := huh.NewPointerAccessor(&a.choice)
	a.sel = huh.NewSelect[int]().Accessor(acc)
	a.addList(a.sel, len(spec.Choices), acc)
	a.group = huh.NewGroup(a.sel)
	a.form = a.newForm(look, width, a.group)
	a.form = a.form.WithShowHelp(a.layout(width))
	return a
}

// layout fits the title, description, choices and diff window to width
// (fit.go) and reports whether the help line fits too. Labels are cut to
// one line each: a wrapped label pushes later choices out of the
// select's viewport. The highlighted choice stays (Select.Options keeps
// the bound value).
func (a *Approval) layout(width int) (showHelp bool) {
	diffH := a.spec.DiffHeight
	if diffH <= 0 {
		diffH = 12
	}
	if sameLines(a.diff.src, a.spec.Diff) {
		a.diff.wrap(width) // the diff's rows at this width, for the layout to count
	}
	a.lay = fitApproval(a.spec, a.diffRows(width), width, diffH, a.full)
	lines := a.spec.Diff
	if a.lay.scroll {
		lines = a.lay.window
	}
	if !sameLines(a.diff.src, lines) {
		a.diff = diffView{src: lines, info: a.diff.info, keys: a.diff.keys} // another window: read from its top
	}
	a.diff.fit(width, a.lay.diffH)
	a.diff.readOn = a.lay.scroll && a.lay.scrollDesc > 0
	opts := make([]huh.Option[int], 0, len(a.spec.Choices))
	for i, c := range a.spec.Choices {
		label := ansi.Truncate(c.Label, max(10, width-8), "…")
		if label != c.Label {
			// A choice cut to fit can't be told from another ("don't ask
			// again this session" / "… for commands starting with"): the
			// form is not whole at this width.
			a.lay.whole, a.lay.cutLabel = false, true
		}
		opts = append(opts, huh.NewOption(label, i))
	}
	a.sel.Title(ansi.Truncate(a.spec.Title, max(10, width-3), "…")). // one row, as huh counts it
										Description(strings.Join(a.lay.desc, "\n")).
										Options(opts...).
										Height(1 + len(a.lay.desc) + a.lay.choiceRows) // fewer rows than choices: they scroll
	a.form = a.form.WithShowHelp(a.lay.showHelp) // before the group measures its footer
	fitGroup(a.group)                            // fit.go: the group's window follows the field
	return a.lay.showHelp
}

// diffRows is how many rows the diff takes at width, its long lines
// broken (wrapRows).
func (a *Approval) diffRows(width int) int {
	if sameLines(a.diff.src, a.spec.Diff) && a.diff.width == max(10, width) {
		return len(a.diff.lines)
	}
	rows, _ := wrapRows(a.spec.Diff, max(10, width), a.diff.info)
	return len(rows)
}

// sameLines reports whether a and b are the same slice of lines (the
// spec's diff, or one layout's window).
func sameLines(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// Resize re-fits the form to a new width and row budget (0 = unlimited):
// labels cut at the old width are laid out again from the spec. Whether
// it is then whole, Whole says.
func (a *Approval) Resize(w, maxHeight int) {
	a.spec.MaxHeight = maxHeight
	a.width = w
	// The group measures its fields at the form's width: set it before
	// the layout, or a narrower past leaves blank rows (#27).
	a.form = a.form.WithWidth(w)
	showHelp := a.layout(w)
	a.form = a.form.WithShowHelp(showHelp)
	a.base.Resize(w, maxHeight)
}

// SetFull implements Form: full screen, a request too long for its rows
// scrolls in the window (description first, then the diff) instead of
// being cut; it is laid out again at once.
func (a *Approval) SetFull(full bool) {
	if a.full == full {
		return
	}
	a.full = full
	a.Resize(a.width, a.spec.MaxHeight)
}

// Scroll scrolls the window (the diff, or full screen the whole request)
// when k is one of its keys (shift+↑/↓ a line, ctrl+u/d half a window),
// and reports whether it was; a note on why a yes waited goes.
func (a *Approval) Scroll(k tea.KeyPressMsg) bool {
	if a.settled || !a.diff.scroll(k) {
		return false
	}
	a.note = "" // "read all of it first: N more lines" is out of date
	return true
}

// ReadsOn reports whether the approval, full screen, waits for its text
// to be read to the end (shift+↓, ctrl+d) before it is whole.
func (a *Approval) ReadsOn() bool { return a.lay.scroll && a.diff.seenSrc() < a.lay.scrollDesc }

// Whole implements Form: inline, the whole description and the
// highlighted choice show (a diff may scroll); full screen with a window
// over the description, its last line has been shown.
func (a *Approval) Whole() bool {
	if a.lay.scroll {
		return a.lay.diffH > 0 && a.diff.seenSrc() >= a.lay.scrollDesc && !a.lay.cutLabel
	}
	return a.lay.whole
}

// Unread is how many lines of the window (the diff, or full screen the
// whole request) have not been on screen yet: a choice that grants
// answers only once it is 0.
func (a *Approval) Unread() int {
	if a.diff.height <= 0 {
		return len(a.diff.lines)
	}
	return len(a.diff.lines) - a.diff.seen
}

// Detail is the whole description, never cut: the reason, the command,
// its directory and the body, one per line (for a pager).
func (a *Approval) Detail() []string {
	var out []string
	for _, s := range []string{prefixed("Reason: ", a.spec.Reason), prefixed("$ ", a.spec.Command), prefixed("in ", a.spec.Cwd), a.spec.Body} {
		if s != "" {
			out = append(out, strings.Split(s, "\n")...)
		}
	}
	return out
}

func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}

// Choice returns the selected choice's Value; ok is false when the form
// was aborted (Esc) or is not done.
func (a *Approval) Choice() (value any, ok bool) {
	if !a.Done() || a.Aborted() || a.choice < 0 || a.choice >= len(a.spec.Choices) {
		return nil, false
	}
	return a.spec.Choices[a.choice].Value, true
}
