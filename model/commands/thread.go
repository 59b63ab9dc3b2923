package commands

import (
	"errors"
	"io/fs"
	"path"
	"strings"

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
		c.refuse("/init: the thread's workspace is not known yet")
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
		c.giveBack("init", "/init not run")
	case t.Busy || t.Switching || !s.Ready:
		if why := "/init: a turn started meanwhile — /init again once it ends"; !c.giveBack("init", why) {
			c.out().Notice(act.NoticeInfo, why)
		}
	default:
		c.out().Want(act.Send{Shown: "/init", Text: act.InitPrompt})
	}
}

// The thread's goal: /goal TEXT sets it, /goal shows it, /goal clear
// clears it; the calls, the answer's banner and the goal the status line
// shows are the turn machine's (act.Goal).

// parseGoal splits /goal's arguments: "" shows the goal (act.GoalShow),
// "clear" clears it (act.GoalClear), anything else is the objective to
// set (act.GoalSet).
func parseGoal(args string) (action, objective string) {
	args = strings.TrimSpace(args)
	switch strings.ToLower(args) {
	case "":
		return act.GoalShow, ""
	case "clear":
		return act.GoalClear, ""
	}
	return act.GoalSet, args
}

// goal is /goal [TEXT | clear].
func (c *Commands) goal(args string) {
	if c.world.Server().ThreadID == "" {
		c.refuse("/goal needs an open thread")
		return
	}
	action, objective := parseGoal(args)
	c.out().Want(act.Goal{Action: action, Objective: objective})
}
