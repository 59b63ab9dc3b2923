package model

import (
	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/forms"
	"tandem/internal/shellwords"
	"tandem/ui"
)

// onRequest queues a server request and shows it when it is first in line.
// Requests that need no person (bad arguments, unknown tools) are answered
// at once.
func (m *Model) onRequest(req backend.ServerRequest) tea.Cmd {
	if m.opts.ReadOnly {
		return m.watchRequest(req)
	}
	if m.autoAnswer(req) {
		return nil
	}
	if tc, ok := req.(*backend.ToolCallRequest); ok {
		if tc.Params.Tool != backend.AskUserQuestionName {
			_ = tc.Fail("unknown tool: " + tc.Params.Tool)
			m.banner(ui.BannerWarning, "the agent called an unknown tool "+tc.Params.Tool+"; answered with an error", nil)
			return nil
		}
		if _, err := backend.ParseAskUserQuestion(tc.Params.Arguments); err != nil {
			_ = tc.Fail(err.Error())
			m.banner(ui.BannerWarning, err.Error(), nil)
			return nil
		}
	}
	m.pending = append(m.pending, req)
	var cmd tea.Cmd
	if m.form == nil {
		cmd = m.showNext()
	}
	if req.Answered() {
		// Answered while building its form (e.g. an elicitation tandem
		// cannot show is declined): nothing to ring for.
		return cmd
	}
	return tea.Batch(cmd, ring(req))
}

// showNext builds the form for the first pending request. The form takes
// focus only after the grace period, so keys already typed stay in the
// composer.
func (m *Model) showNext() tea.Cmd {
	if len(m.pending) == 0 {
		return nil
	}
	req := m.pending[0]
	// The queue count is drawn live under the form (queueLine).
	f := m.buildForm(req)
	if f == nil {
		// Nothing to ask: answer safely and move on.
		_ = req.Refuse()
		m.pending = m.pending[1:]
		return m.showNext()
	}
	m.form, m.formReq, m.formReady = f, req, false
	m.formSeq++
	m.follow = true
	return tea.Batch(f.Init(), m.startGrace()) // grace.go
}

func (m *Model) buildForm(req backend.ServerRequest) forms.Form {
	switch r := req.(type) {
	case *backend.CommandApprovalRequest:
		p := r.Params
		spec := forms.ApprovalSpec{Title: "Run this command?", Choices: commandChoices(p)}
		if p.Reason != nil {
			spec.Reason = *p.Reason
		}
		if p.Command != nil {
			spec.Command = shellwords.Display(*p.Command)
		}
		if p.Cwd != nil {
			spec.Cwd = *p.Cwd
		}
		if nc := p.NetworkApprovalContext; nc != nil {
			spec.Body = "Network access to " + nc.Host + " (" + nc.Protocol + ")"
		}
		return forms.NewApproval(m.approvalSpec(spec), m.theme, m.contentWidth())
	case *backend.FileChangeApprovalRequest:
		spec := m.fileChangeSpec(r.Params)
		return forms.NewApproval(m.approvalSpec(spec), m.theme, m.contentWidth())
	case *backend.ToolCallRequest:
		args, err := backend.ParseAskUserQuestion(r.Params.Arguments)
		if err != nil {
			return nil
		}
		spec := forms.QuestionsSpec{Title: args.Title, Description: args.Description}
		for _, q := range args.Questions {
			fq := forms.Question{ID: q.ID, Header: q.Header, Question: q.Question, Placeholder: q.Placeholder, Required: q.Required, Multiple: q.Multiple}
			for _, o := range q.Options {
				fq.Options = append(fq.Options, forms.Option{Label: o.Label, Value: o.Value, Description: o.Description})
			}
			spec.Questions = append(spec.Questions, fq)
		}
		return forms.NewQuestions(m.questionsSpec(spec), m.theme, m.contentWidth())
	}
	return m.buildMoreForm(req)
}

// settleForm answers the shown request once its form is done and shows
// the next one.
func (m *Model) settleForm() tea.Cmd {
	if m.form == nil || !m.form.Done() {
		return nil
	}
	req, f := m.formReq, m.form
	m.answer(req, f)
	m.closeForm()
	if len(m.pending) > 0 && m.pending[0] == req {
		m.pending = m.pending[1:]
	}
	return m.showNext()
}

func (m *Model) answer(req backend.ServerRequest, f forms.Form) {
	var err error
	switch r := req.(type) {
	case *backend.CommandApprovalRequest:
		err = r.Answer(commandDecision(r.Params, f.(*forms.Approval).Choice()))
	case *backend.FileChangeApprovalRequest:
		err = r.Answer(approvalDecision(f.(*forms.Approval).Choice()))
	case *backend.ToolCallRequest:
		q := f.(*forms.Questions)
		if f.Aborted() {
			err = r.Fail("user declined to answer")
			break
		}
		err = r.AnswerQuestions(q.Answers())
	default:
		var known bool
		if known, err = m.answerMore(req, f); !known {
			err = req.Refuse()
		}
	}
	if err != nil {
		m.banner(ui.BannerWarning, "could not answer "+req.Method()+": "+err.Error(), nil)
	}
}

// approvalDecision maps the choices every approval form offers to their
// decision; "" (an aborted form, Esc) and anything unknown cancel.
func approvalDecision(key string) backend.Decision {
	switch key {
	case "accept":
		return backend.Accept
	case "acceptForSession":
		return backend.AcceptForSession
	case "decline":
		return backend.Decline
	}
	return backend.Cancel
}

func (m *Model) closeForm() {
	m.form, m.formReq, m.formReady = nil, nil, false
}

// refuseAll answers every pending server request with its refusal
// (decline, cancel or an error: never accept) and closes the form.
func (m *Model) refuseAll() {
	for _, r := range m.pending {
		if !r.Answered() {
			_ = r.Refuse()
		}
	}
	m.pending = nil
	m.closeForm()
}

// resolved drops a request the server no longer needs answered
// (`serverRequest/resolved`), closing its form if shown.
func (m *Model) resolved(id backend.RequestID) tea.Cmd {
	for i, r := range m.pending {
		if r.ID().String() == id.String() {
			m.pending = append(m.pending[:i:i], m.pending[i+1:]...)
			if m.formReq == r {
				m.closeForm()
				return m.showNext()
			}
			return nil
		}
	}
	return nil
}
