package backend

import (
	"encoding/json"
	"errors"
	"fmt"
)

// This file holds the thread-management, command and account methods of
// the app-server v2 protocol (codex 0.169.0) that the slash commands and
// the resume picker use, with their params and results.

// Thread sort keys (`ThreadSortKey`) for `thread/list`.
const (
	SortCreated = "created_at"
	SortUpdated = "updated_at"
)

// ThreadListParams are the params of `thread/list`. Cwd, when set, keeps
// only threads whose session cwd is exactly that absolute path; SearchTerm
// is a substring filter on the thread title; Limit is the page size.
type ThreadListParams struct {
	Cursor     *string `json:"cursor,omitempty"`
	Limit      int     `json:"limit,omitempty"`
	SortKey    string  `json:"sortKey,omitempty"`
	Cwd        string  `json:"cwd,omitempty"`
	SearchTerm string  `json:"searchTerm,omitempty"`
	// Archived lists archived threads instead of live ones.
	Archived bool `json:"archived,omitempty"`
	// AncestorThreadID lists the threads spawned by that one, at any
	// depth (its sub-agents); SourceKinds the kinds of threads to list
	// ("subAgent", …; none: the interactive ones).
	AncestorThreadID string   `json:"ancestorThreadId,omitempty"`
	SourceKinds      []string `json:"sourceKinds,omitempty"`
}

// SubAgentSources are the thread source kinds of sub-agents.
var SubAgentSources = []string{"subAgent", "subAgentReview", "subAgentCompact", "subAgentThreadSpawn", "subAgentOther"}

// Page is one page of a paged list method's result: Data, and the cursor
// of the next page (nil, or "" from some servers, on the last).
type Page[T any] struct {
	Data       []T     `json:"data"`
	NextCursor *string `json:"nextCursor"`
}

// ThreadListResponse is the result of `thread/list`.
type ThreadListResponse = Page[Thread]

// ThreadReadParams are the params of `thread/read`.
type ThreadReadParams struct {
	ThreadID     string `json:"threadId"`
	IncludeTurns bool   `json:"includeTurns"`
}

// ThreadReadResponse is the result of `thread/read`: the thread, and its
// read state (nil: the server keeps none for it).
type ThreadReadResponse struct {
	Thread    Thread           `json:"thread"`
	ReadState *ThreadReadState `json:"readState"`
}

// ThreadReadState is where a thread's unread part begins, as the server
// keeps it for every client: FirstUnread nil means read. Revision names
// the state seen; a change asked with an older one is refused.
type ThreadReadState struct {
	FirstUnread *ThreadUnreadPosition `json:"firstUnread"`
	Revision    string                `json:"revision"`
}

// ThreadUnreadPosition is the first unread place of a thread: Type
// "turn" (the earliest completed turn needing attention, TurnID) or
// "threadStart" (marked unread as a whole).
type ThreadUnreadPosition struct {
	Type   string `json:"type"`
	TurnID string `json:"turnId,omitempty"`
}

// ThreadReadStateUpdateParams are the params of `thread/readState/update`:
// Operation's Type is "read" or "unread", ExpectedRevision the revision
// of the read state the change is made on.
type ThreadReadStateUpdateParams struct {
	ThreadID         string                   `json:"threadId"`
	ExpectedRevision string                   `json:"expectedRevision"`
	Operation        ThreadReadStateOperation `json:"operation"`
}

// ThreadReadStateOperation is a read-state change: Type "read" or
// "unread".
type ThreadReadStateOperation struct {
	Type string `json:"type"`
}

// ThreadReadStateUpdateResponse is the result of
// `thread/readState/update`: the read state after the change.
type ThreadReadStateUpdateResponse struct {
	ReadState ThreadReadState `json:"readState"`
}

// ThreadForkParams are the params of `thread/fork` (by thread id).
type ThreadForkParams struct {
	ThreadID string `json:"threadId"`
	// BeforeTurnID, when set, forks before that turn: it and every later
	// turn are left out of the fork.
	BeforeTurnID   string `json:"beforeTurnId,omitempty"`
	Cwd            string `json:"cwd,omitempty"`
	ApprovalPolicy string `json:"approvalPolicy,omitempty"`
	Sandbox        string `json:"sandbox,omitempty"`
	// Config overrides codex config keys for the fork (sandbox.go).
	Config map[string]any `json:"config,omitempty"`
	// Ephemeral keeps the fork in memory only: never written, never
	// listed (an aside, aside.go).
	Ephemeral bool `json:"ephemeral,omitempty"`
	// ExcludeTurns leaves the copied history out of the answer.
	ExcludeTurns bool `json:"excludeTurns,omitempty"`
	// PredictionMode (`experimentalPredictionMode`) starts the fork from
	// the loaded parent's config, tools and history, to reuse its prompt
	// cache: it needs Ephemeral and a loaded, persisted parent, and takes
	// no overrides (Cwd, ApprovalPolicy, Sandbox, Config, BeforeTurnID).
	PredictionMode bool `json:"experimentalPredictionMode,omitempty"`
}

