package backend

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
)

// The client side of the protocol in one table: every request tandem
// sends to the app-server is declared here once, with the Go types of
// its params and of its result, and is sent only through its Method
// (Call, or Do when tandem reads nothing of the result). This is codex's
// `client_request_definitions!` (app-server-protocol), which pairs each
// ClientRequest variant with its params and response types the same way.
//
// The server's side has tables of its own: notifications in
// DecodeNotification (events.go), server requests in requestKinds
// (requests.go). TestProtocolDrift checks all three against each tested
// codex's schema; it reads this one from clientMethods.

// Method is one client request: its wire name, the Go type of its params
// (P) and that of its result (R). The table below holds every one
// (request makes them); a Method is sent with Call or Do.
type Method[P, R any] struct{ name string }

// Notification is one client notification (no answer): its wire name and
// the Go type of its params.
type Notification[P any] struct{ name string }

// None is the params of a method that takes none: its only value is nil,
// and the message goes out without params.
type None interface{ none() }

// Empty is the result of a method tandem reads nothing of (Do sends it:
// the result is not decoded); as params, the empty object `{}`.
type Empty struct{}

// Name is m's wire method ("turn/start").
func (m Method[P, R]) Name() string { return m.name }

// Name is n's wire method ("initialized").
func (n Notification[P]) Name() string { return n.name }

// caller sends one request and decodes its result: *Conn (retry.go).
type caller interface {
	Call(ctx context.Context, method string, params, result any) error
}

// notifier sends one notification: *Conn.
type notifier interface {
	Notify(method string, params any) error
}

// Call sends m with params p over c and returns its decoded result. The
// errors are Conn.Call's, prefixed with m's name ("turn/start: …"): an
// *RPCError when the server refused it, ctx.Err() or ErrClosed when no
// answer came.
func (m Method[P, R]) Call(ctx context.Context, c caller, p P) (R, error) {
	var r R
	err := c.Call(ctx, m.name, p, &r)
	return r, err
}

// Do is Call for a result tandem does not read (R is Empty in the table):
// it waits for the answer and returns only its error.
func (m Method[P, R]) Do(ctx context.Context, c caller, p P) error {
	return c.Call(ctx, m.name, p, nil)
}

// Send sends n with params p over c.
func (n Notification[P]) Send(c notifier, p P) error {
	return c.Notify(n.name, p)
}

// decodeParams decodes params of m as a recording or trace holds them
// (DecodeCall).
func (m Method[P, R]) decodeParams(raw json.RawMessage) (P, error) {
	var p P
	if err := json.Unmarshal(raw, &p); err != nil {
		return p, fmt.Errorf("decoding %s: %w", m.name, err)
	}
	return p, nil
}

// methodSpec is one row of the table as the drift test reads it: the
// wire name and the Go types of the params and result (result nil for a
// notification).
type methodSpec struct {
	name           string
	params, result reflect.Type
}

// clientMethods is the whole table, in the order it is declared below:
// request and notification add each row as they make it.
var clientMethods []methodSpec

// request makes the Method name and adds it to clientMethods.
func request[P, R any](name string) Method[P, R] {
	clientMethods = append(clientMethods, methodSpec{name, reflect.TypeFor[P](), reflect.TypeFor[R]()})
	return Method[P, R]{name}
}

// notification makes the Notification name and adds it to clientMethods.
func notification[P any](name string) Notification[P] {
	clientMethods = append(clientMethods, methodSpec{name, reflect.TypeFor[P](), nil})
	return Notification[P]{name}
}

// The connection: the handshake StartSession runs first.
var (
	// Initialize is `initialize`: tandem's name and capabilities, the
	// server's userAgent.
	Initialize = request[InitializeParams, InitializeResponse]("initialize")
	// Initialized is `initialized`, sent once Initialize is answered.
	Initialized = notification[None]("initialized")
)

