package backend

import (
	"encoding/json"
	"strings"
)

// The protocol values below follow the app-server v2 schema of codex 0.169.0
// (`codex app-server generate-ts --experimental`). Only the fields tandem
// uses are declared; unknown fields are ignored on decode.

// ClientInfo identifies tandem in `initialize`.
type ClientInfo struct {
	Name    string  `json:"name"`
	Title   *string `json:"title"`
	Version string  `json:"version"`
}

// InitializeParams are the params of `initialize`.
type InitializeParams struct {
	ClientInfo   ClientInfo             `json:"clientInfo"`
	Capabilities InitializeCapabilities `json:"capabilities"`
}

// InitializeCapabilities are the client capabilities of `initialize`.
type InitializeCapabilities struct {
	ExperimentalAPI    bool `json:"experimentalApi"`
	RequestAttestation bool `json:"requestAttestation"`
}

// InitializeResponse is the result of `initialize`.
type InitializeResponse struct {
	UserAgent  string `json:"userAgent"`
	CodexHome  string `json:"codexHome"`
	PlatformOS string `json:"platformOs"`
}

// DynamicToolSpec registers a client-implemented tool in `thread/start`
// (`DynamicToolSpec` of type "function"). Calls arrive as `item/tool/call`.
type DynamicToolSpec struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// ThreadStartParams are the params of `thread/start`.
type ThreadStartParams struct {
	Model          string            `json:"model,omitempty"`
	Cwd            string            `json:"cwd,omitempty"`
	ApprovalPolicy string            `json:"approvalPolicy,omitempty"`
	Sandbox        string            `json:"sandbox,omitempty"`
	DynamicTools   []DynamicToolSpec `json:"dynamicTools,omitempty"`
	// Config overrides codex config keys ("dotted.key": value) for the
	// thread; tandem sends the merged writable roots (sandbox.go).
	Config map[string]any `json:"config,omitempty"`
}

// ThreadResumeParams are the params of `thread/resume`.
type ThreadResumeParams struct {
	ThreadID       string `json:"threadId"`
	Model          string `json:"model,omitempty"`
	Cwd            string `json:"cwd,omitempty"`
	ApprovalPolicy string `json:"approvalPolicy,omitempty"`
	Sandbox        string `json:"sandbox,omitempty"`
	// ExcludeTurns leaves Thread.Turns out of the answer (and avoids the
	// server's full-history warning).
	ExcludeTurns bool `json:"excludeTurns,omitempty"`
	// InitialTurnsPage asks for the newest turns along with the answer
	// (its InitialTurnsPage), as `thread/turns/list` would give them.
	InitialTurnsPage *TurnsPageParams `json:"initialTurnsPage,omitempty"`
	// Config overrides codex config keys for the thread (sandbox.go).
	Config map[string]any `json:"config,omitempty"`
}

// Thread is the protocol's `Thread`. Turns is filled only by
// `thread/resume`, `thread/fork` and `thread/read`.
type Thread struct {
	ID        string  `json:"id"`
	Preview   string  `json:"preview"`
	Name      *string `json:"name"`
	Model     *string `json:"model"`
	Cwd       string  `json:"cwd"`
	CreatedAt int64   `json:"createdAt"` // Unix seconds
	UpdatedAt int64   `json:"updatedAt"` // Unix seconds
	Path      *string `json:"path"`
	Turns     []Turn  `json:"turns"`
	// A sub-agent's thread: its parent, and the nickname and role it was
	// spawned with (nil for an ordinary thread).
	ParentThreadID *string `json:"parentThreadId"`
	AgentNickname  *string `json:"agentNickname"`
	AgentRole      *string `json:"agentRole"`
	// Status is the thread's `ThreadStatus` on this server: "notLoaded",
	// "idle" (loaded), "active" (a turn runs; ActiveFlags such as
	// "waitingOnApproval") or "systemError"; nil when not sent.
	Status *ThreadStatus `json:"status"`
}

// ThreadStatus is the protocol's `ThreadStatus`.
type ThreadStatus struct {
	Type        string   `json:"type"`
	ActiveFlags []string `json:"activeFlags,omitempty"`
}

// Active reports whether a turn runs on the thread (status "active").
func (t Thread) Active() bool { return t.Status != nil && t.Status.Type == "active" }

// WaitingOnUser reports whether the thread's turn waits for an approval
// or an answer (active flags "waitingOnApproval", "waitingOnUserInput").
func (t Thread) WaitingOnUser() bool {
	if !t.Active() {
		return false
	}
	for _, f := range t.Status.ActiveFlags {
		if f == "waitingOnApproval" || f == "waitingOnUserInput" {
			return true
		}
	}
	return false
}

