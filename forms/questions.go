package forms

import (
	"strings"

	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
)

// Option is one choice of a Question.
type Option struct {
	Label       string
	Value       string
	Description string
}

// Question is one field of a questions form: a select when Options is set
// (multiselect when Multiple), otherwise a text input. Secret masks text
// input; Other adds a free-text "Other" answer to a select.
type Question struct {
	ID          string
	Header      string
	Question    string
	Placeholder string
	Required    bool
	Multiple    bool
	Secret      bool
	Other       bool
	Options     []Option
}

// QuestionsSpec describes the agent's questions.
type QuestionsSpec struct {
	Title       string
	Description string
	Questions   []Question
	// MaxHeight, when > 0, is the most rows the form may take: a select
	// with more options than fit scrolls them and says so (fit.go).
	MaxHeight int
}

// otherValue marks the "Other" option of a select.
const otherValue = "\x00other"

// Questions is an inline questions form. Answers holds, once Done and not
// Aborted, each question's answers keyed by question id.
type Questions struct {
	base
	spec   QuestionsSpec
	single map[string]*string
	multi  map[string]*[]string
	other  map[string]*string
	groups []questionGroup
}

// questionGroup is one question's group and, for a select, its layout.
type questionGroup struct {
	group  *huh.Group
	choice *choiceFit // nil for a text question
	other  huh.Field  // the "Other" input, if any
}

// NewQuestions builds the form: one group per question so long lists page.
func NewQuestions(spec QuestionsSpec, look Look, width int) *Questions {
	q := &Questions{spec: spec, single: map[string]*string{}, multi: map[string]*[]string{}, other: map[string]*string{}}
	var groups []*huh.Group
	var qgs []questionGroup
	for i, qu := range spec.Questions {
		title := qu.Question
		if qu.Header != "" {
			title = qu.Header + ": " + qu.Question
		}
		desc := ""
		if i == 0 {
			desc = spec.Description
			if spec.Title != "" {
				title = spec.Title + "\n" + title
			}
		}
		var fields []huh.Field
		var choice *choiceFit
		switch {
		case len(qu.Options) > 0 && qu.Multiple:
			v := new([]string)
			q.multi[qu.ID] = v
			ms := huh.NewMultiSelect[string]().Value(v)
			if qu.Required {
				ms = ms.Validate(func(s []string) error {
					if len(s) == 0 {
						return errRequired
					}
					return nil
				})
			}
			choice = &choiceFit{title: title, desc: desc, opts: options(qu), ms: ms}
			fields = append(fields, ms)
		case len(qu.Options) > 0:
			v := new(string)
			q.single[qu.ID] = v
			choice = selectFit(title, desc, options(qu), v)
			fields = append(fields, choice.sel)
		default:
			v := new(string)
			q.single[qu.ID] = v
			in := huh.NewInput().Title(title).Description(desc).Placeholder(qu.Placeholder).Value(v)
			if qu.Secret {
				in = in.EchoMode(huh.EchoModePassword)
			}
			if qu.Required {
				in = in.Validate(huh.ValidateNotEmpty())
			}
			fields = append(fields, in)
		}
		var other huh.Field
		if qu.Other && len(qu.Options) > 0 {
			v := new(string)
			q.other[qu.ID] = v
			id := qu.ID
			other = huh.NewInput().Title("Other (used when \"Other\" is chosen)").Value(v).
				Validate(func(s string) error {
					if q.chose(id, otherValue) && s == "" {
						return errRequired
					}
					return nil
				})
			fields = append(fields, other)
		}
		if choice != nil {
			choice.fit(width, 0) // sized before the group measures it
		}
		g := huh.NewGroup(fields...)
		groups = append(groups, g)
		qgs = append(qgs, questionGroup{group: g, choice: choice, other: other})
	}
	q.groups = qgs
	q.form = q.newForm(look, width, groups...)
	for _, g := range qgs {
		q.addChoices(g.choice)
	}
	q.layout(width)
	return q
}

// layout sizes each select to its title, description and options at
// width, within spec.MaxHeight when set, and each group to its fields.
func (q *Questions) layout(width int) {
	// In a very short terminal the help line gives way first, so the
	// question and the highlighted option keep their rows.
	showHelp := q.spec.MaxHeight <= 0 || q.spec.MaxHeight >= helpRows+4
	q.layoutWith(width, showHelp)
	if showHelp && q.spec.MaxHeight > 0 && lipgloss.Height(strings.TrimRight(q.form.View(), "\n ")) > q.spec.MaxHeight {
		q.layoutWith(width, false) // the help line did not fit after all
	}
}

func (q *Questions) layoutWith(width int, showHelp bool) {
	q.form = q.form.WithShowHelp(showHelp)
	help := 0
	if showHelp {
		help = helpRows
	}
	q.cut = false
	for _, g := range q.groups {
		if g.choice != nil {
			budget := 0
			if q.spec.MaxHeight > 0 {
				budget = max(1, q.spec.MaxHeight-help)
				if g.other != nil {
					budget -= lipgloss.Height(g.other.View()) + 1 // + the gap
				}
			}
			if g.choice.fit(width, budget) {
				q.cut = true // the question cut to one row
			}
		}
		fitGroup(g.group)
	}
}

// Resize lays the questions out again at w within maxHeight rows (0 =
// unlimited).
func (q *Questions) Resize(w, maxHeight int) {
	q.spec.MaxHeight = maxHeight
	q.form = q.form.WithWidth(w)
	q.layout(w)
	q.base.Resize(w, maxHeight)
}

type requiredErr struct{}

func (requiredErr) Error() string { return "an answer is required" }

var errRequired error = requiredErr{}

func options(qu Question) []huh.Option[string] {
	opts := make([]huh.Option[string], 0, len(qu.Options)+1)
	for _, o := range qu.Options {
		label := o.Label
		if o.Description != "" {
			label += " — " + o.Description
		}
		v := o.Value
		if v == "" {
			v = o.Label
		}
		opts = append(opts, huh.NewOption(label, v))
	}
	if qu.Other {
		opts = append(opts, huh.NewOption("Other…", otherValue))
	}
	return opts
}

func (q *Questions) chose(id, v string) bool {
	if p, ok := q.single[id]; ok && *p == v {
		return true
	}
	if p, ok := q.multi[id]; ok {
		for _, s := range *p {
			if s == v {
				return true
			}
		}
	}
	return false
}

// Answers returns each question's answers keyed by question id: one
// element for a select or text, any number for a multiselect. "Other" is
// replaced by the text typed for it. It is nil unless the form completed.
func (q *Questions) Answers() map[string][]string {
	if !q.Done() || q.Aborted() {
		return nil
	}
	out := map[string][]string{}
	for _, qu := range q.spec.Questions {
		var vals []string
		if p, ok := q.single[qu.ID]; ok {
			if *p != "" {
				vals = []string{*p}
			}
		}
		if p, ok := q.multi[qu.ID]; ok {
			vals = append(vals, *p...)
		}
		for i, v := range vals {
			if v == otherValue {
				vals[i] = *q.other[qu.ID]
			}
		}
		if vals == nil {
			vals = []string{}
		}
		out[qu.ID] = vals
	}
	return out
}
