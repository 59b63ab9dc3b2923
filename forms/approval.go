package forms

import (
	"strings"

	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"
)

// Choice is one answer offered by an approval: Key is what the model maps
// back to a protocol decision (e.g. "accept", "acceptForSession",
// "decline", "cancel"), Label what the user reads.
type Choice struct {
	Key   string
	Label string
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
}

// Approval is an inline approval form; Choice holds the selected Key once
// Done (empty when aborted).
type Approval struct {
	base
	choice string
	diff   diffView
}

// NewApproval builds the approval form for spec at width.
func NewApproval(spec ApprovalSpec, theme huh.Theme, width int) *Approval {
	a := &Approval{diff: diffView{lines: spec.Diff, height: spec.DiffHeight, width: width}}
	if a.diff.height <= 0 {
		a.diff.height = 12
	}
	lay := fitApproval(spec, width, a.diff.height) // fit.go
	a.diff.height = lay.diffH
	desc := lay.desc
	title := ansi.Truncate(spec.Title, max(10, width-3), "…") // one row, as huh counts it
	opts := make([]huh.Option[string], 0, len(spec.Choices))
	for _, c := range spec.Choices {
		// One line per choice: a wrapped label pushes later choices out of
		// the select's viewport.
		opts = append(opts, huh.NewOption(ansi.Truncate(c.Label, max(10, width-8), "…"), c.Key))
	}
	sel := huh.NewSelect[string]().
		Title(title).
		Description(strings.Join(desc, "\n")).
		Options(opts...).
		Value(&a.choice)
	a.form = newForm(theme, width, huh.NewGroup(sel))
	if !lay.showHelp {
		a.form = a.form.WithShowHelp(false)
	}
	return a
}

// Choice returns the selected choice key, or "" if the form was aborted or
// is not done.
func (a *Approval) Choice() string {
	if !a.Done() || a.Aborted() {
		return ""
	}
	return a.choice
}