// Threads: open one (it becomes the session's), list and read others,
// name, archive and compact the current one.
var (
	// ThreadStart is `thread/start`: a new thread with the session's
	// settings.
	ThreadStart = request[ThreadStartParams, ThreadResponse]("thread/start")
	// ThreadResume is `thread/resume`: a stored thread, with its newest
	// turns (InitialTurnsPage) or none (ExcludeTurns).
	ThreadResume = request[ThreadResumeParams, ThreadResponse]("thread/resume")
	// ThreadFork is `thread/fork`: a copy of a thread, whole or cut before
	// a turn.
	ThreadFork = request[ThreadForkParams, ThreadResponse]("thread/fork")
	// ThreadUnsubscribe is `thread/unsubscribe`: no more of a thread's
	// events on this connection (a lane's Close, an aside's fork; an
	// ephemeral one with no subscriber left is unloaded).
	ThreadUnsubscribe = request[ThreadUnsubscribeParams, ThreadUnsubscribeResponse]("thread/unsubscribe")
	// ThreadList is `thread/list`: one page of stored threads.
	ThreadList = request[ThreadListParams, ThreadListResponse]("thread/list")
	// ThreadSearch is `thread/search` (experimental): one page of the
	// stored threads whose content holds a term (threadsearch.go).
	ThreadSearch = request[ThreadSearchParams, ThreadSearchResponse]("thread/search")
	// ThreadRead is `thread/read`: one thread, with or without its turns.
	ThreadRead = request[ThreadReadParams, ThreadReadResponse]("thread/read")
	// ThreadTurnsList is `thread/turns/list`: one page of a thread's turns.
	ThreadTurnsList = request[ThreadTurnsListParams, TurnsPage]("thread/turns/list")
	// ThreadSearchOccurrences is `thread/searchOccurrences`
	// (experimental): one page of where a term occurs in a thread's
	// messages and answers (occurrences.go).
	ThreadSearchOccurrences = request[ThreadSearchOccurrencesParams, OccurrencesPage]("thread/searchOccurrences")
	// ThreadSetName is `thread/name/set`.
	ThreadSetName = request[ThreadSetNameParams, Empty]("thread/name/set")
	// ThreadArchive is `thread/archive`.
	ThreadArchive = request[ThreadIDParams, Empty]("thread/archive")
	// ThreadCompactStart is `thread/compact/start`: the summary comes as
	// items of its own turn.
	ThreadCompactStart = request[ThreadIDParams, Empty]("thread/compact/start")
	// ThreadShellCommand is `thread/shellCommand`: the user's `!command`.
	ThreadShellCommand = request[ThreadShellCommandParams, Empty]("thread/shellCommand")
	// ThreadLoadedList is `thread/loaded/list`: one page of the ids of the
	// threads the server has loaded.
	ThreadLoadedList = request[ThreadLoadedListParams, ThreadLoadedListResponse]("thread/loaded/list")
	// ThreadReadStateUpdate is `thread/readState/update`: a thread marked
	// read or unread, for every client of the server.
	ThreadReadStateUpdate = request[ThreadReadStateUpdateParams, ThreadReadStateUpdateResponse]("thread/readState/update")
)

// A thread's queue on the server (experimental; threadqueue.go): messages
// that run as its next turns, whichever client queued them.
var (
	// ThreadQueueAdd is `thread/queue/add`: a message for the thread's
	// next turn (at once when the thread is loaded and idle).
	ThreadQueueAdd = request[ThreadQueueAddParams, ThreadQueueAddResponse]("thread/queue/add")
	// ThreadQueueList is `thread/queue/list`: one page of the queue.
	ThreadQueueList = request[ThreadQueueListParams, ThreadQueueListResponse]("thread/queue/list")
	// ThreadQueueDelete is `thread/queue/delete`: one queued message.
	ThreadQueueDelete = request[ThreadQueueDeleteParams, ThreadQueueDeleteResponse]("thread/queue/delete")
)

// Turns on the current thread.
var (
	// TurnStart is `turn/start`: the user's input, with the overrides.
	TurnStart = request[TurnStartParams, TurnResponse]("turn/start")
	// TurnSteer is `turn/steer`: more input for the running turn.
	TurnSteer = request[TurnSteerParams, TurnSteerResponse]("turn/steer")
	// TurnInterrupt is `turn/interrupt`.
	TurnInterrupt = request[TurnInterruptParams, Empty]("turn/interrupt")
	// ReviewStart is `review/start`: a review turn of its own.
	ReviewStart = request[ReviewStartParams, Empty]("review/start")
)

