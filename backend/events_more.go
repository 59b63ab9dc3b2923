package backend

// The notifications of hooks, MCP start-up, model reroutes, thread
// renames and terminal interaction, and the ones tandem does not know.

// HookRun is the protocol's `HookRunSummary`: one run of a configured
// hook. EventName is when it runs ("preToolUse", "stop", …), HandlerType
// what runs ("command", "mcpTool", "prompt", "agent"), Status "running",
// "completed", "failed", "blocked" or "stopped", Entries what it said.
type HookRun struct {
	ID            string           `json:"id"`
	EventName     string           `json:"eventName"`
	HandlerType   string           `json:"handlerType"`
	ExecutionMode string           `json:"executionMode"`
	Status        string           `json:"status"`
	StatusMessage *string          `json:"statusMessage"`
	SourcePath    string           `json:"sourcePath"`
	DurationMs    *int64           `json:"durationMs"`
	Entries       []HookOutputLine `json:"entries"`
}

// HookOutputLine is one line of a hook's output: Kind "warning", "stop",
// "feedback", "context" or "error".
type HookOutputLine struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// HookStartedEvent follows `hook/started`: Run in the thread ThreadID and
// the turn TurnID (nil for a hook of the thread: sessionStart, …).
type HookStartedEvent struct {
	ThreadID string  `json:"threadId"`
	TurnID   *string `json:"turnId"`
	Run      HookRun `json:"run"`
}

// Thread implements Event.
func (e HookStartedEvent) Thread() string { return e.ThreadID }

// HookCompletedEvent follows `hook/completed`, with the same params as
// `hook/started`: Run in its final status.
type HookCompletedEvent HookStartedEvent

// Thread implements Event.
func (e HookCompletedEvent) Thread() string { return e.ThreadID }

// McpStartupEvent follows `mcpServer/startupStatus/updated`: server Name
// is "starting", "ready", "failed" or "cancelled"; Error says why it
// failed.
type McpStartupEvent struct {
	ThreadID *string `json:"threadId"`
	Name     string  `json:"name"`
	Status   string  `json:"status"`
	Error    *string `json:"error"`
}

// Thread implements Event: "" — a server's start-up is the session's
// news whatever thread it names (it can name the thread before
// thread/start has answered).
func (e McpStartupEvent) Thread() string { return "" }

// McpProgressEvent follows `item/mcpToolCall/progress`: Message is the
// tool call ItemID's latest progress.
type McpProgressEvent struct {
	threadScoped
	ItemID  string `json:"itemId"`
	Message string `json:"message"`
}

// ModelReroutedEvent follows `model/rerouted`: the turn is answered by
// ToModel instead of FromModel, for Reason.
type ModelReroutedEvent struct {
	threadScoped
	FromModel string `json:"fromModel"`
	ToModel   string `json:"toModel"`
	Reason    string `json:"reason"`
}

// ThreadNameEvent follows `thread/name/updated`: the thread was renamed
// (Name nil: its name was cleared), here or by another client.
type ThreadNameEvent struct {
	ThreadID string  `json:"threadId"`
	Name     *string `json:"threadName"`
}

// Thread implements Event.
func (e ThreadNameEvent) Thread() string { return e.ThreadID }

// TerminalInteractionEvent follows
// `item/commandExecution/terminalInteraction`: the command ItemID was
// sent Stdin by the agent (it was waiting for terminal input).
type TerminalInteractionEvent struct {
	threadScoped
	ItemID string `json:"itemId"`
	Stdin  string `json:"stdin"`
}

// UnknownEvent is a notification tandem does not know: a method of a
// newer codex. It is shown (once per method), never silently dropped.
type UnknownEvent struct {
	Method string
}

// Thread implements Event.
func (UnknownEvent) Thread() string { return "" }

// quietMethods are the notifications tandem knows and deliberately does
// not show: state it reads another way or has no view for yet.
var quietMethods = map[string]bool{
	"thread/readState/changed": true, "thread/archived": true, "thread/unarchived": true,
	"thread/deleted": true, "thread/closed": true, "thread/reverted": true, "thread/section/changed": true,
	"thread/attachment/updated": true, "thread/settings/updated": true,
	"thread/prediction/updated": true,
	"thread/project/updated":    true, "thread/environment/connected": true, "thread/environment/disconnected": true,
	"thread/compacted": true, "thread/search/partial": true, "project/changed": true,
	"item/plan/delta": true, "item/reasoning/summaryPartAdded": true, "item/reasoning/textDelta": true,
	"item/fileChange/outputDelta": true, "item/autoApprovalReview/started": true, "item/autoApprovalReview/completed": true,
	"autoApprovalReview/strictReviewRequired": true, "command/exec/outputDelta": true, "process/outputDelta": true,
	"process/exited": true, "mcpServer/event/stream/notification": true,
	"account/updated": true, "account/gatewayOAuth/changed": true, "app/list/updated": true,
	"remoteControl/status/changed": true, "externalAgentConfig/import/progress": true,
	"externalAgentConfig/import/completed": true, "fs/changed": true, "model/verification": true,
	"modelProvider/authRecoveryStarted": true, "modelProvider/authRecoveryCompleted": true,
	"turn/moderationMetadata": true, "model/safetyBuffering/updated": true,
	"fuzzyFileSearch/sessionUpdated": true, "fuzzyFileSearch/sessionCompleted": true,
	"windows/worldWritableWarning": true, "windowsSandbox/setupCompleted": true,
}

// isQuiet reports whether method is known and not shown (realtime audio
// sessions included).
func isQuiet(method string) bool {
	return quietMethods[method] || len(method) > 16 && method[:16] == "thread/realtime/"
}

// ThreadStartedEvent follows `thread/started`: a thread was created or
// loaded (a sub-agent's has ParentThreadID set).
type ThreadStartedEvent struct {
	Started Thread `json:"thread"`
}

// Thread implements Event.
func (e ThreadStartedEvent) Thread() string { return e.Started.ID }

// SubAgentEvent wraps an event of one of the session's sub-agents (a
// thread the session's thread spawned, or one of theirs): the session
// delivers them wrapped, so a consumer that shows only its own thread
// can ignore them.
type SubAgentEvent struct {
	Event
}

// McpLoginEvent follows `mcpServer/oauthLogin/completed`: the OAuth login
// of server Name ended, Success or with Error.
type McpLoginEvent struct {
	Name    string  `json:"name"`
	Success bool    `json:"success"`
	Error   *string `json:"error"`
}

// Thread implements Event.
func (McpLoginEvent) Thread() string { return "" }
