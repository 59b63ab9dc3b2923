package backend

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// This file holds the approval requests: command and file-change
// approvals (v2), their legacy forms (execCommandApproval,
// applyPatchApproval), permission grants, and the decisions that answer
// them.

// ApprovalResponse is the response of every approval kind:
// {"decision": d}.
type ApprovalResponse struct {
	Decision Decision `json:"decision"`
}

// decisionRequest is what the approval kinds share: they are answered
// with a decision.
type decisionRequest struct{ *Request }

// Answer replies {"decision": d}.
func (r decisionRequest) Answer(d Decision) error {
	return r.Respond(ApprovalResponse{Decision: d})
}

// Decision is an approval decision. Name is one of "accept",
// "acceptForSession", "decline", "cancel" (v2), or for the legacy requests
// "approved", "approved_for_session", "denied", "abort". Amendment variants
// are added by their own constructors.
type Decision struct {
	Name string
	// raw, when set, is sent instead of the Name string (object variants
	// such as acceptWithExecpolicyAmendment).
	raw json.RawMessage
}

// MarshalJSON writes the decision as the protocol expects.
func (d Decision) MarshalJSON() ([]byte, error) {
	if d.raw != nil {
		return d.raw, nil
	}
	return json.Marshal(d.Name)
}

// The plain v2 decisions of `CommandExecutionApprovalDecision` and
// `FileChangeApprovalDecision`.
var (
	Accept           = Decision{Name: "accept"}
	AcceptForSession = Decision{Name: "acceptForSession"}
	Decline          = Decision{Name: "decline"}
	Cancel           = Decision{Name: "cancel"}
)

// CommandApprovalParams are the params of
// `item/commandExecution/requestApproval`.
type CommandApprovalParams struct {
	ItemRef
	Kind                            string                   `json:"kind"`
	Reason                          *string                  `json:"reason"`
	Command                         *string                  `json:"command"`
	Cwd                             *string                  `json:"cwd"`
	ProposedExecpolicyAmendment     []string                 `json:"proposedExecpolicyAmendment"`
	ProposedNetworkPolicyAmendments []NetworkPolicyAmendment `json:"proposedNetworkPolicyAmendments"`
	AvailableDecisions              []json.RawMessage        `json:"availableDecisions"`
	NetworkApprovalContext          *NetworkApprovalContext  `json:"networkApprovalContext"`
}

// NetworkPolicyAmendment is the protocol's `NetworkPolicyAmendment`;
// Action is "allow" or "deny".
type NetworkPolicyAmendment struct {
	Host   string `json:"host"`
	Action string `json:"action"`
}

// CommandApprovalRequest is `item/commandExecution/requestApproval`.
// Answer it with Answer.
type CommandApprovalRequest struct {
	decisionRequest
	Params CommandApprovalParams
}

// Refuse implements ServerRequest: it answers "cancel".
func (r *CommandApprovalRequest) Refuse() error { return r.Answer(Cancel) }

// FileChangeApprovalParams are the params of
// `item/fileChange/requestApproval`. The diff itself arrives on the
// fileChange item (item/started), found by ItemID.
type FileChangeApprovalParams struct {
	ItemRef
	Reason    *string `json:"reason"`
	GrantRoot *string `json:"grantRoot"`
}

// FileChangeApprovalRequest is `item/fileChange/requestApproval`.
type FileChangeApprovalRequest struct {
	decisionRequest
	Params FileChangeApprovalParams
}

// Refuse implements ServerRequest: it answers "cancel".
func (r *FileChangeApprovalRequest) Refuse() error { return r.Answer(Cancel) }

func rawDecision(name string, v any) Decision {
	b, err := json.Marshal(map[string]any{name: v})
	if err != nil {
		// Only strings and string slices are marshalled here.
		panic(err)
	}
	return Decision{Name: name, raw: b}
}

// AcceptWithExecpolicyAmendment is the v2 command decision
// {"acceptWithExecpolicyAmendment":{"execpolicy_amendment":prefix}}: run the
// command and stop asking for commands starting with prefix.
func AcceptWithExecpolicyAmendment(prefix []string) Decision {
	return rawDecision("acceptWithExecpolicyAmendment", map[string]any{"execpolicy_amendment": nonNil(prefix)})
}

// ApplyNetworkPolicyAmendment is the v2 command decision
// {"applyNetworkPolicyAmendment":{"network_policy_amendment":{host,action}}}:
// persist an allow or deny rule for the host.
func ApplyNetworkPolicyAmendment(a NetworkPolicyAmendment) Decision {
	return rawDecision("applyNetworkPolicyAmendment", map[string]any{"network_policy_amendment": a})
}