// Idle reports whether the thread is loaded on the server with no turn
// running (status "idle").
func (t Thread) Idle() bool { return t.Status != nil && t.Status.Type == "idle" }

// RunningTurn is the id of the thread's last turn when it is still in
// progress (a thread resumed while its turn runs), else "".
func (t Thread) RunningTurn() string {
	if n := len(t.Turns); n > 0 && t.Turns[n-1].Status == TurnInProgress {
		return t.Turns[n-1].ID
	}
	return ""
}

// ThreadResponse is the result of `thread/start`, `thread/resume` and
// `thread/fork`. ApprovalPolicy is a string for the named policies and the
// raw JSON text for a granular one.
type ThreadResponse struct {
	Thread          Thread          `json:"thread"`
	Model           string          `json:"model"`
	ModelProvider   string          `json:"modelProvider"`
	Cwd             string          `json:"cwd"`
	ApprovalPolicy  json.RawMessage `json:"approvalPolicy"`
	Sandbox         SandboxPolicy   `json:"sandbox"`
	ReasoningEffort *string         `json:"reasoningEffort"`
	// InitialTurnsPage is the page ThreadResumeParams.InitialTurnsPage
	// asked for; the session moves it into Thread.Turns (takePage).
	InitialTurnsPage *TurnsPage `json:"initialTurnsPage"`
	// Older is the cursor of the thread's turns before Thread.Turns, for
	// Client.ListTurns: "" when Thread.Turns begins the thread (a whole
	// history, or a page that reached its first turn). Not on the wire.
	Older string `json:"-"`
	// Elsewhere is set by Session.ResumeThread when the thread was
	// recorded in another directory than the session's Cwd (nil when the
	// same, or either is unknown). Not on the wire.
	Elsewhere *Elsewhere `json:"-"`
	// paged says the answer had an InitialTurnsPage (takePage).
	paged bool
}

// SandboxPolicy is the protocol's `SandboxPolicy`: its type and, for
// workspaceWrite, the writable roots beyond the workspace (absolute paths
// on the server's machine).
type SandboxPolicy struct {
	Type          string   `json:"type"`
	WritableRoots []string `json:"writableRoots,omitempty"`
}

// Mode returns the sandbox as a -s flag value ("workspace-write" …).
func (p SandboxPolicy) Mode() string {
	switch p.Type {
	case "readOnly":
		return "read-only"
	case "workspaceWrite":
		return "workspace-write"
	case "dangerFullAccess":
		return "danger-full-access"
	}
	return p.Type
}

// PolicyString renders an `AskForApproval` value: the name for the named
// policies, "granular" otherwise.
func PolicyString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if strings.Contains(string(raw), "granular") {
		return "granular"
	}
	return ""
}

// UserInput is one element of `turn/start` and `turn/steer` input
// (`UserInput`): the "text" variant (Text, TextElements), "localImage"
// (Path, an image file on the app-server's machine) or "skill" (Name and
// Path of the skill's SKILL.md, as `skills/list` gives them).
type UserInput struct {
	Type         string `json:"type"`
	Text         string `json:"text,omitempty"`
	TextElements []any  `json:"text_elements,omitempty"`
	Path         string `json:"path,omitempty"`
	Name         string `json:"name,omitempty"`
}

// MarshalJSON writes the fields of u's variant only: "text" always has its
// text and text_elements, even when empty.
func (u UserInput) MarshalJSON() ([]byte, error) {
	switch u.Type {
	case "text":
		els := u.TextElements
		if els == nil {
			els = []any{}
		}
		return json.Marshal(struct {
			Type         string `json:"type"`
			Text         string `json:"text"`
			TextElements []any  `json:"text_elements"`
		}{u.Type, u.Text, els})
	case "localImage":
		return json.Marshal(struct {
			Type string `json:"type"`
			Path string `json:"path"`
		}{u.Type, u.Path})
	default:
		type plain UserInput
		return json.Marshal(plain(u))
	}
}

// TextInput returns the input list for a plain text prompt.
func TextInput(text string) []UserInput {
	return []UserInput{{Type: "text", Text: text, TextElements: []any{}}}
}

// SkillRef names one skill to send with a message: the `skill` input's
// name and the path of its SKILL.md.
type SkillRef struct {
	Name string
	Path string
}

