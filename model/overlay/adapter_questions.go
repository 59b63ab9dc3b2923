package overlay

import (
	"strconv"
	"strings"

	"tandem/backend"
	"tandem/forms"
)

// toolCall is `item/tool/call`: the agent calling a dynamic tool tandem
// registered. Only ask_user_question exists; anything else, or arguments
// that don't parse, is answered with an error at once.
type toolCall struct{ r *backend.ToolCallRequest }

func (a toolCall) arrive() (func() error, string, bool) {
	p := a.r.Params
	if p.Tool != backend.AskUserQuestionName {
		return func() error { return a.r.Fail("unknown tool: " + p.Tool) },
			"the agent called an unknown tool " + p.Tool + "; answered with an error", true
	}
	if _, err := backend.ParseAskUserQuestion(p.Arguments); err != nil {
		return func() error { return a.r.Fail(err.Error()) }, err.Error(), true
	}
	return nil, "", false
}

func (a toolCall) open(e formEnv) (forms.Form, func() error, string) {
	args, err := backend.ParseAskUserQuestion(a.r.Params.Arguments)
	if err != nil {
		return nil, a.r.Refuse, ""
	}
	spec := forms.QuestionsSpec{Title: args.Title, Description: args.Description, Questions: each(args.Questions, askQuestion)}
	return e.questions(spec), nil, ""
}

// askQuestion is an ask_user_question question as a form's; an option's
// value defaults to its label (safeOptions).
func askQuestion(q backend.Question) forms.Question {
	return forms.Question{ID: q.ID, Header: q.Header, Question: q.Question, Placeholder: q.Placeholder, Required: q.Required, Multiple: q.Multiple,
		Options: each(q.Options, func(o backend.QuestionOption) forms.Option {
			return forms.Option{Label: o.Label, Value: o.Value, Description: o.Description}
		})}
}

func (a toolCall) answer(f forms.Form) func() error {
	answers, ok := answersOf(f)
	if !ok {
		return func() error { return a.r.Fail("user declined to answer") }
	}
	return func() error { return a.r.AnswerQuestions(answers) }
}

// answersOf returns a questions form's answers by question id; ok is
// false when the form is not one or the user dismissed it.
func answersOf(f forms.Form) (answers map[string][]string, ok bool) {
	q, ok := f.(*forms.Questions)
	if !ok || f.Aborted() {
		return nil, false
	}
	return q.Answers(), true
}

func (toolCall) summary() string { return "tandem: the agent has a question" }

// userInput is `item/tool/requestUserInput`: the agent's own questions.
type userInput struct {
	needsPerson
	r *backend.UserInputRequest
}

func (a userInput) open(e formEnv) (forms.Form, func() error, string) {
	if len(a.r.Params.Questions) == 0 {
		return nil, a.r.Refuse, ""
	}
	spec := forms.QuestionsSpec{Questions: each(a.r.Params.Questions, inputQuestion)}
	return e.questions(spec), nil, ""
}

// inputQuestion is a requestUserInput question as a form's: the answer
// to an option is its label.
func inputQuestion(q backend.UserInputQuestion) forms.Question {
	return forms.Question{ID: q.ID, Header: q.Header, Question: q.Question, Secret: q.IsSecret, Other: q.IsOther,
		Options: each(q.Options, func(o backend.UserInputOption) forms.Option {
			return forms.Option{Label: o.Label, Value: o.Label, Description: o.Description}
		})}
}

func (a userInput) answer(f forms.Form) func() error {
	answers, ok := answersOf(f)
	if !ok {
		return a.r.Refuse
	}
	return func() error { return a.r.Answer(answers) }
}

func (userInput) summary() string { return "tandem: the agent has a question" }

// elicitation is `mcpServer/elicitation/request`: an MCP server asking
// for a form's values, a visit to a URL, or a user verification. One
// tandem cannot show is declined, with a banner saying why.
type elicitation struct {
	needsPerson
	r *backend.ElicitationRequest
}

func (a elicitation) open(e formEnv) (forms.Form, func() error, string) {
	p := a.r.Params
	spec := forms.ElicitationSpec{Server: p.ServerName, Message: p.Message}
	switch {
	case p.Mode == backend.ElicitURL:
		spec.URL = p.URL
		if spec.URL == "" {
			return nil, a.r.Refuse, ""
		}
	case p.Mode == backend.ElicitUserVerification:
		spec.Message = strings.TrimSpace(strings.Join([]string{p.Title, p.Description, p.Challenge}, "\n"))
	case p.IsForm():
		props, err := p.Schema()
		if err != nil {
			return nil, a.r.Decline, p.ServerName + " sent a form tandem cannot show (" + err.Error() + "); declined"
		}
		for _, pr := range props {
			f := forms.ElicitField{Name: pr.Name, Title: pr.Title, Description: pr.Description, Kind: pr.Kind(), Required: pr.Required,
				Format: pr.Format, MinLength: pr.MinLength, MaxLength: pr.MaxLength, Minimum: pr.Minimum, Maximum: pr.Maximum,
				MinItems: pr.MinItems, MaxItems: pr.MaxItems}
			if f.Kind == "" {
				if pr.Required {
					return nil, a.r.Decline, p.ServerName + " asked for " + pr.Name + " of a type tandem cannot show; declined"
				}
				continue
			}
			if d := pr.DefaultValue(); d != nil {
				f.Default = d
			}
			for _, o := range pr.Options() {
				f.Options = append(f.Options, forms.Option{Label: o.Title, Value: o.Const})
			}
			spec.Fields = append(spec.Fields, f)
		}
	default:
		return nil, a.r.Decline, elicitationUnknownText(p.ServerName, p.Mode)
	}
	return forms.NewElicitation(safeElicitation(spec), forms.Look{Theme: e.theme, Keys: e.keys}, e.width), nil, ""
}

func (a elicitation) answer(f forms.Form) func() error {
	el, ok := f.(*forms.Elicitation)
	if !ok {
		return a.r.Cancel
	}
	switch el.Action() {
	case forms.ActionAccept:
		content := elicitContent(el.Content())
		return func() error { return a.r.Accept(content) }
	case forms.ActionDecline:
		return a.r.Decline
	}
	return a.r.Cancel
}

func (a elicitation) summary() string { return "tandem: " + a.r.Params.ServerName + " asks for input" }

// elicitationUnknownText words the notice for an elicitation tandem cannot
// show: one of an unknown mode, or one missing its server name or mode.
func elicitationUnknownText(server, mode string) string {
	who := server
	if who == "" {
		who = "an MCP server (unnamed)"
	}
	if mode == "" {
		return who + " sent an elicitation without a mode; declined"
	}
	return who + " sent an elicitation of unknown mode " + strconv.Quote(mode) + "; declined"
}

// elicitContent turns a form's answers into the reply's typed values.
func elicitContent(answers map[string]forms.ElicitAnswer) map[string]backend.ElicitValue {
	if answers == nil {
		return nil
	}
	out := make(map[string]backend.ElicitValue, len(answers))
	for name, a := range answers {
		switch a.Kind {
		case forms.FieldBoolean:
			out[name] = backend.ElicitBool(a.Bool)
		case forms.FieldMultiEnum:
			out[name] = backend.ElicitList(a.List)
		case forms.FieldInteger:
			out[name] = backend.ElicitInteger(a.Integer)
		case forms.FieldNumber:
			out[name] = backend.ElicitNumber(a.Number)
		default:
			out[name] = backend.ElicitString(a.Text)
		}
	}
	return out
}
