package backend

import (
	"context"
	"errors"
	"time"
)

// Client is the app-server as the rest of tandem sees it: one typed method
// per JSON-RPC method it sends, on the session's current thread. No method
// name or params map leaves this package. *Session implements it; the
// pairing server hands drivers a wrapper of the session's Client, and tests
// use fakes (embed Unavailable to implement only what a test needs).
//
// Every method that takes a ctx blocks until the server answers (or ctx
// ends): call them from a tea.Cmd, never from Update; ThreadID, TurnID
// and UserAgent return at once. The server's errors wrap the method name
// ("thread/fork: …"), a JSON-RPC error is an *RPCError; an argument
// refused before any call (an unknown sandbox mode) is returned as is.
type Client interface {
	// ThreadID is the current thread ("" before one is open); TurnID the
	// running turn ("" when none runs or its id is not known yet).
	ThreadID() string
	TurnID() string
	// UserAgent is the server's `initialize` userAgent
	// ("codex_cli_rs/0.169.0 (…)").
	UserAgent() string
	// Unanswered is the time since which the server has owed tandem an
	// answer and said nothing at all (the zero time when nothing is
	// owed): see Conn.Unanswered. A turn that streams is answering.
	Unanswered() time.Time

	// StartTurn runs `turn/start` with in on the current thread.
	StartTurn(ctx context.Context, in TurnInput) (Turn, error)
	// Steer runs `turn/steer`: in joins the running turn (expectedTurnId).
	// It fails with ErrNoActiveTurn when the session saw the turn end.
	Steer(ctx context.Context, in TurnInput) error
	// Interrupt runs `turn/interrupt` for the running turn; a no-op when
	// none runs.
	Interrupt(ctx context.Context) error
	// Review runs `review/start` for target on the current thread.
	Review(ctx context.Context, target ReviewTarget) error
	// ShellCommand runs `thread/shellCommand`: command runs unsandboxed in
	// the thread's shell and shows up as a commandExecution item.
	ShellCommand(ctx context.Context, command string) error

	// StartThread runs `thread/start` with the session's settings and
	// makes the new thread current.
	StartThread(ctx context.Context) (ThreadResponse, error)
	// ResumeThread runs `thread/resume` for id and makes it current;
	// Thread.Turns holds its newest turns (up to ResumeTurns), oldest
	// first, and Older the cursor of those before them ("" when none).
	ResumeThread(ctx context.Context, id string) (ThreadResponse, error)
	// ListTurns runs `thread/turns/list` for thread id, which need not be
	// open: up to limit turns (0: the server's default) before cursor
	// (a ThreadResponse.Older or an earlier ListTurns' older; "" for the
	// newest), oldest first, with every item, and the cursor of the turns
	// before them ("" when these begin the thread).
	ListTurns(ctx context.Context, id, cursor string, limit int) (turns []Turn, older string, err error)
	// SearchOccurrences runs `thread/searchOccurrences` for thread id
	// (which need not be open): up to limit places term occurs in its
	// user messages and answers from cursor ("" for the first), oldest
	// first, and the next page's cursor ("" after the last); -32601 (an
	// *RPCError) from a codex without it.
	SearchOccurrences(ctx context.Context, id, term, cursor string, limit int) (found []Occurrence, next string, err error)
	// ListQueue runs `thread/queue/list` for the current thread: the
	// messages the server holds for its next turns (queued by any
	// client), next to run first. A codex without the queue answers
	// -32601 (an *RPCError).
	ListQueue(ctx context.Context) ([]QueuedSubmission, error)
	// ForkThread runs `thread/fork` for id and makes the fork current.
	// With beforeTurn set the fork keeps only the turns before that one
	// (`beforeTurnId`): a rewind; the source thread is left as it is.
	ForkThread(ctx context.Context, id, beforeTurn string) (ThreadResponse, error)
	// Aside asks prompt on a throwaway fork of the current thread
	// (`thread/fork`, ephemeral) and returns the agent's answer; the
	// thread's own history is untouched. Errors: no thread open, the fork
	// refused, the turn failed or was cut (ctx).
	Aside(ctx context.Context, prompt string) (string, error)
	// ListThreads runs `thread/list` for one page.
	ListThreads(ctx context.Context, p ThreadListParams) (ThreadListResponse, error)
	// ReadThread runs `thread/read` without turns (metadata, rollout path).
	ReadThread(ctx context.Context, id string) (Thread, error)
	// ReadThreadTurns runs `thread/read` with the thread's turns (its
	// whole history), without opening it.
	ReadThreadTurns(ctx context.Context, id string) (Thread, error)
	// RenameThread runs `thread/name/set` on the current thread.
	RenameThread(ctx context.Context, name string) error
	// ArchiveThread runs `thread/archive` on the current thread.
	ArchiveThread(ctx context.Context) error
	// Compact runs `thread/compact/start` on the current thread.
	Compact(ctx context.Context) error

	// ListModels runs `model/list`, every page (up to ten).
	ListModels(ctx context.Context) ([]ModelInfo, error)
	// McpServers runs `mcpServerStatus/list` for the current thread.
	McpServers(ctx context.Context) ([]McpServerStatus, error)
	// ListHooks runs `hooks/list` for the current thread: the hooks
	// configured for it, with their trust.
	ListHooks(ctx context.Context) ([]HookInfo, error)
	// McpLogin runs `mcpServer/oauth/login` for server name and returns
	// the URL to open; `mcpServer/oauthLogin/completed` (McpLoginEvent)
	// says how it ended.
	McpLogin(ctx context.Context, name string) (url string, err error)
	// FuzzyFileSearch runs `fuzzyFileSearch` for query under roots.
	FuzzyFileSearch(ctx context.Context, query string, roots []string) ([]FuzzyFileMatch, error)
	// ListSkills runs `skills/list` for the workspace cwd ("" the
	// session's): its skills, and the SKILL.md files that did not load;
	// forceReload re-scans the disk.
	ListSkills(ctx context.Context, cwd string, forceReload bool) (SkillsListEntry, error)
	// ListCollaborationModes runs `collaborationMode/list`: the server's
	// collaboration mode presets (plan, default). Unsupported(err) when
	// the server has none.
	ListCollaborationModes(ctx context.Context) ([]CollaborationModeMask, error)
	// SetGoal runs `thread/goal/set` with objective on the current
	// thread; ReadGoal `thread/goal/get` (nil: no goal); ClearGoal
	// `thread/goal/clear` (false: there was none). Unsupported(err) when
	// the server has goals turned off.
	SetGoal(ctx context.Context, objective string) (ThreadGoal, error)
	ReadGoal(ctx context.Context) (*ThreadGoal, error)
	ClearGoal(ctx context.Context) (cleared bool, err error)

	// ReadFile runs `fs/readFile` on the server's machine (path absolute
	// there). A missing file is an error that matches fs.ErrNotExist.
	ReadFile(ctx context.Context, path string) ([]byte, error)
	// WriteFile runs `fs/writeFile`, making the parent directories first
	// (`fs/createDirectory`) when they are missing.
	WriteFile(ctx context.Context, path string, data []byte) error
	// RemoveFile runs `fs/remove` on one file (not recursive); a missing
	// file is an error that matches fs.ErrNotExist.
	RemoveFile(ctx context.Context, path string) error

	// ReadAccount runs `account/read`.
	ReadAccount(ctx context.Context) (AccountReadResponse, error)
	// ReadRateLimits runs `account/rateLimits/read`.
	ReadRateLimits(ctx context.Context) (RateLimitSnapshot, error)
	// Login runs `account/login/start` (p.Type "apiKey" with APIKey, or
	// "chatgptDeviceCode").
	Login(ctx context.Context, p LoginStartParams) (LoginStartResponse, error)
	// CancelLogin runs `account/login/cancel` for loginID.
	CancelLogin(ctx context.Context, loginID string) error
	// Logout runs `account/logout`: codex forgets the stored login.
	Logout(ctx context.Context) error
}

