package commands

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"

	"tandem/backend"
	"tandem/model/act"
	"tandem/ui"
)

// The commands about the open thread: /rename, /compact's answer, /diff,
// /init and /goal. (/new, /fork, /archive, /review and /undo are intents
// of the turn machine's and the rewind's: table.go.)

// rename is /rename NAME (`thread/name/set`); without a name it says how,
// and leaves "/rename " in the draft.
func (c *Commands) rename(args string) {
	if args == "" {
		c.out().Notice(act.NoticeInfo, "usage: /rename NAME")
		c.out().Want(act.SetDraft{Text: "/rename "})
		return
	}
	c.out().Call(act.ToCommands, act.RenameThread{Name: args})
}

func (c *Commands) onRenamed(r act.ThreadRenamed) {
	if r.Err != nil {
		c.failed("rename", r.Err)
		return
	}
	c.info("Thread renamed to “"+r.Name+"”", nil)
}

func (c *Commands) onCompact(r act.CompactStarted) {
	if r.Err != nil {
		c.failed("compact", r.Err)
		return
	}
	c.info("Compacting the thread…", nil)
}

// diff is /diff: the thread's last diff, every file's every line (read by
// internal/lib/unidiff), as a cell of the transcript.
func (c *Commands) diff(string) {
	diff := c.world.Diff()
	if strings.TrimSpace(diff) == "" {
		c.info("No diff yet: no turn changed files in this thread", nil)
		return
	}
	c.out().Want(act.Echo{Cell: &ui.DiffCell{Title: "Last turn's diff", Diff: diff}})
	c.out().Want(act.Follow{})
}

// agentsFile is the file /init writes, in the thread's workspace.
const agentsFile = "AGENTS.md"

// initAgents is /init: unless AGENTS.md exists in the thread's workspace
// (asked of the server with `fs/readFile`, so a remote workspace counts),
// it sends Codex's /init prompt (act.InitPrompt) as a turn, with the
// thread's usual approvals; the transcript shows "/init" for it.
func (c *Commands) initAgents(string) {
	cwd := c.world.ThreadCwd()
	if cwd == "" {
		c.out().Notice(act.NoticeInfo, "/init: the thread's workspace is not known yet")
		return
	}
	c.out().Call(act.ToCommands, act.ReadFile{Path: path.Join(cwd, agentsFile)})
}

// onInitCheck takes the answer to /init's look for AGENTS.md: no error
// means it exists, an fs.ErrNotExist error that it does not.
func (c *Commands) onInitCheck(r act.FileRead) {
	t, s := c.world.Turn(), c.world.Server()
	switch {
	case r.Err == nil:
		c.info(agentsFile+" already exists here: /init leaves it as it is (edit it, or remove it and /init again)", []string{r.Path})
	case !errors.Is(r.Err, fs.ErrNotExist):
		c.out().Banner(ui.BannerError, "/init: could not check for "+agentsFile+": "+act.OneLine(r.Err), nil)
	case t.Busy || t.Switching || !s.Ready:
		c.out().Notice(act.NoticeInfo, "/init: a turn started meanwhile — /init again once it ends")
	default:
		c.out().Want(act.SendPrompt{Shown: "/init", Text: act.InitPrompt})
	}
}

// The thread's goal: /goal TEXT sets it (`thread/goal/set`), /goal shows
// it (`thread/goal/get`), /goal clear clears it (`thread/goal/clear`);
// the answer becomes the thread's goal (act.SetGoal).

// goalUsage is /goal's usage line.
const goalUsage = "/goal shows the thread's goal · /goal TEXT sets it · /goal clear clears it"

// parseGoal splits /goal's arguments: "" shows the goal, "clear" clears
// it, anything else is the objective to set.
func parseGoal(args string) (action, objective string) {
	args = strings.TrimSpace(args)
	switch strings.ToLower(args) {
	case "":
		return "show", ""
	case "clear":
		return "clear", ""
	}
	return "set", args
}

// goal is /goal [TEXT | clear].
func (c *Commands) goal(args string) {
	if c.world.Server().ThreadID == "" {
		c.out().Notice(act.NoticeInfo, "/goal needs an open thread")
		return
	}
	var a act.Action = act.ReadGoal{}
	switch action, objective := parseGoal(args); action {
	case "clear":
		a = act.ClearGoal{}
	case "set":
		a = act.WriteGoal{Objective: objective}
	}
	c.out().Call(act.ToCommands, a)
}

func (c *Commands) onGoalRead(r act.GoalRead) {
	switch {
	case r.Err != nil:
		c.goalFailed(r.Err)
	case r.Goal == nil:
		c.goalDone(nil, "No goal for this thread", []string{goalUsage})
	default:
		c.goalDone(r.Goal, "Goal: "+r.Goal.Objective, goalLines(*r.Goal))
	}
}

func (c *Commands) onGoalWritten(r act.GoalWritten) {
	if r.Err != nil {
		c.goalFailed(r.Err)
		return
	}
	g := r.Goal
	c.goalDone(&g, "Goal set: "+g.Objective,
		[]string{"codex works towards it across turns until it is complete; /goal shows it, /goal clear clears it"})
}

func (c *Commands) onGoalCleared(r act.GoalCleared) {
	switch {
	case r.Err != nil:
		c.goalFailed(r.Err)
	case !r.Cleared:
		c.goalDone(nil, "No goal to clear", nil)
	default:
		c.goalDone(nil, "Goal cleared", nil)
	}
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

// goalFailed says a /goal call failed; a server without goals says so
// plainly, the server's words after.
func (c *Commands) goalFailed(err error) {
	line := act.OneLine(err)
	if backend.Unsupported(err) {
		first, _, _ := strings.Cut(err.Error(), "\n")
		line = "goals are not available on this server (" + first + ")"
	}
	c.out().Banner(ui.BannerError, "/goal: "+ui.SanitizeLine(line), nil)
}

// goalDone makes g the thread's goal and shows /goal's answer.
func (c *Commands) goalDone(g *backend.ThreadGoal, title string, lines []string) {
	c.out().Want(act.SetGoal{Goal: g})
	c.info(ui.SanitizeLine(title), lines)
	c.out().Want(act.Follow{})
}
