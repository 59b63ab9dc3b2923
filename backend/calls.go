package backend

import (
	"context"
	"fmt"
)

// This file is Session's side of Client: each method sends one JSON-RPC
// request (or, for ListModels, one per page) with its typed params and
// decodes the typed result.

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
	var resp TurnResponse
	err = s.conn.Call(ctx, "turn/start", turnStartWithParams{
		ThreadID: s.ThreadID(), Input: in.Inputs(),
		Model: in.Model, Effort: in.Effort, ApprovalPolicy: in.ApprovalPolicy, SandboxPolicy: sb,
		CollaborationMode: in.Collaboration,
	}, &resp)
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
		return fmt.Errorf("turn/steer: %w", ErrNoActiveTurn)
	}
	var resp struct {
		TurnID string `json:"turnId"`
	}
	return s.conn.Call(ctx, "turn/steer", TurnSteerParams{ThreadID: s.ThreadID(), Input: in.Inputs(), ExpectedTurnID: turn}, &resp)
}

// Interrupt implements Client: `turn/interrupt` for the running turn, a
// no-op when none runs.
func (s *Session) Interrupt(ctx context.Context) error {
	turn := s.TurnID()
	if turn == "" {
		return nil
	}
	return s.conn.Call(ctx, "turn/interrupt", TurnInterruptParams{ThreadID: s.ThreadID(), TurnID: turn}, nil)
}

// Review implements Client: `review/start`.
func (s *Session) Review(ctx context.Context, target ReviewTarget) error {
	return s.conn.Call(ctx, "review/start", ReviewStartParams{ThreadID: s.ThreadID(), Target: target}, nil)
}

// ShellCommand implements Client: `thread/shellCommand`.
func (s *Session) ShellCommand(ctx context.Context, command string) error {
	return s.conn.Call(ctx, "thread/shellCommand", ThreadShellCommandParams{ThreadID: s.ThreadID(), Command: command}, nil)
}

// ForkThread implements Client: `thread/fork` for id with the session's
// settings (and beforeTurnId when beforeTurn is set); the fork becomes
// current and its Thread.Turns holds the copied history.
func (s *Session) ForkThread(ctx context.Context, id, beforeTurn string) (ThreadResponse, error) {
	cfg, err := s.threadConfig(ctx)
	if err != nil {
		return ThreadResponse{}, err
	}
	return s.openThread(ctx, "thread/fork", ThreadForkParams{
		ThreadID:       id,
		BeforeTurnID:   beforeTurn,
		Cwd:            s.opts.Cwd,
		ApprovalPolicy: s.opts.ApprovalPolicy,
		Sandbox:        s.opts.Sandbox,
		Config:         cfg,
	})
}

// ListThreads implements Client: one page of `thread/list`.
func (s *Session) ListThreads(ctx context.Context, p ThreadListParams) (ThreadListResponse, error) {
	var resp ThreadListResponse
	err := s.conn.Call(ctx, "thread/list", p, &resp)
	return resp, err
}

// ReadThread implements Client: `thread/read` without turns.
func (s *Session) ReadThread(ctx context.Context, id string) (Thread, error) {
	var resp ThreadReadResponse
	err := s.conn.Call(ctx, "thread/read", ThreadReadParams{ThreadID: id}, &resp)
	return resp.Thread, err
}

// ReadThreadTurns runs `thread/read` with the thread's turns (its whole
// history).
func (s *Session) ReadThreadTurns(ctx context.Context, id string) (Thread, error) {
	var resp ThreadReadResponse
	err := s.conn.Call(ctx, "thread/read", ThreadReadParams{ThreadID: id, IncludeTurns: true}, &resp)
	return resp.Thread, err
}

// RenameThread implements Client: `thread/name/set`.
func (s *Session) RenameThread(ctx context.Context, name string) error {
	return s.conn.Call(ctx, "thread/name/set", ThreadSetNameParams{ThreadID: s.ThreadID(), Name: name}, nil)
}

// ArchiveThread implements Client: `thread/archive`.
func (s *Session) ArchiveThread(ctx context.Context) error {
	return s.conn.Call(ctx, "thread/archive", ThreadIDParams{ThreadID: s.ThreadID()}, nil)
}

// Compact implements Client: `thread/compact/start`.
func (s *Session) Compact(ctx context.Context) error {
	return s.conn.Call(ctx, "thread/compact/start", ThreadIDParams{ThreadID: s.ThreadID()}, nil)
}

// ListModels implements Client: `model/list`, following nextCursor for up
// to ten pages.
func (s *Session) ListModels(ctx context.Context) ([]ModelInfo, error) {
	var all []ModelInfo
	var cursor *string
	for range 10 {
		var r ModelListResponse
		if err := s.conn.Call(ctx, "model/list", ModelListParams{Cursor: cursor}, &r); err != nil {
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
	var r McpServerStatusListResponse
	err := s.conn.Call(ctx, "mcpServerStatus/list", McpServerStatusListParams{ThreadID: s.ThreadID(), Detail: "toolsAndAuthOnly"}, &r)
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
	var r hooksListResponse
	if err := s.conn.Call(ctx, "hooks/list", HooksListParams{ThreadID: s.ThreadID()}, &r); err != nil {
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
	var r McpOauthLoginResponse
	err := s.conn.Call(ctx, "mcpServer/oauth/login", McpOauthLoginParams{Name: name, ThreadID: s.ThreadID()}, &r)
	return r.AuthorizationURL, err
}

// FuzzyFileSearch implements Client: `fuzzyFileSearch`.
func (s *Session) FuzzyFileSearch(ctx context.Context, query string, roots []string) ([]FuzzyFileMatch, error) {
	var r FuzzyFileSearchResponse
	err := s.conn.Call(ctx, "fuzzyFileSearch", FuzzyFileSearchParams{Query: query, Roots: roots}, &r)
	return r.Files, err
}

// ReadAccount implements Client: `account/read`.
func (s *Session) ReadAccount(ctx context.Context) (AccountReadResponse, error) {
	var r AccountReadResponse
	err := s.conn.Call(ctx, "account/read", AccountReadParams{}, &r)
	return r, err
}

// ReadRateLimits implements Client: `account/rateLimits/read`.
func (s *Session) ReadRateLimits(ctx context.Context) (RateLimitSnapshot, error) {
	var r struct {
		RateLimits RateLimitSnapshot `json:"rateLimits"`
	}
	err := s.conn.Call(ctx, "account/rateLimits/read", nil, &r)
	return r.RateLimits, err
}

// Login implements Client: `account/login/start`.
func (s *Session) Login(ctx context.Context, p LoginStartParams) (LoginStartResponse, error) {
	var r LoginStartResponse
	err := s.conn.Call(ctx, "account/login/start", p, &r)
	return r, err
}

// Logout implements Client: `account/logout` (its result is empty).
func (s *Session) Logout(ctx context.Context) error {
	return s.conn.Call(ctx, "account/logout", nil, nil)
}

// CancelLogin implements Client: `account/login/cancel`.
func (s *Session) CancelLogin(ctx context.Context, loginID string) error {
	return s.conn.Call(ctx, "account/login/cancel", LoginCancelParams{LoginID: loginID}, nil)
}

// LoginCancelParams are the params of `account/login/cancel`.
type LoginCancelParams struct {
	LoginID string `json:"loginId"`
}
