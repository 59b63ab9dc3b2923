package forms

import (
	"strings"
)

// Grant is a choice of the permissions form (Approval.Choice's value).
type Grant int

// The permissions form's choices.
const (
	GrantTurn Grant = iota
	GrantSession
	GrantDeny
)

// PermissionsSpec describes a request for extra sandbox permissions
// (`item/permissions/requestApproval`): Requested lists what is asked
// for, one line each ("network access", "write: /shared").
type PermissionsSpec struct {
	Reason    string
	Cwd       string
	Requested []string
	MaxHeight int // as ApprovalSpec.MaxHeight
}

// NewPermissions builds the permissions form: grant for this turn, grant
// for the session, or deny. Its Choice is a Grant (none when aborted,
// which the model treats as deny).
func NewPermissions(spec PermissionsSpec, look Look, width int) *Approval {
	body := make([]string, 0, len(spec.Requested)+1)
	body = append(body, "Requested:")
	for _, r := range spec.Requested {
		body = append(body, "  • "+r)
	}
	return NewApproval(ApprovalSpec{
		Title:     "Grant these permissions?",
		Reason:    spec.Reason,
		Cwd:       spec.Cwd,
		Body:      strings.Join(body, "\n"),
		MaxHeight: spec.MaxHeight,
		Choices: []Choice{
			{Label: "Yes, for this turn", Value: GrantTurn},
			{Label: "Yes, for the rest of the session", Value: GrantSession},
			{Label: "No, deny", Value: GrantDeny},
		},
	}, look, width)
}
