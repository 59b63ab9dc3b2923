package forms

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
)

// Field kinds of an ElicitField, matching the MCP elicitation schema's
// primitive types.
const (
	FieldString    = "string"
	FieldNumber    = "number"
	FieldInteger   = "integer"
	FieldBoolean   = "boolean"
	FieldEnum      = "enum"
	FieldMultiEnum = "multiEnum"
)

// Elicitation actions (Elicitation.Action).
const (
	ActionAccept  = "accept"
	ActionDecline = "decline"
	ActionCancel  = "cancel"
)

// ElicitField is one property of an MCP elicitation form. Default is a
// string, float64, bool or []string by Kind (nil = none). Format is the
// string format ("email", "uri", "date", "date-time").
type ElicitField struct {
	Name        string
	Title       string
	Description string
	Kind        string
	Required    bool
	Default     any
	Options     []Option
	Format      string
	MinLength   *int
	MaxLength   *int
	Minimum     *float64
	Maximum     *float64
	MinItems    *int
	MaxItems    *int
}

// ElicitationSpec describes an `mcpServer/elicitation/request`. With URL
// set it is URL mode (the user is asked to open it); otherwise Fields is
// the form. Message is the server's text.
type ElicitationSpec struct {
	Server  string
	Message string
	URL     string
	Fields  []ElicitField
}

// Elicitation is the inline elicitation form: first accept / decline /
// cancel, then (on accept, form mode) the fields.
type Elicitation struct {
	base
	spec   ElicitationSpec
	action string
	text   map[string]*string
	bools  map[string]*bool
	multi  map[string]*[]string
	width  int
	// choices are the enum fields, laid out by fit.go; groups are sized
	// to their fields.
	choices []*choiceFit
	groups  []*huh.Group
}

// NewElicitation builds the form for spec at width.
func NewElicitation(spec ElicitationSpec, look Look, width int) *Elicitation {
	e := &Elicitation{spec: spec, action: ActionAccept, text: map[string]*string{}, bools: map[string]*bool{}, multi: map[string]*[]string{}, width: width}
	title := "Answer it?"
	desc := ""
	acceptLabel := "Fill in the form and send it"
	switch {
	case spec.URL != "":
		title, desc = "Open this link?", spec.URL
		acceptLabel = "I opened the link — continue"
	case len(spec.Fields) == 0:
		acceptLabel = "Accept"
	}
	act := selectFit(title, desc, []huh.Option[string]{
		huh.NewOption(acceptLabel, ActionAccept),
		huh.NewOption("Decline", ActionDecline),
		huh.NewOption("Cancel", ActionCancel),
	}, &e.action)
	e.choices = append(e.choices, act)
	e.choices[0].fit(width, 0)
	groups := []*huh.Group{huh.NewGroup(act.sel)}
	if spec.URL == "" && len(spec.Fields) > 0 {
		var fields []huh.Field
		for _, f := range spec.Fields {
			if fld := e.field(f); fld != nil {
				fields = append(fields, fld)
			}
		}
		if len(fields) > 0 {
			groups = append(groups, huh.NewGroup(fields...).WithHideFunc(func() bool { return e.action != ActionAccept }))
		}
	}
	e.groups = groups
	e.form = e.newForm(look, width, groups...)
	e.addChoices(e.choices...)
	e.layout(width)
	return e
}

// layout sizes the enum fields to their options at width (fit.go) and
// each group to its fields.
func (e *Elicitation) layout(width int) {
	e.cut = false
	for _, c := range e.choices {
		if c.fit(width, 0) {
			e.cut = true // an option cut to the width
		}
	}
	for _, g := range e.groups {
		fitGroup(g)
	}
}

func fieldTitle(f ElicitField) string {
	t := f.Title
	if t == "" {
		t = f.Name
	}
	if f.Required {
		t += " *"
	}
	return t
}

func (e *Elicitation) field(f ElicitField) huh.Field {
	title := fieldTitle(f)
	switch f.Kind {
	case FieldBoolean:
		v := new(bool)
		if d, ok := f.Default.(bool); ok {
			*v = d
		}
		e.bools[f.Name] = v
		return huh.NewConfirm().Title(title).Description(f.Description).Affirmative("Yes").Negative("No").Value(v)
	case FieldEnum:
		v := new(string)
		if d, ok := f.Default.(string); ok {
			*v = d
		}
		e.text[f.Name] = v
		var opts []huh.Option[string]
		if !f.Required {
			opts = append(opts, huh.NewOption("(none)", ""))
		}
		for _, o := range f.Options {
			opts = append(opts, huh.NewOption(optLabel(o), optValue(o)))
		}
		c := selectFit(title, f.Description, opts, v)
		c.fit(e.width, 0)
		e.choices = append(e.choices, c)
		return c.sel
	case FieldMultiEnum:
		v := new([]string)
		if d, ok := f.Default.([]string); ok {
			*v = append([]string(nil), d...)
		}
		e.multi[f.Name] = v
		var opts []huh.Option[string]
		for _, o := range f.Options {
			opts = append(opts, huh.NewOption(optLabel(o), optValue(o)))
		}
		ms := huh.NewMultiSelect[string]().Value(v).
			Validate(func(s []string) error { return checkItems(f, s) })
		c := &choiceFit{title: title, desc: f.Description, opts: opts, ms: ms}
		c.fit(e.width, 0)
		e.choices = append(e.choices, c)
		return ms
	case FieldString, FieldNumber, FieldInteger:
		v := new(string)
		switch d := f.Default.(type) {
		case string:
			*v = d
		case float64:
			*v = strconv.FormatFloat(d, 'f', -1, 64)
		}
		e.text[f.Name] = v
		in := huh.NewInput().Title(title).Description(f.Description).Value(v).
			Validate(func(s string) error { return checkText(f, s) })
		if f.Format != "" {
			in = in.Placeholder(f.Format)
		}
		return in
	}
	return nil
}

