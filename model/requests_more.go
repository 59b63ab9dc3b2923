package model

import (
	"fmt"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/forms"
	"tandem/internal/shellwords"
	"tandem/ui"
)

// This file maps the server requests beyond command/file-change approvals
// and dynamic tool calls to their forms and answers, draws the live queue
// count, and rings the terminal when a request needs the user.

// maxDiffRows caps the diff window of a file-change approval.
const maxDiffRows = 14

// autoAnswer answers a request that needs no person at once and reports
// whether it did.
func (m *Model) autoAnswer(req backend.ServerRequest) bool {
	a, ok := req.(backend.AutoAnswered)
	if !ok {
		return false
	}
	if err := a.AutoAnswer(); err != nil {
		m.banner(ui.BannerWarning, "could not answer "+req.Method()+": "+err.Error(), nil)
	} else if n := a.Notice(); n != "" {
		m.banner(ui.BannerWarning, n, nil)
	}
	return true
}

// queueLine is the live "(+N more waiting)" line under the shown form; ""
// when nothing else waits.
func (m *Model) queueLine() string {
	if m.form == nil || len(m.pending) < 2 {
		return ""
	}
	return m.styles.Dim.Render(ui.Truncate(fmt.Sprintf("  (+%d more waiting)", len(m.pending)-1), m.contentWidth()))
}

// ring alerts the user that a request waits: OSC 9 (a desktop
// notification) where the terminal is known to support it, else BEL. The
// sequence goes to the terminal through the program, never through ui/.
func ring(req backend.ServerRequest) tea.Cmd {
	return tea.Raw(bellSequence(os.Getenv, requestSummary(req)))
}

// bellSequence picks the alert for the terminal described by getenv:
// OSC 9 with text for iTerm2, WezTerm, ghostty and kitty outside tmux and
// screen (which would swallow it), BEL everywhere else.
func bellSequence(getenv func(string) string, text string) string {
	if getenv("TMUX") == "" && !strings.HasPrefix(getenv("TERM"), "screen") {
		switch getenv("TERM_PROGRAM") {
		case "iTerm.app", "WezTerm", "ghostty":
			return osc9(text)
		}
		if strings.Contains(getenv("TERM"), "kitty") {
			return osc9(text)
		}
	}
	return "\a"
}

func osc9(text string) string {
	clean := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, text)
	// Nor may a C1 control (ST would end the OSC early) or a bidi override.
	clean = ui.SanitizeLine(clean)
	return "\x1b]9;" + ui.Truncate(clean, 120) + "\a"
}

// requestSummary says in a few words what a request wants (for the
// notification).
func requestSummary(req backend.ServerRequest) string {
	switch r := req.(type) {
	case *backend.CommandApprovalRequest:
		if r.Params.Command != nil {
			return "tandem: approve command: " + *r.Params.Command
		}
		return "tandem: approve a command"
	case *backend.ExecCommandApprovalRequest:
		return "tandem: approve command: " + strings.Join(r.Params.Command, " ")
	case *backend.FileChangeApprovalRequest, *backend.ApplyPatchApprovalRequest:
		return "tandem: approve file changes"
	case *backend.PermissionsApprovalRequest:
		return "tandem: the agent asks for more permissions"
	case *backend.ElicitationRequest:
		return "tandem: " + r.Params.ServerName + " asks for input"
	}
	return "tandem: the agent has a question"
}

// Keys of command-approval choices beyond the plain decisions.
const (
	keyExecpolicy = "execpolicy"
	keyNetwork    = "network:" // + index into proposedNetworkPolicyAmendments
)