// MaxUserInputChars is the most characters (Unicode scalar values, as
// Rust's chars() counts them) the app-server takes as the text of one
// user input, TurnInput.Text of turn/start or turn/steer: codex's
// MAX_USER_INPUT_TEXT_CHARS (1 << 20, codex-rs/protocol/src/user_input.rs).
// The server refuses a longer text with an error; tandem refuses it
// before sending.
const MaxUserInputChars = 1 << 20

// TurnInput is what the user sends as a turn or a steer: the text and,
// for `turn/start`, overrides of the thread's settings from this turn on.
type TurnInput struct {
	Text string
	// Images are local image files sent as "localImage" inputs after the
	// text: absolute paths on the app-server's machine.
	Images []string
	// Skills are sent as "skill" inputs after the images.
	Skills []SkillRef
	TurnOptions
	// Collaboration, when set, runs the turn in a collaboration mode
	// (`turn/start.collaborationMode`: "plan", "default").
	Collaboration *CollaborationMode
}

// CollaborationMode is the protocol's `CollaborationMode`: the mode and the
// settings it runs with.
type CollaborationMode struct {
	Mode     string                `json:"mode"`
	Settings CollaborationSettings `json:"settings"`
}

// CollaborationSettings are a collaboration mode's `Settings`; nil means the
// mode's default.
type CollaborationSettings struct {
	Model                 string  `json:"model"`
	ReasoningEffort       *string `json:"reasoning_effort"`
	DeveloperInstructions *string `json:"developer_instructions"`
}

// ErrUnavailable is Unavailable's error.
var ErrUnavailable = errors.New("no app-server connected")

// Unavailable is a Client that has no server: every call fails with Err
// (ErrUnavailable when nil). Tests embed it to implement only the methods
// they exercise.
type Unavailable struct{ Err error }

