package backend

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
)

// This file adds the server requests of the 0.169.0 schema beyond command
// and file-change approvals and dynamic tool calls: the legacy approvals,
// permission grants, user input, MCP elicitations, and the requests tandem
// answers without asking anyone (auth token refresh, attestation, current
// time).

func init() {
	requestDecoders["execCommandApproval"] = func(base *Request, params json.RawMessage) (ServerRequest, error) {
		r := &ExecCommandApprovalRequest{Request: base}
		err := json.Unmarshal(params, &r.Params)
		r.threadID = r.Params.ConversationID
		return r, err
	}
	requestDecoders["applyPatchApproval"] = func(base *Request, params json.RawMessage) (ServerRequest, error) {
		r := &ApplyPatchApprovalRequest{Request: base}
		err := json.Unmarshal(params, &r.Params)
		r.threadID = r.Params.ConversationID
		return r, err
	}
	requestDecoders["item/permissions/requestApproval"] = func(base *Request, params json.RawMessage) (ServerRequest, error) {
		r := &PermissionsApprovalRequest{Request: base}
		err := json.Unmarshal(params, &r.Params)
		r.threadID = r.Params.ThreadID
		return r, err
	}
	requestDecoders["item/tool/requestUserInput"] = func(base *Request, params json.RawMessage) (ServerRequest, error) {
		r := &UserInputRequest{Request: base}
		err := json.Unmarshal(params, &r.Params)
		r.threadID = r.Params.ThreadID
		return r, err
	}
	requestDecoders["mcpServer/elicitation/request"] = func(base *Request, params json.RawMessage) (ServerRequest, error) {
		r := &ElicitationRequest{Request: base}
		err := json.Unmarshal(params, &r.Params)
		r.threadID = r.Params.ThreadID
		return r, err
	}
	requestDecoders["account/chatgptAuthTokens/refresh"] = func(base *Request, params json.RawMessage) (ServerRequest, error) {
		r := &AuthTokensRefreshRequest{Request: base}
		return r, json.Unmarshal(params, &r.Params)
	}
	requestDecoders["attestation/generate"] = func(base *Request, params json.RawMessage) (ServerRequest, error) {
		return &AttestationRequest{Request: base}, nil
	}
	requestDecoders["currentTime/read"] = func(base *Request, params json.RawMessage) (ServerRequest, error) {
		r := &CurrentTimeRequest{Request: base, Now: time.Now}
		err := json.Unmarshal(params, &r.Params)
		r.threadID = r.Params.ThreadID
		return r, err
	}
}

// CodeUnsupported is the JSON-RPC error code (in the implementation-defined
// server-error range) tandem answers requests it knows but cannot serve,
// such as `account/chatgptAuthTokens/refresh`.
const CodeUnsupported = -32000

// AutoAnswered is a ServerRequest that needs no person: the model calls
// AutoAnswer as soon as it arrives and shows Notice, if any, as a banner.
type AutoAnswered interface {
	ServerRequest
	// AutoAnswer sends the request's fixed answer.
	AutoAnswer() error
	// Notice is one line for the user saying what happened ("" = silent).
	Notice() string
}

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
	*Request
	Params ExecCommandApprovalParams
}

