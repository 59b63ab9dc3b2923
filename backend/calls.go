package backend

import (
	"context"
	"fmt"
)

// This file is Session's side of Client: each method sends one request of
// the table (methods.go), or for ListModels one per page, with its typed
// params and reads its typed result.

var _ Client = (*Session)(nil)

// UserAgent implements Client: the `initialize` userAgent.
func (s *Session) UserAgent() string { return s.Init.UserAgent }

// StartTurn implements Client: `turn/start` with in's text and overrides.
// The turn's id becomes the running turn at once, before `turn/started`.
func (s *Session) StartTurn(ctx context.Context, in TurnInput) (Turn, error) {
	sb, err := s.sandboxPolicy(ctx, in.Sandbox) // sandbox.go: the config's workspace-write settings
	if err != nil {
		return Turn{}, err
	}
	resp, err := TurnStart.Call(ctx, s.conn, TurnStartParams{
		ThreadID: s.ThreadID(), Input: in.Inputs(),
		Model: in.Model, Effort: in.Effort, ApprovalPolicy: in.ApprovalPolicy, SandboxPolicy: sb,
		CollaborationMode: in.Collaboration,
	})
	if err != nil {
		return Turn{}, err
	}
	s.mu.Lock()
	s.turnID = resp.Turn.ID
	s.mu.Unlock()
	return resp.Turn, nil
}

// Steer implements Client: `turn/steer` with the running turn as
// expectedTurnId. It fails with ErrNoActiveTurn when the session already
// saw the turn end (the caller keeps the text).
func (s *Session) Steer(ctx context.Context, in TurnInput) error {
	turn := s.TurnID()
	if turn == "" {
		return fmt.Errorf("%s: %w", TurnSteer.Name(), ErrNoActiveTurn)
	}
	_, err := TurnSteer.Call(ctx, s.conn, TurnSteerParams{ThreadID: s.ThreadID(), Input: in.Inputs(), ExpectedTurnID: turn})
	return err
}

// Interrupt implements Client: `turn/interrupt` for the running turn, a
// no-op when none runs.
func (s *Session) Interrupt(ctx context.Context) error {
	turn := s.TurnID()
	if turn == "" {
		return nil
	}
	return TurnInterrupt.Do(ctx, s.conn, TurnInterruptParams{ThreadID: s.ThreadID(), TurnID: turn})
}

// Review implements Client: `review/start`.
func (s *Session) Review(ctx context.Context, target ReviewTarget) error {
	return ReviewStart.Do(ctx, s.conn, ReviewStartParams{ThreadID: s.ThreadID(), Target: target})
}

// ShellCommand implements Client: `thread/shellCommand`.
func (s *Session) ShellCommand(ctx context.Context, command string) error {
	return ThreadShellCommand.Do(ctx, s.conn, ThreadShellCommandParams{ThreadID: s.ThreadID(), Command: command})
}

// ForkThread implements Client: `thread/fork` for id with the session's
// settings (and beforeTurnId when beforeTurn is set); the fork becomes
// current and its Thread.Turns holds the copied history. It runs where
// ResumeCwd says: by default in the source thread's directory.
func (s *Session) ForkThread(ctx context.Context, id, beforeTurn string) (ThreadResponse, error) {
	cfg, err := s.threadConfig(ctx)
	if err != nil {
		return ThreadResponse{}, err
	}
	return s.opened(ThreadFork.Call(ctx, s.conn, ThreadForkParams{
		ThreadID:       id,
		BeforeTurnID:   beforeTurn,
		Cwd:            s.openCwd(),
		ApprovalPolicy: s.opts.ApprovalPolicy,
		Sandbox:        s.opts.Sandbox,
		Config:         cfg,
	}))
}

// ListThreads implements Client: one page of `thread/list`.
func (s *Session) ListThreads(ctx context.Context, p ThreadListParams) (ThreadListResponse, error) {
	return ThreadList.Call(ctx, s.conn, p)
}

// ReadThread implements Client: `thread/read` without turns.
func (s *Session) ReadThread(ctx context.Context, id string) (Thread, error) {
	resp, err := ThreadRead.Call(ctx, s.conn, ThreadReadParams{ThreadID: id})
	return resp.Thread, err
}

// ReadThreadTurns runs `thread/read` with the thread's turns (its whole
// history).
func (s *Session) ReadThreadTurns(ctx context.Context, id string) (Thread, error) {
	resp, err := ThreadRead.Call(ctx, s.conn, ThreadReadParams{ThreadID: id, IncludeTurns: true})
	return resp.Thread, err
}

// RenameThread implements Client: `thread/name/set`.
func (s *Session) RenameThread(ctx context.Context, name string) error {
	return ThreadSetName.Do(ctx, s.conn, ThreadSetNameParams{ThreadID: s.ThreadID(), Name: name})
}

// ArchiveThread implements Client: `thread/archive`.
func (s *Session) ArchiveThread(ctx context.Context) error {
	return ThreadArchive.Do(ctx, s.conn, ThreadIDParams{ThreadID: s.ThreadID()})
}

