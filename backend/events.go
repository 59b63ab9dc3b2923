package backend

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Event is a decoded server notification, or a change in the connection
// itself (ServerExited). The model folds the stream of events into its
// transcript. Thread returns the thread the event belongs to, or "" when it
// is not thread-scoped.
type Event interface {
	Thread() string
}

// ItemRef names one item of a thread by the ids the server sent: the
// thread's, the turn's and the item's. The requests about an item
// (approvals, user input) embed it as their params' threadId, turnId and
// itemId.
type ItemRef struct {
	ThreadID string `json:"threadId"`
	TurnID   string `json:"turnId"`
	ItemID   string `json:"itemId"`
}

// threadScoped carries the threadId and turnId most notifications share.
type threadScoped struct {
	ThreadID string `json:"threadId"`
	TurnID   string `json:"turnId"`
}

// Thread implements Event.
func (t threadScoped) Thread() string { return t.ThreadID }

// TurnStartedEvent follows `turn/started`.
type TurnStartedEvent struct {
	threadScoped
	Turn Turn `json:"turn"`
}

// TurnCompletedEvent follows `turn/completed`; Turn.Status says how it
// ended ("completed", "interrupted", "failed").
type TurnCompletedEvent struct {
	threadScoped
	Turn Turn `json:"turn"`
}

// ItemStartedEvent follows `item/started`.
type ItemStartedEvent struct {
	threadScoped
	Item Item `json:"item"`
}

// ItemCompletedEvent follows `item/completed`; its Item is final.
type ItemCompletedEvent struct {
	threadScoped
	Item Item `json:"item"`
}

// AgentMessageDeltaEvent follows `item/agentMessage/delta`: Delta is the
// next piece of the agent message ItemID's Markdown.
type AgentMessageDeltaEvent struct {
	threadScoped
	ItemID string `json:"itemId"`
	Delta  string `json:"delta"`
}

// ReasoningSummaryDeltaEvent follows `item/reasoning/summaryTextDelta`.
type ReasoningSummaryDeltaEvent struct {
	threadScoped
	ItemID       string `json:"itemId"`
	Delta        string `json:"delta"`
	SummaryIndex int    `json:"summaryIndex"`
}

// CommandOutputDeltaEvent follows `item/commandExecution/outputDelta`:
// Delta is the next chunk of the command's combined stdout and stderr.
type CommandOutputDeltaEvent struct {
	threadScoped
	ItemID string `json:"itemId"`
	Delta  string `json:"delta"`
}

// PatchUpdatedEvent follows `item/fileChange/patchUpdated`.
type PatchUpdatedEvent struct {
	threadScoped
	ItemID  string       `json:"itemId"`
	Changes []FileChange `json:"changes"`
}

// PlanUpdatedEvent follows `turn/plan/updated`.
type PlanUpdatedEvent struct {
	threadScoped
	Explanation *string    `json:"explanation"`
	Plan        []PlanStep `json:"plan"`
}

// TurnDiffUpdatedEvent follows `turn/diff/updated`: Diff is the turn's
// whole unified diff so far.
type TurnDiffUpdatedEvent struct {
	threadScoped
	Diff string `json:"diff"`
}

// TokenUsageEvent follows `thread/tokenUsage/updated`.
type TokenUsageEvent struct {
	threadScoped
	TokenUsage ThreadTokenUsage `json:"tokenUsage"`
}

// RateLimitsEvent follows `account/rateLimits/updated`: a sparse snapshot
// of the account's rate-limit windows (percentages used, 0–100).
type RateLimitsEvent struct {
	RateLimits RateLimitSnapshot `json:"rateLimits"`
}

// Thread implements Event; rate limits belong to the account.
func (RateLimitsEvent) Thread() string { return "" }

// ThreadStatusEvent follows `thread/status/changed`; Status is "idle",
// "active", "notLoaded" or "systemError".
type ThreadStatusEvent struct {
	ThreadID string `json:"threadId"`
	Status   struct {
		Type string `json:"type"`
	} `json:"status"`
}

// Thread implements Event.
func (e ThreadStatusEvent) Thread() string { return e.ThreadID }

// ErrorEvent follows `error`: a turn error; WillRetry says the server is
// retrying on its own.
type ErrorEvent struct {
	threadScoped
	Error     TurnError `json:"error"`
	WillRetry bool      `json:"willRetry"`
}

// WarningEvent follows `warning`, `configWarning`, `deprecationNotice` and
// `guardianWarning`.
type WarningEvent struct {
	ThreadID *string `json:"threadId"`
	Message  string  `json:"message"`
	Summary  string  `json:"summary"`
}

// Thread implements Event.
func (e WarningEvent) Thread() string {
	if e.ThreadID == nil {
		return ""
	}
	return *e.ThreadID
}

// Text returns the warning's message.
func (e WarningEvent) Text() string {
	if e.Message != "" {
		return e.Message
	}
	return e.Summary
}