// Answer replies {"decision": d}.
func (r *ExecCommandApprovalRequest) Answer(d Decision) error {
	return r.Respond(map[string]any{"decision": d})
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

// Diff returns the change as unified-diff text: the diff of an update, or
// the content as added ("+") or removed ("-") lines.
func (c LegacyFileChange) Diff() string {
	switch c.Type {
	case "add", "delete":
		sign := "+"
		if c.Type == "delete" {
			sign = "-"
		}
		var b strings.Builder
		for _, l := range strings.Split(strings.TrimSuffix(c.Content, "\n"), "\n") {
			b.WriteString(sign + l + "\n")
		}
		return b.String()
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
	out := make([]string, 0, len(p.FileChanges))
	for k := range p.FileChanges {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ApplyPatchApprovalRequest is the legacy `applyPatchApproval`. Answer it
// with Approved, ApprovedForSession, Denied(…) or Abort.
type ApplyPatchApprovalRequest struct {
	*Request
	Params ApplyPatchApprovalParams
}

// Answer replies {"decision": d}.
func (r *ApplyPatchApprovalRequest) Answer(d Decision) error {
	return r.Respond(map[string]any{"decision": d})
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

func isNull(b json.RawMessage) bool {
	b = bytes.TrimSpace(b)
	return len(b) == 0 || bytes.Equal(b, []byte("null"))
}

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
	ThreadID      string            `json:"threadId"`
	TurnID        string            `json:"turnId"`
	ItemID        string            `json:"itemId"`
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

// Grant replies {"permissions": <everything requested>, "scope": scope};
// scope is ScopeTurn or ScopeSession.
func (r *PermissionsApprovalRequest) Grant(scope string) error {
	return r.Respond(map[string]any{"permissions": r.Params.Permissions.Granted(), "scope": scope})
}

// Deny replies {"permissions": {}, "scope": "turn"}: nothing granted.
func (r *PermissionsApprovalRequest) Deny() error {
	return r.Respond(map[string]any{"permissions": map[string]any{}, "scope": ScopeTurn})
}

// Refuse implements ServerRequest: it denies.
func (r *PermissionsApprovalRequest) Refuse() error { return r.Deny() }

// UserInputOption is `ToolRequestUserInputOption`.
type UserInputOption struct {
	Label       string `json:"label"`
	Description string `json:"description"`
}

// UserInputQuestion is `ToolRequestUserInputQuestion`: IsOther offers free
// text besides the options, IsSecret masks the answer.
type UserInputQuestion struct {
	ID       string            `json:"id"`
	Header   string            `json:"header"`
	Question string            `json:"question"`
	IsOther  bool              `json:"isOther"`
	IsSecret bool              `json:"isSecret"`
	Options  []UserInputOption `json:"options"`
}

// UserInputParams are the params of `item/tool/requestUserInput`.
type UserInputParams struct {
	ThreadID   string              `json:"threadId"`
	TurnID     string              `json:"turnId"`
	ItemID     string              `json:"itemId"`
	Questions  []UserInputQuestion `json:"questions"`
	IsBlocking bool                `json:"isBlocking"`
}

// UserInputRequest is `item/tool/requestUserInput`: the agent asks the
// user one to three questions.
type UserInputRequest struct {
	*Request
	Params UserInputParams
}

// Answer replies {"answers": {id: {"answers": [...]}}} with answers keyed
// by question id.
func (r *UserInputRequest) Answer(answers map[string][]string) error {
	out := make(map[string]any, len(answers))
	for id, a := range answers {
		out[id] = map[string]any{"answers": nonNil(a)}
	}
	return r.Respond(map[string]any{"answers": out})
}

// Refuse implements ServerRequest: it answers no question ({"answers":{}}).
func (r *UserInputRequest) Refuse() error { return r.Answer(nil) }

// Elicitation modes of `mcpServer/elicitation/request`.
const (
	ElicitForm             = "form"
	ElicitURL              = "url"
	ElicitUserVerification = "openai/userVerification"
)

// ElicitationParams are the params of `mcpServer/elicitation/request`. Mode
// "form" (also "openai/form", "openaiForm") carries Message and
// RequestedSchema; "url" carries Message, URL and ElicitationID;
// "openai/userVerification" carries Title, Description and Challenge.
type ElicitationParams struct {
	ThreadID        string          `json:"threadId"`
	TurnID          *string         `json:"turnId"`
	ServerName      string          `json:"serverName"`
	Mode            string          `json:"mode"`
	Meta            json.RawMessage `json:"_meta"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
	URL             string          `json:"url"`
	ElicitationID   string          `json:"elicitationId"`
	Title           string          `json:"title"`
	Description     string          `json:"description"`
	Challenge       string          `json:"challenge"`
}

// IsForm reports whether the mode asks for a form.
func (p ElicitationParams) IsForm() bool {
	return p.Mode == ElicitForm || p.Mode == "openai/form" || p.Mode == "openaiForm"
}

// ElicitOption is one choice of an enum property (`McpElicitationConstOption`).
type ElicitOption struct {
	Const string `json:"const"`
	Title string `json:"title"`
}

// ElicitProperty is one property of an elicitation schema
// (`McpElicitationPrimitiveSchema`). Kind says which field it needs.
type ElicitProperty struct {
	Name        string          `json:"-"`
	Type        string          `json:"type"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Format      string          `json:"format"`
	MinLength   *int            `json:"minLength"`
	MaxLength   *int            `json:"maxLength"`
	Minimum     *float64        `json:"minimum"`
	Maximum     *float64        `json:"maximum"`
	MinItems    *int            `json:"minItems"`
	MaxItems    *int            `json:"maxItems"`
	Default     json.RawMessage `json:"default"`
	Enum        []string        `json:"enum"`
	EnumNames   []string        `json:"enumNames"`
	OneOf       []ElicitOption  `json:"oneOf"`
	Items       *struct {
		Type  string         `json:"type"`
		Enum  []string       `json:"enum"`
		AnyOf []ElicitOption `json:"anyOf"`
	} `json:"items"`
	Required bool `json:"-"`
}

// Property kinds returned by ElicitProperty.Kind.
const (
	KindString    = "string"
	KindNumber    = "number"
	KindInteger   = "integer"
	KindBoolean   = "boolean"
	KindEnum      = "enum"
	KindMultiEnum = "multiEnum"
)

// Kind is one of KindString, KindNumber, KindInteger, KindBoolean,
// KindEnum (single choice) or KindMultiEnum, or "" when unsupported.
func (p ElicitProperty) Kind() string {
	switch p.Type {
	case "string":
		if len(p.Enum) > 0 || len(p.OneOf) > 0 {
			return KindEnum
		}
		return KindString
	case "number":
		return KindNumber
	case "integer":
		return KindInteger
	case "boolean":
		return KindBoolean
	case "array":
		if p.Items != nil && (len(p.Items.Enum) > 0 || len(p.Items.AnyOf) > 0) {
			return KindMultiEnum
		}
	}
	return ""
}

// Options lists an enum property's choices (value and title), whichever
// of the schema's enum forms it uses.
func (p ElicitProperty) Options() []ElicitOption {
	if len(p.OneOf) > 0 {
		return p.OneOf
	}
	enum := p.Enum
	if p.Items != nil {
		if len(p.Items.AnyOf) > 0 {
			return p.Items.AnyOf
		}
		enum = p.Items.Enum
	}
	out := make([]ElicitOption, 0, len(enum))
	for i, v := range enum {
		title := v
		if i < len(p.EnumNames) && p.EnumNames[i] != "" {
			title = p.EnumNames[i]
		}
		out = append(out, ElicitOption{Const: v, Title: title})
	}
	return out
}

// Schema decodes RequestedSchema into its properties, in the order they
// appear on the wire, with Required set. It fails on anything that is not
// an object schema.
func (p ElicitationParams) Schema() ([]ElicitProperty, error) {
	var s struct {
		Type       string          `json:"type"`
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(p.RequestedSchema, &s); err != nil {
		return nil, fmt.Errorf("requestedSchema: %w", err)
	}
	if s.Type != "object" {
		return nil, fmt.Errorf("requestedSchema: type %q is not \"object\"", s.Type)
	}
	req := map[string]bool{}
	for _, r := range s.Required {
		req[r] = true
	}
	if isNull(s.Properties) {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(s.Properties))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("requestedSchema: properties is not an object")
	}
	var out []ElicitProperty
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("requestedSchema: %w", err)
		}
		name, _ := t.(string)
		var prop ElicitProperty
		if err := dec.Decode(&prop); err != nil {
			return nil, fmt.Errorf("requestedSchema: property %q: %w", name, err)
		}
		prop.Name, prop.Required = name, req[name]
		out = append(out, prop)
	}
	return out, nil
}

// ElicitationRequest is `mcpServer/elicitation/request`: an MCP server asks
// the user for input (a form) or to visit a URL.
type ElicitationRequest struct {
	*Request
	Params ElicitationParams
}

// Elicitation actions (`McpServerElicitationAction`).
const (
	ElicitAccept  = "accept"
	ElicitDecline = "decline"
	ElicitCancel  = "cancel"
)

// Accept replies {"action":"accept","content":content,"_meta":null};
// content is the form's values keyed by property name (nil for URL mode).
func (r *ElicitationRequest) Accept(content map[string]ElicitValue) error {
	var c any
	if content != nil {
		c = content
	}
	return r.Respond(map[string]any{"action": ElicitAccept, "content": c, "_meta": nil})
}

// Decline replies {"action":"decline","content":null,"_meta":null}.
func (r *ElicitationRequest) Decline() error {
	return r.Respond(map[string]any{"action": ElicitDecline, "content": nil, "_meta": nil})
}

// Cancel replies {"action":"cancel","content":null,"_meta":null}.
func (r *ElicitationRequest) Cancel() error {
	return r.Respond(map[string]any{"action": ElicitCancel, "content": nil, "_meta": nil})
}

// Refuse implements ServerRequest: it cancels.
func (r *ElicitationRequest) Refuse() error { return r.Cancel() }

// AuthTokensRefreshParams are the params of
// `account/chatgptAuthTokens/refresh`.
type AuthTokensRefreshParams struct {
	Reason            string  `json:"reason"`
	PreviousAccountID *string `json:"previousAccountId"`
}

// AuthTokensRefreshRequest is `account/chatgptAuthTokens/refresh`. tandem
// does not manage ChatGPT tokens, so it always answers with an error.
type AuthTokensRefreshRequest struct {
	*Request
	Params AuthTokensRefreshParams
}

// AuthRefreshMessage is the error message answering
// `account/chatgptAuthTokens/refresh`.
const AuthRefreshMessage = "tandem does not manage ChatGPT auth tokens; sign in again with `codex login`"

// AutoAnswer implements AutoAnswered: error CodeUnsupported.
func (r *AuthTokensRefreshRequest) AutoAnswer() error {
	return r.RespondError(CodeUnsupported, AuthRefreshMessage)
}

// Notice implements AutoAnswered.
func (r *AuthTokensRefreshRequest) Notice() string {
	return "codex asked for fresh ChatGPT tokens, which tandem cannot provide; run `codex login` if requests fail"
}

// Refuse implements ServerRequest: the same error.
func (r *AuthTokensRefreshRequest) Refuse() error { return r.AutoAnswer() }

// AttestationRequest is `attestation/generate`. tandem cannot attest, so
// it always answers with an error.
type AttestationRequest struct {
	*Request
}

// AttestationMessage is the error message answering `attestation/generate`.
const AttestationMessage = "tandem cannot generate client attestations"

// AutoAnswer implements AutoAnswered: error CodeUnsupported.
func (r *AttestationRequest) AutoAnswer() error {
	return r.RespondError(CodeUnsupported, AttestationMessage)
}

// Notice implements AutoAnswered (silent).
func (r *AttestationRequest) Notice() string { return "" }

// Refuse implements ServerRequest: the same error.
func (r *AttestationRequest) Refuse() error { return r.AutoAnswer() }

// CurrentTimeParams are the params of `currentTime/read`.
type CurrentTimeParams struct {
	ThreadID string `json:"threadId"`
}

// CurrentTimeRequest is `currentTime/read`: answered at once with the
// clock.
type CurrentTimeRequest struct {
	*Request
	Params CurrentTimeParams
	// Now is the clock (time.Now unless a test pins it).
	Now func() time.Time
}

// AutoAnswer implements AutoAnswered: {"currentTimeAt": unix seconds}.
func (r *CurrentTimeRequest) AutoAnswer() error {
	return r.Respond(map[string]any{"currentTimeAt": r.Now().Unix()})
}

// Notice implements AutoAnswered (silent).
func (r *CurrentTimeRequest) Notice() string { return "" }

// Refuse implements ServerRequest: telling the time is harmless, so it
// answers the same way.
func (r *CurrentTimeRequest) Refuse() error { return r.AutoAnswer() }

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