// The current thread's goal (experimental).
var (
	// ThreadGoalSet is `thread/goal/set`.
	ThreadGoalSet = request[threadGoalSetParams, threadGoalResponse]("thread/goal/set")
	// ThreadGoalGet is `thread/goal/get`.
	ThreadGoalGet = request[threadGoalGetParams, threadGoalGetResponse]("thread/goal/get")
	// ThreadGoalClear is `thread/goal/clear`.
	ThreadGoalClear = request[threadGoalClearParams, threadGoalClearResponse]("thread/goal/clear")
)

// What a turn can use: models, collaboration modes, skills, hooks, MCP
// servers, and the server's config.
var (
	// ModelList is `model/list`: one page of models.
	ModelList = request[ModelListParams, ModelListResponse]("model/list")
	// CollaborationModeList is `collaborationMode/list` (experimental):
	// the mode presets; its params are `{}`.
	CollaborationModeList = request[Empty, collaborationModeListResponse]("collaborationMode/list")
	// SkillsList is `skills/list`: the skills of some workspaces.
	SkillsList = request[SkillsListParams, skillsListResponse]("skills/list")
	// HooksList is `hooks/list`: the hooks configured for a thread.
	HooksList = request[HooksListParams, hooksListResponse]("hooks/list")
	// McpServerStatusList is `mcpServerStatus/list`: the MCP servers, their
	// tools and auth.
	McpServerStatusList = request[McpServerStatusListParams, McpServerStatusListResponse]("mcpServerStatus/list")
	// McpOauthLogin is `mcpServer/oauth/login`: the URL to authorize an MCP
	// server at.
	McpOauthLogin = request[McpOauthLoginParams, McpOauthLoginResponse]("mcpServer/oauth/login")
	// ConfigRead is `config/read`: the effective config (tandem reads its
	// workspace-write table).
	ConfigRead = request[ConfigReadParams, configReadResponse]("config/read")
)

// The account.
var (
	// AccountRead is `account/read`.
	AccountRead = request[AccountReadParams, AccountReadResponse]("account/read")
	// AccountRateLimitsRead is `account/rateLimits/read` (no params).
	AccountRateLimitsRead = request[None, rateLimitsResponse]("account/rateLimits/read")
	// AccountLoginStart is `account/login/start`.
	AccountLoginStart = request[LoginStartParams, LoginStartResponse]("account/login/start")
	// AccountLoginCancel is `account/login/cancel`.
	AccountLoginCancel = request[LoginCancelParams, Empty]("account/login/cancel")
	// AccountLogout is `account/logout` (no params).
	AccountLogout = request[None, Empty]("account/logout")
)

// Files on the server's machine.
var (
	// FuzzyFileSearch is `fuzzyFileSearch`: paths matching a query under
	// some roots.
	FuzzyFileSearch = request[FuzzyFileSearchParams, FuzzyFileSearchResponse]("fuzzyFileSearch")
	// FsReadFile is `fs/readFile`.
	FsReadFile = request[FsPathParams, FsReadFileResponse]("fs/readFile")
	// FsWriteFile is `fs/writeFile`.
	FsWriteFile = request[FsWriteFileParams, Empty]("fs/writeFile")
	// FsCreateDirectory is `fs/createDirectory`.
	FsCreateDirectory = request[FsCreateDirectoryParams, Empty]("fs/createDirectory")
	// FsRemove is `fs/remove`.
	FsRemove = request[FsRemoveParams, Empty]("fs/remove")
	// CommandExec is `command/exec`: one argv run on the server's
	// machine, outside any thread, its output buffered (Session.Exec).
	CommandExec = request[CommandExecParams, CommandExecResponse]("command/exec")
)

// Thread attachments: records kept with a thread (tandem's worktrees).
var (
	// ThreadAttachmentAdd is `thread/attachment/add`.
	ThreadAttachmentAdd = request[ThreadAttachmentAddParams, ThreadAttachmentAddResponse]("thread/attachment/add")
)