// Advisory reports a server-wide warning about the machine, not the
// session, that codex repeats at every start until the machine changes:
// "Codex could not find bubblewrap on PATH … Codex will use the bundled
// bubblewrap in the meantime". A client may show it once per machine.
func (e WarningEvent) Advisory() bool {
	t := e.Text()
	return e.Thread() == "" && strings.Contains(t, "could not find bubblewrap") && strings.Contains(t, "bundled")
}

// RequestResolvedEvent follows `serverRequest/resolved`: the server no
// longer needs an answer to RequestID. In a shared session the pairing
// hub logs one too when a driver answers: By is that driver's name,
// Method the request's kind and Answer what was decided (DescribeAnswer);
// the server's own have them empty.
type RequestResolvedEvent struct {
	ThreadID  string    `json:"threadId"`
	RequestID RequestID `json:"requestId"`
	By        string    `json:"-"`
	Method    string    `json:"-"`
	Answer    string    `json:"-"`
}

// Thread implements Event.
func (e RequestResolvedEvent) Thread() string { return e.ThreadID }

// ServerExitedEvent reports that the app-server connection ended: Status
// describes how ("exited with status 1"), Stderr holds its last stderr
// lines (redacted by the caller before display). Detached says only the
// link to a durable app-server (the daemon, see DurableTransport) was
// lost, not by tandem's doing: the server and its turns go on on Host,
// and a new session can re-attach.
type ServerExitedEvent struct {
	Status   string
	Stderr   []string
	Detached bool
	Host     string
}

// Thread implements Event.
func (ServerExitedEvent) Thread() string { return "" }

// DecodeNotification turns a server notification into its typed Event.
// It returns (nil, nil) for notifications tandem knows and does not show
// (quietMethods), an UnknownEvent for a method it does not know, and an
// error when known params don't decode.
func DecodeNotification(method string, params json.RawMessage) (Event, error) {
	var ev Event
	var err error
	switch method {
	case "turn/started":
		ev, err = decode[TurnStartedEvent](params)
	case "turn/completed":
		ev, err = decode[TurnCompletedEvent](params)
	case "item/started":
		ev, err = decode[ItemStartedEvent](params)
	case "item/completed":
		ev, err = decode[ItemCompletedEvent](params)
	case "item/agentMessage/delta":
		ev, err = decode[AgentMessageDeltaEvent](params)
	case "item/reasoning/summaryTextDelta":
		ev, err = decode[ReasoningSummaryDeltaEvent](params)
	case "item/commandExecution/outputDelta":
		ev, err = decode[CommandOutputDeltaEvent](params)
	case "item/fileChange/patchUpdated":
		ev, err = decode[PatchUpdatedEvent](params)
	case "turn/plan/updated":
		ev, err = decode[PlanUpdatedEvent](params)
	case "turn/diff/updated":
		ev, err = decode[TurnDiffUpdatedEvent](params)
	case "thread/tokenUsage/updated":
		ev, err = decode[TokenUsageEvent](params)
	case "thread/status/changed":
		ev, err = decode[ThreadStatusEvent](params)
	case "account/rateLimits/updated":
		ev, err = decode[RateLimitsEvent](params)
	case "error":
		ev, err = decode[ErrorEvent](params)
	case "warning", "configWarning", "deprecationNotice", "guardianWarning":
		ev, err = decode[WarningEvent](params)
	case "account/login/completed":
		ev, err = decode[LoginCompletedEvent](params)
	case "serverRequest/resolved":
		ev, err = decode[RequestResolvedEvent](params)
	case "thread/started":
		ev, err = decode[ThreadStartedEvent](params)
	case "hook/started":
		ev, err = decode[HookStartedEvent](params)
	case "hook/completed":
		ev, err = decode[HookCompletedEvent](params)
	case "mcpServer/oauthLogin/completed":
		ev, err = decode[McpLoginEvent](params)
	case "mcpServer/startupStatus/updated":
		ev, err = decode[McpStartupEvent](params)
	case "item/mcpToolCall/progress":
		ev, err = decode[McpProgressEvent](params)
	case "model/rerouted":
		ev, err = decode[ModelReroutedEvent](params)
	case "thread/name/updated":
		ev, err = decode[ThreadNameEvent](params)
	case "item/commandExecution/terminalInteraction":
		ev, err = decode[TerminalInteractionEvent](params)
	case "skills/changed":
		ev, err = decode[SkillsChangedEvent](params)
	case "thread/goal/updated":
		ev, err = decode[GoalUpdatedEvent](params)
	case "thread/goal/cleared":
		ev, err = decode[GoalClearedEvent](params)
	case "thread/queue/changed":
		ev, err = decode[ThreadQueueChangedEvent](params)
	default:
		if isQuiet(method) {
			return nil, nil
		}
		return UnknownEvent{Method: method}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("decoding %s: %w", method, err)
	}
	return ev, nil
}

func decode[T Event](params json.RawMessage) (Event, error) {
	var v T
	if len(params) == 0 {
		return v, nil
	}
	err := json.Unmarshal(params, &v)
	return v, err
}
