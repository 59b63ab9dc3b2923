package backend

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// The skills, collaboration mode and goal notifications decode to their
// events, each naming its thread.
func TestDecodeSkillsAndGoalNotifications(t *testing.T) {
	done := "complete"
	tests := []struct {
		method, params string
		want           Event
	}{
		{"skills/changed", `{}`, SkillsChangedEvent{}},
		{"skills/changed", ``, SkillsChangedEvent{}},
		{"thread/goal/updated", `{"threadId":"th","turnId":null,"goal":{"threadId":"th","objective":"ship it","status":"active","tokenBudget":null,"tokensUsed":5,"timeUsedSeconds":2,"createdAt":1,"updatedAt":2}}`,
			GoalUpdatedEvent{ThreadID: "th", Goal: ThreadGoal{ThreadID: "th", Objective: "ship it", Status: "active", TokensUsed: 5, TimeUsedSeconds: 2, CreatedAt: 1, UpdatedAt: 2}}},
		{"thread/goal/updated", `{"threadId":"th","turnId":"tu","goal":{"threadId":"th","objective":"x","status":"complete","tokensUsed":0,"timeUsedSeconds":0,"createdAt":1,"updatedAt":1}}`,
			GoalUpdatedEvent{ThreadID: "th", TurnID: ptr("tu"), Goal: ThreadGoal{ThreadID: "th", Objective: "x", Status: done, CreatedAt: 1, UpdatedAt: 1}}},
		{"thread/goal/cleared", `{"threadId":"th"}`, GoalClearedEvent{ThreadID: "th"}},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.params, func(t *testing.T) {
			ev, err := DecodeNotification(tt.method, json.RawMessage(tt.params))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ev, tt.want) {
				t.Fatalf("got %#v\nwant %#v", ev, tt.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// Unsupported tells "the server has no such method, or has it off" from
// other failures.
func TestUnsupported(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{&RPCError{Code: CodeMethodNotFound, Message: "method not found"}, true},
		{&RPCError{Code: CodeInvalidRequest, Message: "Invalid request: unknown variant `collaborationMode/list`, expected one of …"}, true},
		{&RPCError{Code: CodeInvalidRequest, Message: "goals feature is disabled"}, true},
		{fmt.Errorf("thread/goal/get: %w", &RPCError{Code: CodeInvalidRequest, Message: "goals feature is disabled"}), true},
		{&RPCError{Code: CodeInvalidRequest, Message: "thread not found"}, false},
		{&RPCError{Code: -32603, Message: "internal error"}, false},
		{errors.New("connection closed"), false},
		{nil, false},
	}
	for _, tt := range tests {
		if got := Unsupported(tt.err); got != tt.want {
			t.Errorf("Unsupported(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

// The calls send their params as the schema names them and decode their
// answers: skills/list for one cwd (entries merged), collaborationMode/list,
// and the goal methods on the session's thread with the user's origin.
func TestSkillsModesAndGoalCalls(t *testing.T) {
	s, pt, _ := startFakeSession(t)
	ctx := context.Background()
	type result struct {
		v   any
		err error
	}
	tests := []struct {
		name       string
		call       func() (any, error)
		method     string
		wantParams string
		answer     string
		want       any
	}{
		{"skills", func() (any, error) { return s.ListSkills(ctx, "/w", true) }, "skills/list", `{"cwds":["/w"],"forceReload":true}`,
			`{"data":[{"cwd":"/w","skills":[{"name":"deploy","description":"Ship","path":"/w/.codex/skills/deploy/SKILL.md","scope":"repo","enabled":true}],"errors":[{"path":"/w/bad/SKILL.md","message":"no name"}]},{"cwd":"/w","skills":[{"name":"lint","description":"Lint","path":"/h/skills/lint/SKILL.md","scope":"user","enabled":false}],"errors":[]}]}`,
			SkillsListEntry{Cwd: "/w", Skills: []Skill{{Name: "deploy", Description: "Ship", Path: "/w/.codex/skills/deploy/SKILL.md", Scope: "repo", Enabled: true},
				{Name: "lint", Description: "Lint", Path: "/h/skills/lint/SKILL.md", Scope: "user"}}, Errors: []SkillError{{Path: "/w/bad/SKILL.md", Message: "no name"}}}},
		{"skills of the session's cwd", func() (any, error) { return s.ListSkills(ctx, "", false) }, "skills/list", `{}`, `{"data":[]}`, SkillsListEntry{}},
		{"modes", func() (any, error) { return s.ListCollaborationModes(ctx) }, "collaborationMode/list", `{}`,
			`{"data":[{"name":"Plan","mode":"plan","model":null,"reasoning_effort":"medium"},{"name":"Default","mode":"default","model":null,"reasoning_effort":null}]}`,
			[]CollaborationModeMask{{Name: "Plan", Mode: ptr("plan"), ReasoningEffort: ptr("medium")}, {Name: "Default", Mode: ptr("default")}}},
		{"goal set", func() (any, error) { return s.SetGoal(ctx, "make it pass") }, "thread/goal/set", `{"objective":"make it pass","origin":"user","threadId":"th-1"}`,
			`{"goal":{"threadId":"th-1","objective":"make it pass","status":"active","tokenBudget":null,"tokensUsed":0,"timeUsedSeconds":0,"createdAt":7,"updatedAt":7}}`,
			ThreadGoal{ThreadID: "th-1", Objective: "make it pass", Status: "active", CreatedAt: 7, UpdatedAt: 7}},
		{"goal get none", func() (any, error) { return s.ReadGoal(ctx) }, "thread/goal/get", `{"threadId":"th-1"}`, `{"goal":null}`, (*ThreadGoal)(nil)},
		{"goal clear", func() (any, error) { return s.ClearGoal(ctx) }, "thread/goal/clear", `{"origin":"user","threadId":"th-1"}`, `{"cleared":true}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rc := make(chan result, 1)
			go func() {
				v, err := tt.call()
				rc <- result{v, err}
			}()
			req := pt.next(t)
			if req["method"] != tt.method {
				t.Fatalf("sent %v, want %s", req["method"], tt.method)
			}
			if got := string(mustJSON(req["params"])); got != tt.wantParams { // keys sorted: a map
				t.Errorf("params %s, want %s", got, tt.wantParams)
			}
			pt.say(t, `{"id":`+string(mustJSON(req["id"]))+`,"result":`+tt.answer+`}`)
			r := <-rc
			if r.err != nil {
				t.Fatal(r.err)
			}
			if !reflect.DeepEqual(r.v, tt.want) {
				t.Fatalf("got %#v\nwant %#v", r.v, tt.want)
			}
		})
	}
}