// Inputs returns in's `UserInput` list: the text element (when there is
// text, or nothing at all to send), then one "localImage" per image path
// and one "skill" per skill, in order. A message of attachments alone has
// no text element.
func (in TurnInput) Inputs() []UserInput {
	var out []UserInput
	if in.Text != "" || len(in.Images)+len(in.Skills) == 0 {
		out = TextInput(in.Text)
	}
	for _, p := range in.Images {
		out = append(out, UserInput{Type: "localImage", Path: p})
	}
	for _, sk := range in.Skills {
		out = append(out, UserInput{Type: "skill", Name: sk.Name, Path: sk.Path})
	}
	return out
}

// TurnStartParams are the params of `turn/start`: the input, and the
// overrides of the thread's settings for this turn and those after it
// (empty: the thread's own). SandboxPolicy is a `SandboxPolicy` as
// SandboxPolicyFor or WorkspaceWrite.Policy make it.
type TurnStartParams struct {
	ThreadID       string          `json:"threadId"`
	Input          []UserInput     `json:"input"`
	Model          string          `json:"model,omitempty"`
	Effort         string          `json:"effort,omitempty"`
	ApprovalPolicy string          `json:"approvalPolicy,omitempty"`
	SandboxPolicy  json.RawMessage `json:"sandboxPolicy,omitempty"`
	// CollaborationMode is experimental in 0.169.0.
	CollaborationMode *CollaborationMode `json:"collaborationMode,omitempty"`
}

// TurnSteerParams are the params of `turn/steer`.
type TurnSteerParams struct {
	ThreadID       string      `json:"threadId"`
	Input          []UserInput `json:"input"`
	ExpectedTurnID string      `json:"expectedTurnId"`
}

// TurnSteerResponse is the result of `turn/steer`: the running turn the
// input joined.
type TurnSteerResponse struct {
	TurnID string `json:"turnId"`
}

// TurnInterruptParams are the params of `turn/interrupt`.
type TurnInterruptParams struct {
	ThreadID string `json:"threadId"`
	TurnID   string `json:"turnId"`
}

// TurnResponse is the result of `turn/start`.
type TurnResponse struct {
	Turn Turn `json:"turn"`
}

// Turn statuses (`TurnStatus`).
const (
	TurnCompleted   = "completed"
	TurnInterrupted = "interrupted"
	TurnFailed      = "failed"
	TurnInProgress  = "inProgress"
)

// Turn is the protocol's `Turn`.
type Turn struct {
	ID         string     `json:"id"`
	Items      []Item     `json:"items"`
	Status     string     `json:"status"`
	Error      *TurnError `json:"error"`
	DurationMs *int64     `json:"durationMs"`
}

// TurnError is the protocol's `TurnError`.
type TurnError struct {
	Message           string  `json:"message"`
	AdditionalDetails *string `json:"additionalDetails"`
}