func optLabel(o Option) string {
	if o.Label != "" {
		return o.Label
	}
	return o.Value
}

func optValue(o Option) string {
	if o.Value != "" {
		return o.Value
	}
	return o.Label
}

func checkItems(f ElicitField, s []string) error {
	if f.Required && len(s) == 0 {
		return errRequired
	}
	if f.MinItems != nil && len(s) < *f.MinItems && (len(s) > 0 || f.Required) {
		return fmt.Errorf("choose at least %d", *f.MinItems)
	}
	if f.MaxItems != nil && len(s) > *f.MaxItems {
		return fmt.Errorf("choose at most %d", *f.MaxItems)
	}
	return nil
}

// checkText validates a string, number or integer field's text.
func checkText(f ElicitField, s string) error {
	s = strings.TrimSpace(s)
	if s == "" {
		if f.Required {
			return errRequired
		}
		return nil
	}
	switch f.Kind {
	case FieldNumber, FieldInteger:
		var n float64
		if f.Kind == FieldInteger {
			i, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return errors.New("enter a whole number")
			}
			n = float64(i)
		} else {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return errors.New("enter a number")
			}
			n = x
		}
		if f.Minimum != nil && n < *f.Minimum {
			return fmt.Errorf("must be at least %s", strconv.FormatFloat(*f.Minimum, 'f', -1, 64))
		}
		if f.Maximum != nil && n > *f.Maximum {
			return fmt.Errorf("must be at most %s", strconv.FormatFloat(*f.Maximum, 'f', -1, 64))
		}
		return nil
	}
	n := len([]rune(s))
	if f.MinLength != nil && n < *f.MinLength {
		return fmt.Errorf("at least %d characters", *f.MinLength)
	}
	if f.MaxLength != nil && n > *f.MaxLength {
		return fmt.Errorf("at most %d characters", *f.MaxLength)
	}
	switch f.Format {
	case "email":
		if at := strings.Index(s, "@"); at <= 0 || at == len(s)-1 {
			return errors.New("enter an email address")
		}
	case "uri":
		if u, err := url.Parse(s); err != nil || u.Scheme == "" {
			return errors.New("enter a URI with a scheme (https://…)")
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return errors.New("enter a date as YYYY-MM-DD")
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return errors.New("enter a date-time as 2006-01-02T15:04:05Z")
		}
	}
	return nil
}

// View draws who asks and their message above the current step, so the
// fields keep their context.
func (e *Elicitation) View() string {
	fv := e.base.View()
	if fv == "" {
		return ""
	}
	head := e.spec.Server + " asks for input"
	if e.spec.URL != "" {
		head = e.spec.Server + " asks you to open a link"
	}
	head = lipgloss.NewStyle().Bold(true).Render(head)
	if m := strings.TrimSpace(e.spec.Message); m != "" {
		head += "\n" + lipgloss.NewStyle().Width(max(10, e.width-2)).Render(m)
	}
	return head + "\n" + fv
}

// Resize re-applies the width to the form and the message (elicitations
// have no row budget: they are short).
func (e *Elicitation) Resize(w, maxHeight int) {
	e.width = w
	e.form = e.form.WithWidth(w)
	e.layout(w)
	e.base.Resize(w, maxHeight)
}

// Action is ActionAccept, ActionDecline or ActionCancel once Done; an
// aborted form (Esc) cancels.
func (e *Elicitation) Action() string {
	if !e.Done() || e.Aborted() {
		return ActionCancel
	}
	return e.action
}

// ElicitAnswer is one answered field of an elicitation form. Kind (one of
// the Field* kinds) says which value holds the answer: Text for string and
// enum, Number, Integer, Bool, or List for multiEnum.
type ElicitAnswer struct {
	Kind    string
	Text    string
	Number  float64
	Integer int64
	Bool    bool
	List    []string
}

// Content is the accepted form's answers keyed by field name. Empty
// optional fields (and numbers that don't parse) are left out. It is nil
// unless Action is ActionAccept in form mode.
func (e *Elicitation) Content() map[string]ElicitAnswer {
	if e.Action() != ActionAccept || e.spec.URL != "" {
		return nil
	}
	out := map[string]ElicitAnswer{}
	for _, f := range e.spec.Fields {
		switch f.Kind {
		case FieldBoolean:
			out[f.Name] = ElicitAnswer{Kind: f.Kind, Bool: *e.bools[f.Name]}
		case FieldMultiEnum:
			v := *e.multi[f.Name]
			if len(v) > 0 || f.Required {
				out[f.Name] = ElicitAnswer{Kind: f.Kind, List: append([]string{}, v...)}
			}
		case FieldEnum, FieldString, FieldNumber, FieldInteger:
			p, ok := e.text[f.Name]
			if !ok {
				continue
			}
			s := *p
			if f.Kind != FieldString && f.Kind != FieldEnum {
				s = strings.TrimSpace(s)
			}
			if s == "" {
				continue
			}
			switch f.Kind {
			case FieldInteger:
				if i, err := strconv.ParseInt(s, 10, 64); err == nil {
					out[f.Name] = ElicitAnswer{Kind: f.Kind, Integer: i}
				}
			case FieldNumber:
				if x, err := strconv.ParseFloat(s, 64); err == nil {
					out[f.Name] = ElicitAnswer{Kind: f.Kind, Number: x}
				}
			default:
				out[f.Name] = ElicitAnswer{Kind: f.Kind, Text: s}
			}
		}
	}
	return out
}
