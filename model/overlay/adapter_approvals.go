package overlay

import (
	"fmt"
	"slices"
	"strings"

	"tandem/backend"
	"tandem/forms"
	"tandem/internal/lib/shellwords"
	"tandem/thread"
	"tandem/ui"
)

// commandApproval is `item/commandExecution/requestApproval`.
type commandApproval struct {
	needsPerson
	r *backend.CommandApprovalRequest
}

func (a commandApproval) open(e formEnv) (forms.Form, func() error, string) {
	p := a.r.Params
	choices, rules := commandChoices(p)
	spec := forms.ApprovalSpec{Title: "Run this command?", Choices: choices}
	if p.Reason != nil {
		spec.Reason = *p.Reason
	}
	if p.Command != nil {
		spec.Command = shellwords.Display(*p.Command)
	}
	if p.Cwd != nil {
		spec.Cwd = *p.Cwd
	}
	var body []string
	if nc := p.NetworkApprovalContext; nc != nil {
		body = append(body, "Network access to "+nc.Host+" ("+nc.Protocol+")")
	}
	spec.Body = strings.Join(append(body, rules...), "\n") // what a yes allows for good, whole
	return e.approval(spec), nil, ""
}

func (a commandApproval) answer(f forms.Form) func() error {
	return func() error { return a.r.Answer(decision(f, backend.Cancel)) }
}

func (a commandApproval) summary() string {
	if c := a.r.Params.Command; c != nil {
		return "tandem: approve command: " + *c
	}
	return "tandem: approve a command"
}

// decision is the decision chosen in an approval form, or refuse when it
// was aborted.
func decision(f forms.Form, refuse backend.Decision) backend.Decision {
	if v, ok := choice(f); ok {
		if d, ok := v.(backend.Decision); ok {
			return d
		}
	}
	return refuse
}