// Item is a `ThreadItem`, flattened: Type says which variant it is
// ("userMessage", "agentMessage", "reasoning", "plan", "commandExecution",
// "fileChange", "mcpToolCall", "dynamicToolCall", "webSearch",
// "imageView", "enteredReviewMode", "exitedReviewMode",
// "contextCompaction", …) and only that variant's fields are set.
type Item struct {
	Type string `json:"type"`
	ID   string `json:"id"`

	// userMessage
	Content []UserContent `json:"content"`
	// agentMessage, plan
	Text string `json:"text"`
	// reasoning
	Summary []string `json:"summary"`
	// commandExecution
	Command          string  `json:"command"`
	Cwd              string  `json:"cwd"`
	Status           string  `json:"status"`
	AggregatedOutput *string `json:"aggregatedOutput"`
	ExitCode         *int    `json:"exitCode"`
	DurationMs       *int64  `json:"durationMs"`
	// Source is "agent", "userShell", "unifiedExecStartup" or
	// "unifiedExecInteraction" (`CommandExecutionSource`).
	Source string `json:"source"`
	// fileChange
	Changes []FileChange `json:"changes"`
	// mcpToolCall, dynamicToolCall
	Server    string          `json:"server"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Success   *bool           `json:"success"`
	// mcpToolCall: Result (`McpToolCallResult`, raw JSON) or Error.
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
	// dynamicToolCall: the reply's content items.
	ContentItems []ContentItem `json:"contentItems"`
	// webSearch: Results are the server's opaque result objects.
	Query   string          `json:"query"`
	Results json.RawMessage `json:"results"`
	// imageView
	Path string `json:"path"`
	// enteredReviewMode, exitedReviewMode
	Review string `json:"review"`
	// collabAgentToolCall (Tool is "spawnAgent", "sendInput", "wait", …):
	// the prompt sent, the agents' threads and their last known states.
	Prompt            *string                     `json:"prompt"`
	Model             *string                     `json:"model"`
	SenderThreadID    string                      `json:"senderThreadId"`
	ReceiverThreadIDs []string                    `json:"receiverThreadIds"`
	AgentsStates      map[string]CollabAgentState `json:"agentsStates"`
	// subAgentActivity: Activity is "started", "interacted",
	// "interrupted" or "completed" (the protocol's `kind`).
	AgentPath     string `json:"agentPath"`
	AgentThreadID string `json:"agentThreadId"`
	Activity      string `json:"kind"`
	// imageGeneration
	SavedPath     *string `json:"savedPath"`
	RevisedPrompt *string `json:"revisedPrompt"`
	// hookPrompt: the text each hook run added to the prompt.
	Fragments []HookPromptFragment `json:"fragments"`
}

// CollabAgentState is a sub-agent's last known state in a collab tool
// call: Status "pendingInit", "running", "interrupted", "completed",
// "errored", "shutdown" or "notFound", and its last message.
type CollabAgentState struct {
	Status  string  `json:"status"`
	Message *string `json:"message"`
}

// HookPromptFragment is text a hook run (HookRunID) added to the prompt.
type HookPromptFragment struct {
	HookRunID string `json:"hookRunId"`
	Text      string `json:"text"`
}

// UserContent is one element of a userMessage's content (`UserInput`):
// Path for "localImage" and "skill", URL for "image" (often a data: URL).
type UserContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
	Path string `json:"path"`
	Name string `json:"name"`
	URL  string `json:"url"`
}

// UserText joins the text parts of a userMessage item.
func (it Item) UserText() string {
	var b strings.Builder
	for _, c := range it.Content {
		if c.Type == "text" {
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// FileChange is the protocol's `FileUpdateChange`: one file of a patch
// with its unified diff. Kind is "add", "delete" or "update".
type FileChange struct {
	Path string          `json:"path"`
	Kind PatchChangeKind `json:"kind"`
	Diff string          `json:"diff"`
}

// PatchChangeKind is the protocol's `PatchChangeKind`.
type PatchChangeKind struct {
	Type     string  `json:"type"`
	MovePath *string `json:"move_path"`
}

// TokenUsageBreakdown is the protocol's `TokenUsageBreakdown` (tokens).
type TokenUsageBreakdown struct {
	TotalTokens           int64 `json:"totalTokens"`
	InputTokens           int64 `json:"inputTokens"`
	CachedInputTokens     int64 `json:"cachedInputTokens"`
	OutputTokens          int64 `json:"outputTokens"`
	ReasoningOutputTokens int64 `json:"reasoningOutputTokens"`
}

// ThreadTokenUsage is the protocol's `ThreadTokenUsage`.
type ThreadTokenUsage struct {
	Total              TokenUsageBreakdown `json:"total"`
	Last               TokenUsageBreakdown `json:"last"`
	ModelContextWindow *int64              `json:"modelContextWindow"`
}

// PlanStep is the protocol's `TurnPlanStep`; Status is "pending",
// "inProgress" or "completed".
type PlanStep struct {
	Step   string `json:"step"`
	Status string `json:"status"`
}

// RateLimitWindow is the protocol's `RateLimitWindow`: UsedPercent of the
// window (0–100), its length in minutes and its reset time (Unix seconds).
type RateLimitWindow struct {
	UsedPercent        float64 `json:"usedPercent"`
	WindowDurationMins *int64  `json:"windowDurationMins"`
	ResetsAt           *int64  `json:"resetsAt"`
}

// RateLimitSnapshot is the protocol's `RateLimitSnapshot`; only the
// primary and secondary windows are kept.
type RateLimitSnapshot struct {
	LimitID   *string          `json:"limitId"`
	Primary   *RateLimitWindow `json:"primary"`
	Secondary *RateLimitWindow `json:"secondary"`
}

// DynamicToolCallResponse is the result of `item/tool/call`.
type DynamicToolCallResponse struct {
	ContentItems []ContentItem `json:"contentItems"`
	Success      bool          `json:"success"`
}

// ContentItem is a `DynamicToolCallOutputContentItem` of type "inputText".
type ContentItem struct {
	Type string `json:"type"`
	Text string `json:"text"`
}