// The plain legacy `ReviewDecision` values of `execCommandApproval` and
// `applyPatchApproval`. A denial carries a rejection text: see Denied.
var (
	Approved           = Decision{Name: "approved"}
	ApprovedForSession = Decision{Name: "approved_for_session"}
	Abort              = Decision{Name: "abort"}
)

// Denied is the legacy decision {"denied":{"rejection":rejection}}: don't
// run it, but let the agent continue.
func Denied(rejection string) Decision {
	return rawDecision("denied", map[string]any{"rejection": rejection})
}

// ApprovedExecpolicyAmendment is the legacy decision
// {"approved_execpolicy_amendment":{"proposed_execpolicy_amendment":prefix}}.
func ApprovedExecpolicyAmendment(prefix []string) Decision {
	return rawDecision("approved_execpolicy_amendment", map[string]any{"proposed_execpolicy_amendment": nonNil(prefix)})
}

// LegacyNetworkPolicyAmendment is the legacy decision
// {"network_policy_amendment":{"network_policy_amendment":{host,action}}}.
func LegacyNetworkPolicyAmendment(a NetworkPolicyAmendment) Decision {
	return rawDecision("network_policy_amendment", map[string]any{"network_policy_amendment": a})
}

// DeclinedRejection is the rejection text tandem sends with a legacy
// denial.
const DeclinedRejection = "The user declined this request."

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// ExecCommandApprovalParams are the params of the legacy
// `execCommandApproval`. Command is argv.
type ExecCommandApprovalParams struct {
	ConversationID string   `json:"conversationId"`
	CallID         string   `json:"callId"`
	ApprovalID     *string  `json:"approvalId"`
	Command        []string `json:"command"`
	Cwd            string   `json:"cwd"`
	Reason         *string  `json:"reason"`
}

// ExecCommandApprovalRequest is the legacy `execCommandApproval`. Answer it
// with Approved, ApprovedForSession, Denied(…) or Abort.
type ExecCommandApprovalRequest struct {
	decisionRequest
	Params ExecCommandApprovalParams
}

// Refuse implements ServerRequest: it answers "abort".
func (r *ExecCommandApprovalRequest) Refuse() error { return r.Answer(Abort) }

// LegacyFileChange is the legacy `FileChange`: Type is "add" or "delete"
// (with Content) or "update" (with UnifiedDiff and MovePath).
type LegacyFileChange struct {
	Type        string  `json:"type"`
	Content     string  `json:"content"`
	UnifiedDiff string  `json:"unified_diff"`
	MovePath    *string `json:"move_path"`
}

// Diff returns the change's text as a v2 fileChange item carries it
// (see FileChange): an added or deleted file's whole Content, an
// update's UnifiedDiff. Which one it is comes from Type, never from the
// text.
func (c LegacyFileChange) Diff() string {
	if c.Type == "add" || c.Type == "delete" {
		return c.Content
	}
	return c.UnifiedDiff
}

// ApplyPatchApprovalParams are the params of the legacy
// `applyPatchApproval`; FileChanges is keyed by path.
type ApplyPatchApprovalParams struct {
	ConversationID string                      `json:"conversationId"`
	CallID         string                      `json:"callId"`
	FileChanges    map[string]LegacyFileChange `json:"fileChanges"`
	Reason         *string                     `json:"reason"`
	GrantRoot      *string                     `json:"grantRoot"`
}

// Paths returns the changed paths, sorted.
func (p ApplyPatchApprovalParams) Paths() []string {
	return slices.Sorted(maps.Keys(p.FileChanges))
}

// ApplyPatchApprovalRequest is the legacy `applyPatchApproval`. Answer it
// with Approved, ApprovedForSession, Denied(…) or Abort.
type ApplyPatchApprovalRequest struct {
	decisionRequest
	Params ApplyPatchApprovalParams
}

// Refuse implements ServerRequest: it answers "abort".
func (r *ApplyPatchApprovalRequest) Refuse() error { return r.Answer(Abort) }

// PermissionProfile is the protocol's `RequestPermissionProfile`. Network
// and FileSystem are kept as raw JSON (null when not requested) so a grant
// echoes exactly what was asked for.
type PermissionProfile struct {
	Network    json.RawMessage `json:"network"`
	FileSystem json.RawMessage `json:"fileSystem"`
}

func isNull(b json.RawMessage) bool { return compact(b) == "" }

// Granted is the `GrantedPermissionProfile` that grants everything
// requested: the members that are not null.
func (p PermissionProfile) Granted() map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	if !isNull(p.Network) {
		out["network"] = p.Network
	}
	if !isNull(p.FileSystem) {
		out["fileSystem"] = p.FileSystem
	}
	return out
}

