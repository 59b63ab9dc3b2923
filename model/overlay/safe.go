package overlay

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
	s.Choices = each(s.Choices, func(c forms.Choice) forms.Choice {
		c.Label = ui.SanitizeLine(c.Label) // the rest (Value, Grants) as it was
		return c
	})
	// Diff lines are drawn by ui (RenderFileDiff), which sanitizes them.
	return s
}

// each returns a new slice of f applied to every element of xs (the
// spec's own slice is the server's and is left alone).
func each[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

func safeOptions(opts []forms.Option) []forms.Option {
	return each(opts, func(o forms.Option) forms.Option {
		if o.Value == "" {
			o.Value = o.Label // the answer is the label as sent
		}
		o.Label = ui.SanitizeLine(o.Label)
		o.Description = ui.Sanitize(o.Description)
		return o
	})
}

func safeQuestions(s forms.QuestionsSpec) forms.QuestionsSpec {
	s.Title = ui.Sanitize(s.Title)
	s.Description = ui.Sanitize(s.Description)
	s.Questions = each(s.Questions, func(q forms.Question) forms.Question {
		q.Header = ui.SanitizeLine(q.Header)
		q.Question = ui.Sanitize(q.Question)
		q.Placeholder = ui.SanitizeLine(q.Placeholder)
		q.Options = safeOptions(q.Options)
		return q
	})
	return s
}

func safePermissions(s forms.PermissionsSpec) forms.PermissionsSpec {
	s.Reason = ui.Sanitize(s.Reason)
	s.Cwd = ui.SanitizeLine(s.Cwd)
	s.Requested = each(s.Requested, ui.SanitizeLine)
	return s
}

func safeElicitation(s forms.ElicitationSpec) forms.ElicitationSpec {
	s.Server = ui.SanitizeLine(s.Server)
	s.Message = ui.Sanitize(s.Message)
	s.URL = ui.SanitizeLine(s.URL)
	s.Fields = each(s.Fields, func(f forms.ElicitField) forms.ElicitField {
		if f.Title == "" {
			f.Title = f.Name
		}
		f.Title = ui.SanitizeLine(f.Title)
		f.Description = ui.Sanitize(f.Description)
		f.Options = safeOptions(f.Options)
		return f
	})
	return s
}