// Compact implements Client: `thread/compact/start`.
func (s *Session) Compact(ctx context.Context) error {
	return ThreadCompactStart.Do(ctx, s.conn, ThreadIDParams{ThreadID: s.ThreadID()})
}

// ListModels implements Client: `model/list`, following nextCursor for up
// to ten pages.
func (s *Session) ListModels(ctx context.Context) ([]ModelInfo, error) {
	var all []ModelInfo
	var cursor *string
	for range 10 {
		r, err := ModelList.Call(ctx, s.conn, ModelListParams{Cursor: cursor})
		if err != nil {
			return nil, err
		}
		all = append(all, r.Data...)
		if r.NextCursor == nil || *r.NextCursor == "" {
			break
		}
		cursor = r.NextCursor
	}
	return all, nil
}

// McpServers implements Client: `mcpServerStatus/list` (tools and auth).
func (s *Session) McpServers(ctx context.Context) ([]McpServerStatus, error) {
	r, err := McpServerStatusList.Call(ctx, s.conn, McpServerStatusListParams{ThreadID: s.ThreadID(), Detail: "toolsAndAuthOnly"})
	return r.Data, err
}

// HooksListParams are the params of `hooks/list`.
type HooksListParams struct {
	ThreadID string `json:"threadId,omitempty"`
}

// HookInfo is one configured hook (`HookMetadata`): its event, matcher,
// command (for a command hook), where it is configured, whether it is
// enabled, and its trust ("trusted", "untrusted", "modified", "managed"):
// an untrusted hook does not run until its Key's trusted_hash is
// CurrentHash (`[hooks.state."KEY"] trusted_hash` in config.toml).
type HookInfo struct {
	Key         string  `json:"key"`
	EventName   string  `json:"eventName"`
	HandlerType string  `json:"handlerType"`
	Command     string  `json:"command"`
	Matcher     *string `json:"matcher"`
	SourcePath  string  `json:"sourcePath"`
	Enabled     bool    `json:"enabled"`
	TrustStatus string  `json:"trustStatus"`
	CurrentHash string  `json:"currentHash"`
}

// hooksListResponse is the result of `hooks/list`.
type hooksListResponse struct {
	Data []struct {
		Hooks []HookInfo `json:"hooks"`
	} `json:"data"`
}

// ListHooks implements Client: `hooks/list` for the current thread.
func (s *Session) ListHooks(ctx context.Context) ([]HookInfo, error) {
	r, err := HooksList.Call(ctx, s.conn, HooksListParams{ThreadID: s.ThreadID()})
	if err != nil {
		return nil, err
	}
	var out []HookInfo
	for _, d := range r.Data {
		out = append(out, d.Hooks...)
	}
	return out, nil
}

// McpOauthLoginParams are the params of `mcpServer/oauth/login`.
type McpOauthLoginParams struct {
	Name     string `json:"name"`
	ThreadID string `json:"threadId,omitempty"`
}

// McpOauthLoginResponse is the result of `mcpServer/oauth/login`.
type McpOauthLoginResponse struct {
	AuthorizationURL string `json:"authorizationUrl"`
}

// McpLogin implements Client: `mcpServer/oauth/login`.
func (s *Session) McpLogin(ctx context.Context, name string) (string, error) {
	r, err := McpOauthLogin.Call(ctx, s.conn, McpOauthLoginParams{Name: name, ThreadID: s.ThreadID()})
	return r.AuthorizationURL, err
}

// FuzzyFileSearch implements Client: `fuzzyFileSearch`.
func (s *Session) FuzzyFileSearch(ctx context.Context, query string, roots []string) ([]FuzzyFileMatch, error) {
	r, err := FuzzyFileSearch.Call(ctx, s.conn, FuzzyFileSearchParams{Query: query, Roots: roots})
	return r.Files, err
}

// ReadAccount implements Client: `account/read`.
func (s *Session) ReadAccount(ctx context.Context) (AccountReadResponse, error) {
	return AccountRead.Call(ctx, s.conn, AccountReadParams{})
}

// ReadRateLimits implements Client: `account/rateLimits/read`.
func (s *Session) ReadRateLimits(ctx context.Context) (RateLimitSnapshot, error) {
	r, err := AccountRateLimitsRead.Call(ctx, s.conn, nil)
	return r.RateLimits, err
}

// rateLimitsResponse is the part of `account/rateLimits/read`'s result
// tandem reads.
type rateLimitsResponse struct {
	RateLimits RateLimitSnapshot `json:"rateLimits"`
}

// Login implements Client: `account/login/start`.
func (s *Session) Login(ctx context.Context, p LoginStartParams) (LoginStartResponse, error) {
	return AccountLoginStart.Call(ctx, s.conn, p)
}

// Logout implements Client: `account/logout` (its result is empty).
func (s *Session) Logout(ctx context.Context) error {
	return AccountLogout.Do(ctx, s.conn, nil)
}

// CancelLogin implements Client: `account/login/cancel`.
func (s *Session) CancelLogin(ctx context.Context, loginID string) error {
	return AccountLoginCancel.Do(ctx, s.conn, LoginCancelParams{LoginID: loginID})
}

// LoginCancelParams are the params of `account/login/cancel`.
type LoginCancelParams struct {
	LoginID string `json:"loginId"`
}