// Describe lists what is requested, one line each, for the form:
// "network access", "read: /a, /b", "write: /c", "write /d (entry)" …
func (p PermissionProfile) Describe() []string {
	var out []string
	if !isNull(p.Network) {
		var n struct {
			Enabled *bool `json:"enabled"`
		}
		if json.Unmarshal(p.Network, &n) == nil && n.Enabled != nil && !*n.Enabled {
			out = append(out, "network access: off")
		} else {
			out = append(out, "network access")
		}
	}
	if !isNull(p.FileSystem) {
		var fs struct {
			Read    []string `json:"read"`
			Write   []string `json:"write"`
			Entries []struct {
				Path   json.RawMessage `json:"path"`
				Access string          `json:"access"`
			} `json:"entries"`
		}
		if err := json.Unmarshal(p.FileSystem, &fs); err != nil {
			out = append(out, "file system: "+string(p.FileSystem))
			return out
		}
		if len(fs.Read) > 0 {
			out = append(out, "read: "+strings.Join(fs.Read, ", "))
		}
		if len(fs.Write) > 0 {
			out = append(out, "write: "+strings.Join(fs.Write, ", "))
		}
		for _, e := range fs.Entries {
			var path struct {
				Type    string          `json:"type"`
				Path    string          `json:"path"`
				Pattern string          `json:"pattern"`
				Value   json.RawMessage `json:"value"`
			}
			what := string(e.Path)
			if json.Unmarshal(e.Path, &path) == nil {
				switch path.Type {
				case "path":
					what = path.Path
				case "glob_pattern":
					what = path.Pattern
				case "special":
					what = "special " + compactRaw(path.Value)
				}
			}
			out = append(out, e.Access+": "+what)
		}
	}
	if len(out) == 0 {
		out = append(out, "(nothing specific)")
	}
	return out
}

func compactRaw(b json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return string(b)
	}
	return buf.String()
}

// PermissionsApprovalParams are the params of
// `item/permissions/requestApproval`.
type PermissionsApprovalParams struct {
	ItemRef
	EnvironmentID *string           `json:"environmentId"`
	StartedAtMs   int64             `json:"startedAtMs"`
	Cwd           string            `json:"cwd"`
	Reason        *string           `json:"reason"`
	Permissions   PermissionProfile `json:"permissions"`
}

// Permission grant scopes (`PermissionGrantScope`).
const (
	ScopeTurn    = "turn"
	ScopeSession = "session"
)

// PermissionsApprovalRequest is `item/permissions/requestApproval`: the
// agent asks for extra sandbox permissions.
type PermissionsApprovalRequest struct {
	*Request
	Params PermissionsApprovalParams
}

// PermissionsResponse is the response of `item/permissions/requestApproval`:
// the permissions granted (a `GrantedPermissionProfile`) and their scope.
type PermissionsResponse struct {
	Permissions map[string]json.RawMessage `json:"permissions"`
	Scope       string                     `json:"scope"`
}

// Grant replies {"permissions": <everything requested>, "scope": scope};
// scope is ScopeTurn or ScopeSession.
func (r *PermissionsApprovalRequest) Grant(scope string) error {
	return r.Respond(PermissionsResponse{Permissions: r.Params.Permissions.Granted(), Scope: scope})
}

// Deny replies {"permissions": {}, "scope": "turn"}: nothing granted.
func (r *PermissionsApprovalRequest) Deny() error {
	return r.Respond(PermissionsResponse{Permissions: map[string]json.RawMessage{}, Scope: ScopeTurn})
}

// Refuse implements ServerRequest: it denies.
func (r *PermissionsApprovalRequest) Refuse() error { return r.Deny() }

// NetworkApprovalContext is the protocol's `NetworkApprovalContext`: the
// host (and protocol, e.g. "https") a managed-network approval is about.
type NetworkApprovalContext struct {
	Host     string `json:"host"`
	Protocol string `json:"protocol"`
}

// DecisionKinds returns the names of the decisions in availableDecisions:
// the string itself, or the single key of an object variant (e.g.
// "acceptWithExecpolicyAmendment"). It is nil when the server sent none.
func (p CommandApprovalParams) DecisionKinds() map[string]bool {
	if len(p.AvailableDecisions) == 0 {
		return nil
	}
	out := map[string]bool{}
	for _, raw := range p.AvailableDecisions {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			out[s] = true
			continue
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) == nil {
			for k := range obj {
				out[k] = true
			}
		}
	}
	return out
}
