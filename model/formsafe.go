package model

import (
	"tandem/forms"
	"tandem/ui"
)

// The form specs below carry text from the server, the agent or an MCP
// server. Before a form is built every shown string goes through
// ui.Sanitize, so a "\r", an escape sequence or a bidi override can't make
// a form show one command while another runs. Values sent back to the
// server (option values, field names) stay as they came.

func safeApproval(s forms.ApprovalSpec) forms.ApprovalSpec {
	s.Title = ui.Sanitize(s.Title)
	s.Reason = ui.Sanitize(s.Reason)
	s.Command = ui.Sanitize(s.Command)
	s.Cwd = ui.SanitizeLine(s.Cwd)
	s.Body = ui.Sanitize(s.Body)
	choices := make([]forms.Choice, len(s.Choices))
	for i, c := range s.Choices {
		choices[i] = forms.Choice{Label: ui.SanitizeLine(c.Label), Value: c.Value}
	}
	s.Choices = choices
	// Diff lines are drawn by ui (RenderFileDiff), which sanitizes them.
	return s
}

func safeOptions(opts []forms.Option) []forms.Option {
	out := make([]forms.Option, len(opts))
	for i, o := range opts {
		if o.Value == "" {
			o.Value = o.Label // the answer is the label as sent
		}
		o.Label = ui.SanitizeLine(o.Label)
		o.Description = ui.Sanitize(o.Description)
		out[i] = o
	}
	return out
}

func safeQuestions(s forms.QuestionsSpec) forms.QuestionsSpec {
	s.Title = ui.Sanitize(s.Title)
	s.Description = ui.Sanitize(s.Description)
	qs := make([]forms.Question, len(s.Questions))
	for i, q := range s.Questions {
		q.Header = ui.SanitizeLine(q.Header)
		q.Question = ui.Sanitize(q.Question)
		q.Placeholder = ui.SanitizeLine(q.Placeholder)
		q.Options = safeOptions(q.Options)
		qs[i] = q
	}
	s.Questions = qs
	return s
}

func safePermissions(s forms.PermissionsSpec) forms.PermissionsSpec {
	s.Reason = ui.Sanitize(s.Reason)
	s.Cwd = ui.SanitizeLine(s.Cwd)
	req := make([]string, len(s.Requested))
	for i, r := range s.Requested {
		req[i] = ui.SanitizeLine(r)
	}
	s.Requested = req
	return s
}

func safeElicitation(s forms.ElicitationSpec) forms.ElicitationSpec {
	s.Server = ui.SanitizeLine(s.Server)
	s.Message = ui.Sanitize(s.Message)
	s.URL = ui.SanitizeLine(s.URL)
	fs := make([]forms.ElicitField, len(s.Fields))
	for i, f := range s.Fields {
		if f.Title == "" {
			f.Title = f.Name
		}
		f.Title = ui.SanitizeLine(f.Title)
		f.Description = ui.Sanitize(f.Description)
		f.Options = safeOptions(f.Options)
		fs[i] = f
	}
	s.Fields = fs
	return s
}

// formMaxHeight is how many rows a form may take: the screen less the
// rule above it, the queue line (when requests wait), the rule, the
// composer and the status line (the transcript gives way entirely); 0
// before the size is known.
func (m *Model) formMaxHeight() int {
	if m.height <= 0 {
		return 0
	}
	h := m.height - 3 - m.composer.Height()
	if len(m.requests.pending) > 1 {
		h-- // queueLine
	}
	return max(1, h)
}