var _ Client = Unavailable{}

func (u Unavailable) err() error {
	if u.Err != nil {
		return u.Err
	}
	return ErrUnavailable
}

// ThreadID implements Client.
func (Unavailable) ThreadID() string { return "" }

// TurnID implements Client.
func (Unavailable) TurnID() string { return "" }

// UserAgent implements Client.
func (Unavailable) UserAgent() string { return "" }

// Unanswered implements Client: nothing is owed.
func (Unavailable) Unanswered() time.Time { return time.Time{} }

// StartTurn implements Client.
func (u Unavailable) StartTurn(context.Context, TurnInput) (Turn, error) { return Turn{}, u.err() }

// Steer implements Client.
func (u Unavailable) Steer(context.Context, TurnInput) error { return u.err() }

// Interrupt implements Client.
func (u Unavailable) Interrupt(context.Context) error { return u.err() }

// Review implements Client.
func (u Unavailable) Review(context.Context, ReviewTarget) error { return u.err() }

// ShellCommand implements Client.
func (u Unavailable) ShellCommand(context.Context, string) error { return u.err() }

// StartThread implements Client.
func (u Unavailable) StartThread(context.Context) (ThreadResponse, error) {
	return ThreadResponse{}, u.err()
}

// ListQueue implements Client.
func (u Unavailable) ListQueue(context.Context) ([]QueuedSubmission, error) { return nil, u.err() }

// ListTurns implements Client.
func (u Unavailable) ListTurns(context.Context, string, string, int) ([]Turn, string, error) {
	return nil, "", u.err()
}

// SearchOccurrences implements Client.
func (u Unavailable) SearchOccurrences(context.Context, string, string, string, int) ([]Occurrence, string, error) {
	return nil, "", u.err()
}

// ResumeThread implements Client.
func (u Unavailable) ResumeThread(context.Context, string) (ThreadResponse, error) {
	return ThreadResponse{}, u.err()
}

// ForkThread implements Client.
func (u Unavailable) ForkThread(context.Context, string, string) (ThreadResponse, error) {
	return ThreadResponse{}, u.err()
}

// Aside implements Client.
func (u Unavailable) Aside(context.Context, string) (string, error) { return "", u.err() }

// ReadFile implements Client.
func (u Unavailable) ReadFile(context.Context, string) ([]byte, error) { return nil, u.err() }

// WriteFile implements Client.
func (u Unavailable) WriteFile(context.Context, string, []byte) error { return u.err() }

// RemoveFile implements Client.
func (u Unavailable) RemoveFile(context.Context, string) error { return u.err() }

// ListThreads implements Client.
func (u Unavailable) ListThreads(context.Context, ThreadListParams) (ThreadListResponse, error) {
	return ThreadListResponse{}, u.err()
}

// ReadThread implements Client.
func (u Unavailable) ReadThread(context.Context, string) (Thread, error) { return Thread{}, u.err() }

// RenameThread implements Client.
func (u Unavailable) RenameThread(context.Context, string) error { return u.err() }

// ArchiveThread implements Client.
func (u Unavailable) ArchiveThread(context.Context) error { return u.err() }

// Compact implements Client.
func (u Unavailable) Compact(context.Context) error { return u.err() }

// ListModels implements Client.
func (u Unavailable) ListModels(context.Context) ([]ModelInfo, error) { return nil, u.err() }

// McpServers implements Client.
func (u Unavailable) McpServers(context.Context) ([]McpServerStatus, error) { return nil, u.err() }

// ReadThreadTurns implements Client.
func (u Unavailable) ReadThreadTurns(context.Context, string) (Thread, error) {
	return Thread{}, u.err()
}

// ListHooks implements Client.
func (u Unavailable) ListHooks(context.Context) ([]HookInfo, error) { return nil, u.err() }

// McpLogin implements Client.
func (u Unavailable) McpLogin(context.Context, string) (string, error) { return "", u.err() }

// FuzzyFileSearch implements Client.
func (u Unavailable) FuzzyFileSearch(context.Context, string, []string) ([]FuzzyFileMatch, error) {
	return nil, u.err()
}

// ReadAccount implements Client.
func (u Unavailable) ReadAccount(context.Context) (AccountReadResponse, error) {
	return AccountReadResponse{}, u.err()
}

// ReadRateLimits implements Client.
func (u Unavailable) ReadRateLimits(context.Context) (RateLimitSnapshot, error) {
	return RateLimitSnapshot{}, u.err()
}

// Login implements Client.
func (u Unavailable) Login(context.Context, LoginStartParams) (LoginStartResponse, error) {
	return LoginStartResponse{}, u.err()
}

// CancelLogin implements Client.
func (u Unavailable) CancelLogin(context.Context, string) error { return u.err() }

// Logout implements Client.
func (u Unavailable) Logout(context.Context) error { return u.err() }