// commandChoices offers the decisions of a command approval: the plain
// ones, "don't ask again for commands starting with …" when an execpolicy
// amendment is proposed, and one choice per proposed network amendment.
// When the server sends availableDecisions only those kinds are offered.
func commandChoices(p backend.CommandApprovalParams) []forms.Choice {
	var all []forms.Choice
	all = append(all, forms.Choice{Key: "accept", Label: "Yes, run it"})
	all = append(all, forms.Choice{Key: "acceptForSession", Label: "Yes, and don't ask again this session"})
	if len(p.ProposedExecpolicyAmendment) > 0 {
		all = append(all, forms.Choice{Key: keyExecpolicy, Label: "Yes, and don't ask again for commands starting with `" + shellwords.Join(p.ProposedExecpolicyAmendment) + "`"})
	}
	for i, a := range p.ProposedNetworkPolicyAmendments {
		verb := "allow"
		if a.Action == "deny" {
			verb = "block"
		}
		all = append(all, forms.Choice{Key: fmt.Sprintf("%s%d", keyNetwork, i), Label: fmt.Sprintf("Yes, and always %s network access to %s", verb, a.Host)})
	}
	all = append(all,
		forms.Choice{Key: "decline", Label: "No, continue without running it"},
		forms.Choice{Key: "cancel", Label: "No, and stop the turn"})
	kinds := p.DecisionKinds()
	if kinds == nil {
		return all
	}
	var out []forms.Choice
	for _, c := range all {
		kind := c.Key
		switch {
		case c.Key == keyExecpolicy:
			kind = "acceptWithExecpolicyAmendment"
		case strings.HasPrefix(c.Key, keyNetwork):
			kind = "applyNetworkPolicyAmendment"
		}
		if kinds[kind] {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return all
	}
	return out
}

// commandDecision maps a command-approval choice to its decision; "" (an
// aborted form) and anything unknown cancel.
func commandDecision(p backend.CommandApprovalParams, key string) backend.Decision {
	if key == keyExecpolicy {
		return backend.AcceptWithExecpolicyAmendment(p.ProposedExecpolicyAmendment)
	}
	var i int
	if _, err := fmt.Sscanf(key, keyNetwork+"%d", &i); err == nil && i >= 0 && i < len(p.ProposedNetworkPolicyAmendments) {
		return backend.ApplyNetworkPolicyAmendment(p.ProposedNetworkPolicyAmendments[i])
	}
	return approvalDecision(key) // requests.go
}

// legacyDecision maps a legacy approval's choice to a `ReviewDecision`;
// an aborted form aborts.
func legacyDecision(key string) backend.Decision {
	switch key {
	case "accept":
		return backend.Approved
	case "acceptForSession":
		return backend.ApprovedForSession
	case "decline":
		return backend.Denied(backend.DeclinedRejection)
	}
	return backend.Abort
}

var legacyChoices = []forms.Choice{
	{Key: "accept", Label: "Yes"},
	{Key: "acceptForSession", Label: "Yes, and don't ask again this session"},
	{Key: "decline", Label: "No, and tell the agent to try something else"},
	{Key: "cancel", Label: "No, and stop"},
}

// diffRows renders files as the coloured diff lines of a file-change
// approval, each under a header with its path and counts.
func (m *Model) diffRows(files []ui.FileDiff) []string {
	w := m.contentWidth()
	var rows []string
	for _, f := range files {
		a, d := ui.FileDiffStat(f)
		rows = append(rows, m.styles.DiffHeader.Render(ui.Truncate(fmt.Sprintf("%s %s (+%d −%d)", f.Kind, ui.SanitizeLine(f.Path), a, d), w)))
		rows = append(rows, ui.RenderFileDiff(m.styles, f, w, 1<<30)...)
	}
	return rows
}

func (m *Model) diffHeight() int {
	if m.height <= 0 {
		return maxDiffRows
	}
	return max(3, min(maxDiffRows, m.height/3))
}

// fileChangeSpec builds the approval of `item/fileChange/requestApproval`:
// the files with their diff, from the fileChange item shown in the
// transcript.
func (m *Model) fileChangeSpec(p backend.FileChangeApprovalParams) forms.ApprovalSpec {
	spec := forms.ApprovalSpec{Title: "Apply these changes?", Choices: []forms.Choice{
		{Key: "accept", Label: "Yes, apply them"},
		{Key: "acceptForSession", Label: "Yes, and don't ask again for these files this session"},
		{Key: "decline", Label: "No, continue without applying"},
		{Key: "cancel", Label: "No, and stop the turn"},
	}, DiffHeight: m.diffHeight()}
	if p.Reason != nil {
		spec.Reason = *p.Reason
	}
	if p.GrantRoot != nil && *p.GrantRoot != "" {
		spec.Body = "Also asks to allow writes under " + *p.GrantRoot + " for the session"
	}
	if c, ok := m.items[p.ItemID].(*ui.FileChangeCell); ok {
		spec.Diff = m.diffRows(c.Files)
	}
	return spec
}

// buildMoreForm builds the forms of the request kinds in this file; nil
// for a kind it does not know.
func (m *Model) buildMoreForm(req backend.ServerRequest) forms.Form {
	w := m.contentWidth()
	switch r := req.(type) {
	case *backend.ExecCommandApprovalRequest:
		p := r.Params
		spec := forms.ApprovalSpec{Title: "Run this command?", Command: shellwords.Join(p.Command), Cwd: p.Cwd, Choices: legacyChoices}
		if p.Reason != nil {
			spec.Reason = *p.Reason
		}
		return forms.NewApproval(m.approvalSpec(spec), m.theme, w)
	case *backend.ApplyPatchApprovalRequest:
		p := r.Params
		spec := forms.ApprovalSpec{Title: "Apply these changes?", Choices: legacyChoices, DiffHeight: m.diffHeight()}
		if p.Reason != nil {
			spec.Reason = *p.Reason
		}
		if p.GrantRoot != nil && *p.GrantRoot != "" {
			spec.Body = "Also asks to allow writes under " + *p.GrantRoot + " for the session"
		}
		var files []ui.FileDiff
		for _, path := range p.Paths() {
			c := p.FileChanges[path]
			files = append(files, ui.FileDiff{Path: path, Kind: c.Type, Diff: c.Diff()})
		}
		spec.Diff = m.diffRows(files)
		return forms.NewApproval(m.approvalSpec(spec), m.theme, w)
	case *backend.PermissionsApprovalRequest:
		p := r.Params
		spec := forms.PermissionsSpec{Cwd: p.Cwd, Requested: p.Permissions.Describe()}
		if p.Reason != nil {
			spec.Reason = *p.Reason
		}
		return forms.NewPermissions(m.permissionsSpec(spec), m.theme, w)
	case *backend.UserInputRequest:
		if len(r.Params.Questions) == 0 {
			return nil
		}
		var spec forms.QuestionsSpec
		for _, q := range r.Params.Questions {
			fq := forms.Question{ID: q.ID, Header: q.Header, Question: q.Question, Secret: q.IsSecret, Other: q.IsOther}
			for _, o := range q.Options {
				fq.Options = append(fq.Options, forms.Option{Label: o.Label, Value: o.Label, Description: o.Description})
			}
			spec.Questions = append(spec.Questions, fq)
		}
		return forms.NewQuestions(m.questionsSpec(spec), m.theme, w)
	case *backend.ElicitationRequest:
		return m.elicitationForm(r, w)
	}
	return nil
}

// elicitationForm builds the form of `mcpServer/elicitation/request`;
// when the request cannot be shown it declines it and returns nil.
func (m *Model) elicitationForm(r *backend.ElicitationRequest, w int) forms.Form {
	p := r.Params
	spec := forms.ElicitationSpec{Server: p.ServerName, Message: p.Message}
	switch {
	case p.Mode == backend.ElicitURL:
		spec.URL = p.URL
		if spec.URL == "" {
			return nil
		}
	case p.Mode == backend.ElicitUserVerification:
		spec.Message = strings.TrimSpace(strings.Join([]string{p.Title, p.Description, p.Challenge}, "\n"))
	case p.IsForm():
		props, err := p.Schema()
		if err != nil {
			m.banner(ui.BannerWarning, p.ServerName+" sent a form tandem cannot show ("+err.Error()+"); declined", nil)
			_ = r.Decline()
			return nil
		}
		for _, pr := range props {
			f := forms.ElicitField{Name: pr.Name, Title: pr.Title, Description: pr.Description, Kind: pr.Kind(), Required: pr.Required,
				Format: pr.Format, MinLength: pr.MinLength, MaxLength: pr.MaxLength, Minimum: pr.Minimum, Maximum: pr.Maximum,
				MinItems: pr.MinItems, MaxItems: pr.MaxItems}
			if f.Kind == "" {
				if pr.Required {
					m.banner(ui.BannerWarning, p.ServerName+" asked for "+pr.Name+" of a type tandem cannot show; declined", nil)
					_ = r.Decline()
					return nil
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
		m.banner(ui.BannerWarning, elicitationUnknownText(p.ServerName, p.Mode), nil)
		_ = r.Decline()
		return nil
	}
	return forms.NewElicitation(safeElicitation(spec), m.theme, w)
}

// answerMore answers the request kinds of this file from their form and
// reports whether it knew the kind.
func (m *Model) answerMore(req backend.ServerRequest, f forms.Form) (bool, error) {
	switch r := req.(type) {
	case *backend.ExecCommandApprovalRequest:
		return true, r.Answer(legacyDecision(f.(*forms.Approval).Choice()))
	case *backend.ApplyPatchApprovalRequest:
		return true, r.Answer(legacyDecision(f.(*forms.Approval).Choice()))
	case *backend.PermissionsApprovalRequest:
		switch f.(*forms.Approval).Choice() {
		case forms.GrantTurn:
			return true, r.Grant(backend.ScopeTurn)
		case forms.GrantSession:
			return true, r.Grant(backend.ScopeSession)
		}
		return true, r.Deny()
	case *backend.UserInputRequest:
		if f.Aborted() {
			return true, r.Refuse()
		}
		return true, r.Answer(f.(*forms.Questions).Answers())
	case *backend.ElicitationRequest:
		e := f.(*forms.Elicitation)
		switch e.Action() {
		case forms.ActionAccept:
			return true, r.Accept(elicitContent(e.Content()))
		case forms.ActionDecline:
			return true, r.Decline()
		}
		return true, r.Cancel()
	}
	return false, nil
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
