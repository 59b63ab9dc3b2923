package backend

import (
	"context"
	"errors"
	"strings"
)

// Skills (`skills/list`, `skills/changed`), collaboration modes
// (`collaborationMode/list`) and thread goals (`thread/goal/*`): the
// calls, their values and their notifications.

// SkillsListParams are the params of `skills/list`: the workspaces whose
// skills are listed (none: the session's cwd), and whether to re-scan the
// disk instead of using the server's cache.
type SkillsListParams struct {
	Cwds        []string `json:"cwds,omitempty"`
	ForceReload bool     `json:"forceReload,omitempty"`
}

// Skill is one skill (`SkillMetadata`): its Name (what `$name` names),
// Description, the absolute Path of its SKILL.md, its Scope ("repo",
// "user", "system" or "admin") and whether it is Enabled.
// ShortDescription and Interface are optional presentation hints.
type Skill struct {
	Name             string          `json:"name"`
	Description      string          `json:"description"`
	ShortDescription *string         `json:"shortDescription"`
	Path             string          `json:"path"`
	Scope            string          `json:"scope"`
	Enabled          bool            `json:"enabled"`
	Interface        *SkillInterface `json:"interface"`
}

// SkillInterface is the part of a skill's `SkillInterface` tandem shows.
type SkillInterface struct {
	DisplayName      *string `json:"displayName"`
	ShortDescription *string `json:"shortDescription"`
}

// SkillError is a SKILL.md the server could not load (`SkillErrorInfo`).
type SkillError struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// SkillsListEntry is one workspace's skills (`SkillsListEntry`).
type SkillsListEntry struct {
	Cwd    string       `json:"cwd"`
	Skills []Skill      `json:"skills"`
	Errors []SkillError `json:"errors"`
}

// skillsListResponse is the result of `skills/list`.
type skillsListResponse struct {
	Data []SkillsListEntry `json:"data"`
}

// ListSkills implements Client: `skills/list` for cwd ("" the session's
// cwd), its entries merged into one (skills in the server's order).
func (s *Session) ListSkills(ctx context.Context, cwd string, forceReload bool) (SkillsListEntry, error) {
	p := SkillsListParams{ForceReload: forceReload}
	if cwd != "" {
		p.Cwds = []string{cwd}
	}
	r, err := SkillsList.Call(ctx, s.conn, p)
	if err != nil {
		return SkillsListEntry{}, err
	}
	out := SkillsListEntry{Cwd: cwd}
	for _, e := range r.Data {
		out.Skills = append(out.Skills, e.Skills...)
		out.Errors = append(out.Errors, e.Errors...)
	}
	return out, nil
}

// SkillsChangedEvent follows `skills/changed`: skill files the server
// watches changed; `skills/list` gives the new list.
type SkillsChangedEvent struct{}

// Thread implements Event: "" — the skills are the session's.
func (SkillsChangedEvent) Thread() string { return "" }

// The collaboration modes tandem switches between (`ModeKind`).
const (
	ModeDefault = "default"
	ModePlan    = "plan"
)

// The statuses of a ThreadGoal (`ThreadGoalStatus`).
const (
	GoalActive        = "active"
	GoalComplete      = "complete"
	GoalBudgetLimited = "budgetLimited"
	GoalUsageLimited  = "usageLimited"
)

// CollaborationModeMask is one collaboration mode preset
// (`CollaborationModeMask` of `collaborationMode/list`): Name ("Plan"),
// Mode ("plan", "default"; nil for a preset without one), and the Model
// and ReasoningEffort it runs with (nil: the thread's own).
type CollaborationModeMask struct {
	Name            string  `json:"name"`
	Mode            *string `json:"mode"`
	Model           *string `json:"model"`
	ReasoningEffort *string `json:"reasoning_effort"`
}

// collaborationModeListResponse is the result of `collaborationMode/list`.
type collaborationModeListResponse struct {
	Data []CollaborationModeMask `json:"data"`
}

// ListCollaborationModes implements Client: `collaborationMode/list`
// (experimental).
func (s *Session) ListCollaborationModes(ctx context.Context) ([]CollaborationModeMask, error) {
	r, err := CollaborationModeList.Call(ctx, s.conn, Empty{})
	return r.Data, err
}

// ThreadGoal is a thread's goal (`ThreadGoal`): the Objective the agent
// works towards across turns and its Status ("active", "paused",
// "blocked", "usageLimited", "budgetLimited", "complete"), with what it
// has used so far (tokens, seconds) and its TokenBudget (nil: none).
// CreatedAt and UpdatedAt are Unix seconds.
type ThreadGoal struct {
	ThreadID        string `json:"threadId"`
	Objective       string `json:"objective"`
	Status          string `json:"status"`
	TokenBudget     *int64 `json:"tokenBudget"`
	TokensUsed      int64  `json:"tokensUsed"`
	TimeUsedSeconds int64  `json:"timeUsedSeconds"`
	CreatedAt       int64  `json:"createdAt"`
	UpdatedAt       int64  `json:"updatedAt"`
}

