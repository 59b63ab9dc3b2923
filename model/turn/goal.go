package turn

import (
	"fmt"
	"strings"
	"time"

	"tandem/backend"
	"tandem/model/act"
	"tandem/ui"
)

// The thread's goal: /goal TEXT sets it (`thread/goal/set`), /goal shows
// it (`thread/goal/get`), /goal clear clears it (`thread/goal/clear`);
// `thread/goal/updated` and `thread/goal/cleared` keep the status line's
// goal and its status current, whoever changed it (the agent marks it
// complete).

// goalUsage is /goal's usage line.
const goalUsage = "/goal shows the thread's goal · /goal TEXT sets it · /goal clear clears it"

// changeGoal is /goal's call: action is act.GoalShow, act.GoalSet (with
// objective) or act.GoalClear.
func (t *Turns) changeGoal(action, objective string) {
	if t.client == nil {
		return
	}
	t.out().Call(act.ToTurn, act.ChangeGoal{Action: action, Objective: objective})
}

// goalLines are /goal's details of g.
func goalLines(g backend.ThreadGoal) []string {
	used := fmt.Sprintf("used:    %d tokens", g.TokensUsed)
	if g.TokenBudget != nil {
		used += fmt.Sprintf(" of a budget of %d", *g.TokenBudget)
	}
	used += ", " + ui.FormatDuration(time.Duration(g.TimeUsedSeconds)*time.Second)
	return []string{"status:  " + g.Status, used}
}

// onGoalChanged shows /goal's outcome: the goal it leaves, or why it
// failed.
func (t *Turns) onGoalChanged(msg act.GoalChanged) {
	if msg.Err != nil {
		line := act.OneLine(msg.Err)
		if backend.Unsupported(msg.Err) { // said plainly, the server's words after
			first, _, _ := strings.Cut(msg.Err.Error(), "\n")
			line = "goals are not available on this server (" + first + ")"
		}
		t.banner(ui.BannerError, "/goal: "+ui.SanitizeLine(line), nil)
		if msg.Action == act.GoalSet && msg.Objective != "" {
			// The objective typed is never lost: back ahead of the draft.
			t.out().Want(act.RestoreDraft{Text: "/goal " + msg.Objective})
			t.notice(act.NoticeInfo, "/goal not set — it is back in the composer")
		}
		return
	}
	var title string
	var lines []string
	g := msg.Goal
	switch msg.Action {
	case act.GoalClear:
		g, title = nil, "Goal cleared"
		if !msg.Cleared {
			title = "No goal to clear"
		}
	case act.GoalSet:
		title = "Goal set: " + g.Objective
		lines = []string{"codex works towards it across turns until it is complete; /goal shows it, /goal clear clears it"}
	default:
		if g == nil {
			title, lines = "No goal for this thread", []string{goalUsage}
		} else {
			title, lines = "Goal: "+g.Objective, goalLines(*g)
		}
	}
	t.setGoal(g)
	t.banner(ui.BannerInfo, ui.SanitizeLine(title), lines)
	t.out().Want(act.Follow{})
}

// fetchGoal asks for the open thread's goal (the status line's); nothing
// without a client or thread.
func (t *Turns) fetchGoal() {
	c := t.client
	if c == nil || !t.ready || c.ThreadID() == "" {
		return
	}
	t.out().Call(act.ToTurn, act.ReadGoal{Thread: c.ThreadID()})
}

func (t *Turns) onGoalRead(msg act.GoalRead) {
	if msg.Err != nil || t.client == nil || t.client.ThreadID() != msg.Thread {
		return // a server without goals, or a thread left meanwhile
	}
	t.setGoal(msg.Goal)
}

// onGoalEvent follows `thread/goal/updated` and `thread/goal/cleared`. A
// goal that stops being active (complete, blocked, a limit reached) says
// so once.
func (t *Turns) onGoalEvent(ev backend.Event) {
	switch e := ev.(type) {
	case backend.GoalUpdatedEvent:
		prev := t.goal
		g := e.Goal
		if g.Status != backend.GoalActive && (prev == nil || prev.Status != g.Status || prev.Objective != g.Objective) {
			t.banner(ui.BannerInfo, "Goal "+goalStatusWords(g.Status)+": "+ui.SanitizeLine(g.Objective), nil)
		}
		t.setGoal(&g)
	case backend.GoalClearedEvent:
		t.setGoal(nil)
	}
}

// goalStatusWords says a goal status in words: "budgetLimited" is
// "stopped at its token budget".
func goalStatusWords(status string) string {
	switch status {
	case backend.GoalComplete:
		return "complete"
	case backend.GoalBudgetLimited:
		return "stopped at its token budget"
	case backend.GoalUsageLimited:
		return "stopped at the usage limit"
	}
	return status
}

// setGoal makes g the thread's goal (nil: none) and the status line's.
func (t *Turns) setGoal(g *backend.ThreadGoal) {
	t.goal = g
	goal, status := "", ""
	if g != nil {
		goal, status = g.Objective, g.Status
	}
	t.out().Want(act.Settings{Goal: &goal, GoalStatus: &status})
}

// threadExtras is what a thread (newly) open asks for: its goal, and the
// skills of its workspace. The goal of the thread left is forgotten.
func (t *Turns) threadExtras() {
	t.setGoal(nil)
	t.out().Want(act.FetchSkills{}) // the composer's $ popup
	t.fetchGoal()
}