// ThreadUnsubscribeParams are the params of `thread/unsubscribe`.
type ThreadUnsubscribeParams struct {
	ThreadID string `json:"threadId"`
}

// ThreadUnsubscribeResponse is the result of `thread/unsubscribe`: Status
// is "unsubscribed", "notSubscribed" or "notLoaded".
type ThreadUnsubscribeResponse struct {
	Status string `json:"status"`
}

// ThreadIDParams are the params of the methods that take only a thread id:
// `thread/archive`, `thread/compact/start`.
type ThreadIDParams struct {
	ThreadID string `json:"threadId"`
}

// ThreadLoadedListParams are the params of `thread/loaded/list`: the
// page after Cursor (nil: the first), of up to Limit ids (nil: all).
type ThreadLoadedListParams struct {
	Cursor *string `json:"cursor,omitempty"`
	Limit  *uint32 `json:"limit,omitempty"`
}

// ThreadLoadedListResponse is one page of `thread/loaded/list`: the
// loaded threads' ids, and the cursor of the next page (nil: none).
type ThreadLoadedListResponse struct {
	Data       []string `json:"data"`
	NextCursor *string  `json:"nextCursor"`
}

// ThreadSetNameParams are the params of `thread/name/set`.
type ThreadSetNameParams struct {
	ThreadID string `json:"threadId"`
	Name     string `json:"name"`
}

// ThreadShellCommandParams are the params of `thread/shellCommand`: the
// command runs unsandboxed in the thread's shell and shows up as a
// commandExecution item of the thread.
type ThreadShellCommandParams struct {
	ThreadID string `json:"threadId"`
	Command  string `json:"command"`
}

// ReviewStartParams are the params of `review/start`; Target is e.g.
// {"type":"uncommittedChanges"}.
type ReviewStartParams struct {
	ThreadID string       `json:"threadId"`
	Target   ReviewTarget `json:"target"`
}

// ReviewTarget is the protocol's `ReviewTarget` (only the variants without
// fields plus baseBranch).
type ReviewTarget struct {
	Type   string `json:"type"`
	Branch string `json:"branch,omitempty"`
}

// ModelListParams are the params of `model/list`.
type ModelListParams struct {
	Cursor *string `json:"cursor,omitempty"`
	Limit  int     `json:"limit,omitempty"`
}

// ModelListResponse is the result of `model/list`.
type ModelListResponse = Page[ModelInfo]

// ModelInfo is the protocol's `Model` (a catalog entry of `model/list`).
type ModelInfo struct {
	ID                        string                  `json:"id"`
	Model                     string                  `json:"model"`
	DisplayName               string                  `json:"displayName"`
	Description               string                  `json:"description"`
	Hidden                    bool                    `json:"hidden"`
	SupportedReasoningEfforts []ReasoningEffortOption `json:"supportedReasoningEfforts"`
	DefaultReasoningEffort    string                  `json:"defaultReasoningEffort"`
	IsDefault                 bool                    `json:"isDefault"`
	// InputModalities are what the model takes in a user turn ("text",
	// "image", "audio"); nil when the server leaves it out, which the
	// protocol defaults to text and image (see TakesImages).
	InputModalities []string `json:"inputModalities"`
}

// ReasoningEffortOption is the protocol's `ReasoningEffortOption`.
type ReasoningEffortOption struct {
	ReasoningEffort string `json:"reasoningEffort"`
	Description     string `json:"description"`
}

// AccountReadParams are the params of `account/read`.
type AccountReadParams struct {
	RefreshToken bool `json:"refreshToken"`
}

// AccountReadResponse is the result of `account/read` (`GetAccountResponse`).
// Auth is needed when RequiresOpenaiAuth is set and Account is nil.
type AccountReadResponse struct {
	Account            *Account `json:"account"`
	RequiresOpenaiAuth bool     `json:"requiresOpenaiAuth"`
}

// NeedsLogin reports whether the user must log in before a turn can run.
func (r AccountReadResponse) NeedsLogin() bool { return r.RequiresOpenaiAuth && r.Account == nil }