// threadGoalSetParams are the params of `thread/goal/set`; Origin "user"
// says the user asked for it.
type threadGoalSetParams struct {
	ThreadID  string `json:"threadId"`
	Objective string `json:"objective"`
	Origin    string `json:"origin,omitempty"`
}

// threadGoalGetParams are the params of `thread/goal/get`.
type threadGoalGetParams struct {
	ThreadID string `json:"threadId"`
}

// threadGoalClearParams are the params of `thread/goal/clear`; Origin
// "user" says the user asked for it.
type threadGoalClearParams struct {
	ThreadID string `json:"threadId"`
	Origin   string `json:"origin,omitempty"`
}

// threadGoalResponse is the result of `thread/goal/set`.
type threadGoalResponse struct {
	Goal ThreadGoal `json:"goal"`
}

// threadGoalGetResponse is the result of `thread/goal/get` (Goal nil: the
// thread has none).
type threadGoalGetResponse struct {
	Goal *ThreadGoal `json:"goal"`
}

// threadGoalClearResponse is the result of `thread/goal/clear`.
type threadGoalClearResponse struct {
	Cleared bool `json:"cleared"`
}

// SetGoal implements Client: `thread/goal/set` of objective on the
// current thread, as the user's (origin "user"); the server starts
// working towards it.
func (s *Session) SetGoal(ctx context.Context, objective string) (ThreadGoal, error) {
	r, err := ThreadGoalSet.Call(ctx, s.conn, threadGoalSetParams{ThreadID: s.ThreadID(), Objective: objective, Origin: "user"})
	return r.Goal, err
}

// ReadGoal implements Client: `thread/goal/get` for the current thread
// (nil: it has none).
func (s *Session) ReadGoal(ctx context.Context) (*ThreadGoal, error) {
	r, err := ThreadGoalGet.Call(ctx, s.conn, threadGoalGetParams{ThreadID: s.ThreadID()})
	return r.Goal, err
}

// ClearGoal implements Client: `thread/goal/clear` on the current thread,
// as the user's; cleared is false when there was no goal.
func (s *Session) ClearGoal(ctx context.Context) (cleared bool, err error) {
	r, err := ThreadGoalClear.Call(ctx, s.conn, threadGoalClearParams{ThreadID: s.ThreadID(), Origin: "user"})
	return r.Cleared, err
}

// GoalUpdatedEvent follows `thread/goal/updated`: the thread's goal was
// set or changed (its status, what it used), by the user or the agent;
// TurnID is the turn that changed it (nil: none).
type GoalUpdatedEvent struct {
	ThreadID string     `json:"threadId"`
	TurnID   *string    `json:"turnId"`
	Goal     ThreadGoal `json:"goal"`
}

// Thread implements Event.
func (e GoalUpdatedEvent) Thread() string { return e.ThreadID }

// GoalClearedEvent follows `thread/goal/cleared`: the thread has no goal
// any more.
type GoalClearedEvent struct {
	ThreadID string `json:"threadId"`
}

// Thread implements Event.
func (e GoalClearedEvent) Thread() string { return e.ThreadID }

// Unsupported reports whether err says the server does not have the
// method called or has it turned off: JSON-RPC "method not found", an
// "unknown variant" refusal of the method name (how codex answers a
// method it does not know), or a feature the server has disabled
// ("goals feature is disabled").
func Unsupported(err error) bool {
	var rpcErr *RPCError
	if !errors.As(err, &rpcErr) {
		return false
	}
	if rpcErr.Code == CodeMethodNotFound {
		return true
	}
	msg := strings.ToLower(rpcErr.Message)
	return rpcErr.Code == CodeInvalidRequest && (strings.Contains(msg, "unknown variant") || strings.Contains(msg, "feature is disabled") ||
		strings.Contains(msg, "not enabled"))
}

// ListSkills implements Client.
func (u Unavailable) ListSkills(context.Context, string, bool) (SkillsListEntry, error) {
	return SkillsListEntry{}, u.err()
}

// ListCollaborationModes implements Client.
func (u Unavailable) ListCollaborationModes(context.Context) ([]CollaborationModeMask, error) {
	return nil, u.err()
}

// SetGoal implements Client.
func (u Unavailable) SetGoal(context.Context, string) (ThreadGoal, error) {
	return ThreadGoal{}, u.err()
}

// ReadGoal implements Client.
func (u Unavailable) ReadGoal(context.Context) (*ThreadGoal, error) { return nil, u.err() }

// ClearGoal implements Client.
func (u Unavailable) ClearGoal(context.Context) (bool, error) { return false, u.err() }