// commandChoices offers the decisions of a command approval: the plain
// ones, "always, for the prefix below" when an execpolicy amendment is
// proposed, and one choice per proposed network amendment; rules names
// what those choices would allow for good, one line each, for the body
// (a label is cut to fit, a rule must be read whole). Each label is at
// most 31 cells, so the choices fit a 40-column form. When the server
// sends availableDecisions only those kinds are offered.
func commandChoices(p backend.CommandApprovalParams) (choices []forms.Choice, rules []string) {
	all := []forms.Choice{
		{Label: "Yes, run it", Value: backend.Accept, Grants: true},
		{Label: "Yes, for the whole session", Value: backend.AcceptForSession, Grants: true},
	}
	if len(p.ProposedExecpolicyAmendment) > 0 {
		all = append(all, forms.Choice{Label: "Yes, and always for the prefix", Grants: true,
			Value: backend.AcceptWithExecpolicyAmendment(p.ProposedExecpolicyAmendment)})
		rules = append(rules, "The prefix: don't ask again for commands starting with `"+shellwords.Join(p.ProposedExecpolicyAmendment)+"`")
	}
	for i, am := range p.ProposedNetworkPolicyAmendments {
		verb := "allow"
		if am.Action == "deny" {
			verb = "block"
		}
		all = append(all, forms.Choice{Label: fmt.Sprintf("Yes, and network rule %d", i+1), Value: backend.ApplyNetworkPolicyAmendment(am), Grants: true})
		rules = append(rules, fmt.Sprintf("Network rule %d: always %s network access to %s", i+1, verb, am.Host))
	}
	all = append(all,
		forms.Choice{Label: "No, skip this command", Value: backend.Decline},
		forms.Choice{Label: "No, and stop the turn", Value: backend.Cancel})
	kinds := p.DecisionKinds()
	if kinds == nil {
		return all, rules
	}
	var out []forms.Choice
	for _, c := range all {
		if kinds[c.Value.(backend.Decision).Name] {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return all, rules
	}
	return out, rules
}

// fileChangeApproval is `item/fileChange/requestApproval`: the files and
// their diff come from the fileChange item the fold holds.
type fileChangeApproval struct {
	needsPerson
	r *backend.FileChangeApprovalRequest
}

func (a fileChangeApproval) open(e formEnv) (forms.Form, func() error, string) {
	p := a.r.Params
	spec := forms.ApprovalSpec{Title: "Apply these changes?", DiffHeight: e.diffHeight}
	if p.Reason != nil {
		spec.Reason = *p.Reason
	}
	var body []string
	if p.GrantRoot != nil && *p.GrantRoot != "" {
		body = append(body, "Also asks to allow writes under "+*p.GrantRoot+" for the session")
	}
	files, ok := a.files(e)
	if ok {
		spec.Choices = []forms.Choice{
			{Label: "Yes, apply them", Value: backend.Accept, Grants: true},
			{Label: "Yes, and these files all session", Value: backend.AcceptForSession, Grants: true},
		}
		spec.Diff = e.diffRows(ui.FileDiffs(files, e.threadCwd))
	} else {
		// What would be applied is not on screen: it can't be approved.
		body = append(body, "tandem has not seen these changes (no such file change in the thread that asks), so they can only be refused")
	}
	spec.Choices = append(spec.Choices,
		forms.Choice{Label: "No, skip these changes", Value: backend.Decline},
		forms.Choice{Label: "No, and stop the turn", Value: backend.Cancel})
	spec.Body = strings.Join(body, "\n")
	return e.approval(spec), nil, ""
}

// files are the changes the asking thread's fold holds for the request's
// item; ok is false when it holds no such file change, or one without a
// file.
func (a fileChangeApproval) files(e formEnv) (files []thread.FileDiff, ok bool) {
	it := e.thread.Find(a.r.Params.TurnID, a.r.Params.ItemID)
	if it == nil || it.Kind != thread.FileChange || len(it.Files) == 0 {
		return nil, false
	}
	return it.Files, true
}

// shows is what the form was built from: the item's files, as the fold
// holds them now, and its revision (the overlay builds the form again
// when they change — `item/fileChange/patchUpdated` — so what a yes
// applies is what is on screen, read again from the top).
func (a fileChangeApproval) shows(e formEnv) any {
	files, _ := a.files(e)
	v := shownFiles{files: files}
	if it := e.thread.Find(a.r.Params.TurnID, a.r.Params.ItemID); it != nil {
		v.item, v.rev = it, it.Rev
	}
	return v
}

// changed reports whether the files differ from was (shows' value); it
// compares the diffs only when the item changed at all.
func (a fileChangeApproval) changed(e formEnv, was any) bool {
	old, _ := was.(shownFiles)
	now := a.shows(e).(shownFiles)
	if now.item == old.item && now.rev == old.rev {
		return false
	}
	return !slices.Equal(now.files, old.files)
}

// shownFiles is a file-change approval's shows: the files drawn, and the
// item and revision they were read from.
type shownFiles struct {
	item  *thread.Item
	rev   int
	files []thread.FileDiff
}

func (a fileChangeApproval) answer(f forms.Form) func() error {
	return func() error { return a.r.Answer(decision(f, backend.Cancel)) }
}

func (fileChangeApproval) summary() string { return "tandem: approve file changes" }

// legacyChoices are the choices of the legacy approvals, with their
// `ReviewDecision`s.
func legacyChoices() []forms.Choice {
	return []forms.Choice{
		{Label: "Yes", Value: backend.Approved, Grants: true},
		{Label: "Yes, for the whole session", Value: backend.ApprovedForSession, Grants: true},
		{Label: "No, try something else", Value: backend.Denied(backend.DeclinedRejection)},
		{Label: "No, and stop", Value: backend.Abort},
	}
}

// legacyCommand is the legacy `execCommandApproval`.
type legacyCommand struct {
	needsPerson
	r *backend.ExecCommandApprovalRequest
}

func (a legacyCommand) open(e formEnv) (forms.Form, func() error, string) {
	p := a.r.Params
	spec := forms.ApprovalSpec{Title: "Run this command?", Command: shellwords.Join(p.Command), Cwd: p.Cwd, Choices: legacyChoices()}
	if p.Reason != nil {
		spec.Reason = *p.Reason
	}
	return e.approval(spec), nil, ""
}

func (a legacyCommand) answer(f forms.Form) func() error {
	return func() error { return a.r.Answer(decision(f, backend.Abort)) }
}

func (a legacyCommand) summary() string {
	return "tandem: approve command: " + strings.Join(a.r.Params.Command, " ")
}

// legacyPatch is the legacy `applyPatchApproval`.
type legacyPatch struct {
	needsPerson
	r *backend.ApplyPatchApprovalRequest
}

func (a legacyPatch) open(e formEnv) (forms.Form, func() error, string) {
	p := a.r.Params
	spec := forms.ApprovalSpec{Title: "Apply these changes?", Choices: legacyChoices(), DiffHeight: e.diffHeight}
	if p.Reason != nil {
		spec.Reason = *p.Reason
	}
	if p.GrantRoot != nil && *p.GrantRoot != "" {
		spec.Body = "Also asks to allow writes under " + *p.GrantRoot + " for the session"
	}
	var files []thread.FileDiff
	for _, path := range p.Paths() {
		c := p.FileChanges[path]
		f := thread.FileDiff{Path: path, Kind: c.Type, Diff: c.Diff()} // read by its kind (ui.RenderFileDiff)
		if c.MovePath != nil {
			f.MovePath = *c.MovePath
		}
		files = append(files, f)
	}
	spec.Diff = e.diffRows(ui.FileDiffs(files, e.threadCwd))
	return e.approval(spec), nil, ""
}

func (a legacyPatch) answer(f forms.Form) func() error {
	return func() error { return a.r.Answer(decision(f, backend.Abort)) }
}

func (legacyPatch) summary() string { return "tandem: approve file changes" }

// permissions is `item/permissions/requestApproval`.
type permissions struct {
	needsPerson
	r *backend.PermissionsApprovalRequest
}

func (a permissions) open(e formEnv) (forms.Form, func() error, string) {
	p := a.r.Params
	spec := forms.PermissionsSpec{Cwd: p.Cwd, Requested: p.Permissions.Describe()}
	if p.Reason != nil {
		spec.Reason = *p.Reason
	}
	spec = safePermissions(spec)
	spec.MaxHeight = e.maxHeight
	return forms.NewPermissions(spec, forms.Look{Theme: e.theme, Keys: e.keys}, e.width), nil, ""
}

func (a permissions) answer(f forms.Form) func() error {
	v, _ := choice(f)
	switch v {
	case forms.GrantTurn:
		return func() error { return a.r.Grant(backend.ScopeTurn) }
	case forms.GrantSession:
		return func() error { return a.r.Grant(backend.ScopeSession) }
	}
	return a.r.Deny
}

func (permissions) summary() string { return "tandem: the agent asks for more permissions" }