// Account is the protocol's `Account`; Type is "apiKey", "chatgpt",
// "amazonBedrock" or "gcp".
type Account struct {
	Type     string  `json:"type"`
	Email    *string `json:"email"`
	PlanType string  `json:"planType"`
}

// Describe renders the account in one line ("ChatGPT a@b.c (plus)", "API key").
func (a *Account) Describe() string {
	if a == nil {
		return "not logged in"
	}
	switch a.Type {
	case "apiKey":
		return "API key"
	case "chatgpt":
		s := "ChatGPT"
		if a.Email != nil && *a.Email != "" {
			s += " " + *a.Email
		}
		if a.PlanType != "" {
			s += " (" + a.PlanType + ")"
		}
		return s
	}
	return a.Type
}

// LoginStartParams are the params of `account/login/start`: Type "apiKey"
// with APIKey, or "chatgptDeviceCode".
type LoginStartParams struct {
	Type   string `json:"type"`
	APIKey string `json:"apiKey,omitempty"`
}

// LoginStartResponse is the result of `account/login/start`; the device
// code flow fills LoginID, VerificationURL and UserCode.
type LoginStartResponse struct {
	Type            string `json:"type"`
	LoginID         string `json:"loginId"`
	VerificationURL string `json:"verificationUrl"`
	UserCode        string `json:"userCode"`
}

// LoginCompletedEvent follows `account/login/completed`.
type LoginCompletedEvent struct {
	LoginID *string `json:"loginId"`
	Success bool    `json:"success"`
	Error   *string `json:"error"`
}

// Thread implements Event; the login is not thread-scoped.
func (LoginCompletedEvent) Thread() string { return "" }

// McpServerStatusListParams are the params of `mcpServerStatus/list`.
type McpServerStatusListParams struct {
	ThreadID string `json:"threadId,omitempty"`
	Detail   string `json:"detail,omitempty"`
}

// McpServerStatusListResponse is the result of `mcpServerStatus/list`.
type McpServerStatusListResponse struct {
	Data []McpServerStatus `json:"data"`
}

// McpServerStatus is the protocol's `McpServerStatus`, reduced to what
// /mcp shows.
type McpServerStatus struct {
	Name          string                     `json:"name"`
	RuntimeStatus *string                    `json:"runtimeStatus"`
	AuthStatus    string                     `json:"authStatus"`
	Tools         map[string]json.RawMessage `json:"tools"`
	ToolsError    *string                    `json:"toolsError"`
}

// FuzzyFileSearchParams are the params of `fuzzyFileSearch`.
type FuzzyFileSearchParams struct {
	Query             string   `json:"query"`
	Roots             []string `json:"roots"`
	CancellationToken *string  `json:"cancellationToken"`
}

// FuzzyFileSearchResponse is the result of `fuzzyFileSearch`.
type FuzzyFileSearchResponse struct {
	Files []FuzzyFileMatch `json:"files"`
}

// FuzzyFileMatch is the protocol's `FuzzyFileSearchResult`; Path is
// relative to Root.
type FuzzyFileMatch struct {
	Root     string  `json:"root"`
	Path     string  `json:"path"`
	FileName string  `json:"file_name"`
	Score    float64 `json:"score"`
}

// TurnOptions override the thread's settings for a turn and the turns
// after it (`turn/start` model, effort, approvalPolicy, sandboxPolicy).
// Empty fields keep the thread's settings.
type TurnOptions struct {
	Model, Effort, ApprovalPolicy, Sandbox string
}

// SandboxPolicyFor returns the `SandboxPolicy` JSON for a -s mode
// ("read-only", "workspace-write", "danger-full-access"), or nil for "".
// Its workspace-write is codex's defaults: a session sends the user's
// settings instead (Session.WorkspaceWrite).
func SandboxPolicyFor(mode string) (json.RawMessage, error) {
	switch mode {
	case "":
		return nil, nil
	case "read-only":
		return json.RawMessage(`{"type":"readOnly","networkAccess":false}`), nil
	case "workspace-write":
		return json.RawMessage(`{"type":"workspaceWrite","writableRoots":[],"networkAccess":false,"excludeTmpdirEnvVar":false,"excludeSlashTmp":false}`), nil
	case "danger-full-access":
		return json.RawMessage(`{"type":"dangerFullAccess"}`), nil
	}
	return nil, fmt.Errorf("unknown sandbox mode %q", mode)
}

// ErrNoActiveTurn is Steer's error when the session has already seen
// the turn end (turn/completed): the same race as the server's -32600
// ("no active turn"), only found before the request is sent.
var ErrNoActiveTurn = errors.New("no turn is running")
