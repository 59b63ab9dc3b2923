package commands

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
	"tandem/ui"
)

// world is a World the test sets.
type world struct {
	turn       Turn
	server     Server
	status     Status
	draft      string
	pastes     map[string]string // placeholder → text (Expand)
	covered    bool
	form       bool
	agentShown bool
	agents     []Agent
	cwd        string
	diff       string
	answer     string
	mcp        map[string]string
	undo       string
	recap      Recap
}

func (w *world) Turn() Turn      { return w.turn }
func (w *world) Server() Server  { return w.server }
func (w *world) Status() Status  { return w.status }
func (w *world) Draft() string   { return w.draft }
func (w *world) Covered() bool   { return w.covered }
func (w *world) FormShown() bool { return w.form }
func (w *world) AgentShown() bool {
	return w.agentShown
}
func (w *world) Agents() []Agent               { return w.agents }
func (w *world) ThreadCwd() string             { return w.cwd }
func (w *world) Diff() string                  { return w.diff }
func (w *world) LastAnswer() string            { return w.answer }
func (w *world) McpStartup() map[string]string { return w.mcp }
func (w *world) UndoBlocked() string           { return w.undo }
func (w *world) Recap() Recap                  { return w.recap }
func (w *world) Expand(s string) string {
	for k, v := range w.pastes {
		s = strings.ReplaceAll(s, k, v)
	}
	return s
}

// clock is the test's clock: Now is *now; no timer runs.
type clock struct{ now *time.Time }

func (c clock) Now() time.Time                                     { return *c.now }
func (clock) After(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }

// rig drives the commands as the root does and keeps what they ask for.
type rig struct {
	t   *testing.T
	c   *Commands
	w   *world
	out act.Out
	now time.Time
}

const (
	grace = 400 * time.Millisecond
	quiet = 500 * time.Millisecond
)

// newRig is a host's commands with a ready app-server, thread th-1 open
// in /w, nothing running.
func newRig(t *testing.T) *rig { return newRoleRig(t, act.Role{}) }

func newRoleRig(t *testing.T, role act.Role) *rig {
	r := &rig{t: t, now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC), w: &world{
		server: Server{Online: true, Ready: true, ThreadID: "th-1", Version: "codex 0.169.0"},
		cwd:    "/w",
		recap:  Recap{Turns: []TurnRef{{ID: "turn-1", Prompt: "first prompt"}}},
		status: Status{Info: ui.StatusInfo{Model: "gpt-x", Cwd: "~/w", Approval: "on-request", Sandbox: "workspace-write"}},
	}}
	env := act.Env{Out: &r.out, Clock: clock{now: &r.now}, Role: role}
	r.c = New(env, Options{Grace: grace, Quiet: quiet, Workspace: "/local", World: r.w})
	return r
}

// enter types draft and presses Enter: it reports whether the commands
// took it, and returns (and forgets) what they asked for.
func (r *rig) enter(draft string) (bool, []act.Intent) {
	r.w.draft = draft
	ok := r.c.Enter(draft)
	return ok, r.take()
}

// take returns the intents asked for since the last take, and forgets
// them (the commands' own commands too).
func (r *rig) take() []act.Intent {
	i := r.out.Intents
	r.out.Intents, r.out.Cmds = nil, nil
	return i
}

// kinds names each intent: its type, a call as "call T".
func kinds(is []act.Intent) []string {
	var out []string
	for _, i := range is {
		if rq, ok := i.(act.Request); ok {
			out = append(out, fmt.Sprintf("call %T", rq.Do))
			continue
		}
		out = append(out, fmt.Sprintf("%T", i))
	}
	return out
}

// only returns the intents of type T.
func only[T any](is []act.Intent) []T {
	var out []T
	for _, i := range is {
		if v, ok := i.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// calls returns the actions asked for, each for the commands.
func calls(t *testing.T, is []act.Intent) []act.Action {
	t.Helper()
	var out []act.Action
	for _, rq := range only[act.Request](is) {
		if rq.For != act.ToCommands {
			t.Errorf("a call's answer goes to %v, not the commands", rq.For)
		}
		out = append(out, rq.Do)
	}
	return out
}

// notice is the last notice set ("" for none).
func notice(is []act.Intent) string {
	n := only[act.SetNotice](is)
	if len(n) == 0 {
		return ""
	}
	return n[len(n)-1].Text
}

// banner is the one banner asked for, as "text\ndetail…".
func banner(t *testing.T, is []act.Intent) (act.Banner, string) {
	t.Helper()
	b := only[act.Banner](is)
	if len(b) != 1 {
		t.Fatalf("%d banners, want 1: %v", len(b), kinds(is))
	}
	return b[0], b[0].Text + "\n" + strings.Join(b[0].Detail, "\n")
}

// ran reports whether the intents are those of a command that ran: the
// draft emptied first, then the notice cleared.
func ran(is []act.Intent) bool {
	if len(is) < 2 {
		return false
	}
	d, ok := is[0].(act.SetDraft)
	_, cleared := is[1].(act.ClearNotice)
	return ok && d.Text == "" && cleared
}
