package commands

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"

	"tandem/model/act"
	"tandem/model/keys"
)

// command is one slash command: its name (without "/"), the description
// shown in the popup and by /help, and when it may run: idleOnly not
// while a turn runs or a thread opens; server only with a ready
// app-server; agentSafe also while a sub-agent is shown; blocked says
// why it can't run now for reasons of its own. args: it takes arguments
// (the rest of the line); one that takes none, given some, is refused
// and its line kept (argsRefusal), never run with the text dropped. ask
// is the question it asks first (slash.go), run what it does (args is
// the rest of the line).
//
// A destructive command quits, interrupts, discards or rewinds. Like
// every command it runs only by its whole name or when picked by moving
// onto it in the popup (slash.go); /help names the destructive ones, and
// the tests hold each of them to that rule.
type command struct {
	name, desc  string
	idleOnly    bool
	destructive bool
	server      bool
	agentSafe   bool
	args        bool
	// key, when set, is the binding that does the same: its keys fill
	// the description's %s ("(f3)").
	key     func(*keys.Map) key.Binding
	blocked func(c *Commands) string
	ask     func(c *Commands) string
	run     func(c *Commands, args string)
}

// table is the slash commands in the order /help lists them.
var table []*command

func init() {
	table = []*command{
		{name: "model", desc: "choose the model and reasoning effort for the next turns", idleOnly: true, server: true, run: (*Commands).model},
		{name: "approvals", desc: "choose the approval policy and sandbox", idleOnly: true, run: (*Commands).approvals},
		{name: "status", desc: "show model, cwd, account, tokens, context, limits, server", agentSafe: true, run: (*Commands).showStatus},
		{name: "diff", desc: "show the last turn's diff", run: (*Commands).diff},
		{name: "new", destructive: true, desc: "start a new thread", idleOnly: true, server: true, run: want(act.NewThread{})},
		{name: "resume", desc: "resume an earlier thread", idleOnly: true, server: true, run: (*Commands).resume},
		{name: "fork", desc: "fork this thread into a new one", idleOnly: true, server: true, run: want(act.Fork{})},
		{name: "agents", desc: "the thread's sub-agents: open one to watch it (%s)", agentSafe: true, key: func(k *keys.Map) key.Binding { return k.Agents }, run: func(c *Commands, _ string) { c.Agents() }},
		{name: "undo", destructive: true, desc: "take back the last turn and its file changes", idleOnly: true, blocked: func(c *Commands) string { return c.world.UndoBlocked() }, run: want(act.Undo{})},
		{name: "rename", args: true, desc: "rename this thread: /rename NAME", server: true, run: (*Commands).rename},
		{name: "archive", destructive: true, desc: "archive this thread and start a new one", idleOnly: true, server: true, run: want(act.Archive{})},
		{name: "compact", destructive: true, desc: "summarize the thread to free context", idleOnly: true, server: true, run: call(act.CompactThread{})},
		{name: "review", desc: "review the uncommitted changes", idleOnly: true, server: true, run: want(act.Review{})},
		{name: "search", args: true, desc: "find threads holding a word and resume one at the turn: /search [--all] QUERY", idleOnly: true, server: true, run: (*Commands).search},
		{name: "init", desc: "write an AGENTS.md for this repository (Codex's /init prompt, as a turn)", idleOnly: true, server: true, run: (*Commands).initAgents},
		{name: "logout", destructive: true, desc: "log out of codex (the stored login is forgotten)", idleOnly: true, server: true, run: call(act.Logout{})},
		{name: "hooks", desc: "list the thread's hooks and whether they are trusted", server: true, run: call(act.ListHooks{})},
		{name: "skills", desc: "list the workspace's skills (type $ to use one)", server: true, run: (*Commands).skills},
		{name: "plan", desc: "plan mode on or off for the next turns (%s switches modes)", key: func(k *keys.Map) key.Binding { return k.Collab }, run: want(act.SwitchMode{Plan: true})},
		{name: "goal", args: true, desc: "the thread's goal: /goal TEXT sets it, /goal clear clears it", server: true, run: (*Commands).goal},
		{name: "mcp", args: true, desc: "list MCP servers and their tools; /mcp login NAME signs in (OAuth)", server: true, run: (*Commands).mcp},
		{name: "side", args: true, desc: "ask on a throwaway fork, the thread left as it is: /side QUESTION", blocked: (*Commands).asideBlocked, run: (*Commands).side},
		{name: "recap", desc: "what the thread did since you last looked (on a throwaway fork)", blocked: (*Commands).asideBlocked, run: (*Commands).recap},
		{name: "copy", desc: "copy the last answer to the clipboard", agentSafe: true, run: func(c *Commands, _ string) { c.Copy() }},
		{name: "restart", destructive: true, desc: "restart the codex app-server", idleOnly: true, run: want(act.Restart{})},
		{name: "help", desc: "list the commands and keys", agentSafe: true, run: (*Commands).help},
		{name: "quit", destructive: true, desc: "quit tandem", agentSafe: true, run: want(act.Quit{})},
		{name: "detach", destructive: true, desc: "leave a session on the codex daemon; its turn goes on (tandem resume --last comes back)", blocked: (*Commands).detachBlocked, run: want(act.Quit{})},
		{name: "stop", destructive: true, desc: "interrupt the running turn, then quit", blocked: (*Commands).stopBlocked, ask: (*Commands).stopQuestion, run: (*Commands).stop},
	}
}

// want is a command that asks for i and nothing else.
func want(i act.Intent) func(*Commands, string) {
	return func(c *Commands, _ string) { c.out().Want(i) }
}

// call is a command that asks for the call a, its answer shown by Result.
func call(a act.Action) func(*Commands, string) {
	return func(c *Commands, _ string) { c.out().Call(act.ToCommands, a) }
}

// about is the command's description for people, with its key (about
// what the keymap binds now).
func (cmd *command) about(km *keys.Map) string {
	if cmd.key == nil {
		return cmd.desc
	}
	return fmt.Sprintf(cmd.desc, cmd.key(km).Help().Key)
}

// find returns the command named name (nil: none).
func find(name string) *command {
	for _, cmd := range table {
		if cmd.name == name {
			return cmd
		}
	}
	return nil
}

// guestBlocked are the slash commands a guest of tandem serve may not
// run: /approvals would loosen the host's approval policy and sandbox for
// the guest's turns.
var guestBlocked = map[string]bool{"approvals": true}

// sharedBlocked are the slash commands that would switch the one thread
// every viewer of a shared session folds: they are refused there, since
// the other viewers' models would not follow. (/restart is not: tandem
// serve restarts the app-server for everyone, on the same thread.)
var sharedBlocked = map[string]bool{
	"new": true, "resume": true, "fork": true, "archive": true, "undo": true,
}

// argsRefusal says why cmd won't run with args ("" when it will): a
// command that takes no arguments refuses any, so the text after it is
// kept (the caller gives the line back) instead of dropped.
func argsRefusal(cmd *command, args string) string {
	if cmd.args || args == "" {
		return ""
	}
	return "/" + cmd.name + " takes no arguments"
}

// refusal says why cmd can't run now ("" when it can): the role (a
// guest, a shared session), a sub-agent shown, a turn running or a
// thread opening for an idle-only command, no app-server for one that
// calls it, or the command's own reason.
func (c *Commands) refusal(cmd *command) string {
	role := c.env.Role
	switch {
	case role.Guest() && guestBlocked[cmd.name]:
		return "/" + cmd.name + " is the host's: guests keep the approval policy and sandbox tandem serve started with"
	case role.Shared() && sharedBlocked[cmd.name]:
		return "/" + cmd.name + " is not available in a shared session"
	case c.world.AgentShown() && !cmd.agentSafe:
		return "a sub-agent is shown — esc back to the thread for /" + cmd.name
	}
	t := c.world.Turn()
	switch {
	case cmd.idleOnly && t.Busy:
		return "/" + cmd.name + " can't run while a turn is running — wait or esc to interrupt"
	case cmd.idleOnly && t.Switching:
		return "/" + cmd.name + " can't run while a thread is opening"
	case cmd.server && !c.world.Server().Ready:
		return "/" + cmd.name + " needs a running app-server"
	case cmd.blocked != nil:
		return cmd.blocked(c)
	}
	return ""
}

// help is /help: the commands, how they run, the composer's tokens and
// the keymap.
func (c *Commands) help(string) {
	var lines, destructive []string
	for _, cmd := range table {
		lines = append(lines, fmt.Sprintf("/%-10s %s", cmd.name, cmd.about(c.keys)))
		if cmd.destructive {
			destructive = append(destructive, "/"+cmd.name)
		}
	}
	lines = append(lines, "", // slash.go
		"enter runs a command by its whole name, or the one moved onto with ↑/↓ in the / popup;",
		"a prefix or fuzzy match runs nothing (tab completes the highlighted command).",
		"these quit, interrupt, discard or rewind: "+strings.Join(destructive, " "),
		"/stop during a turn asks first: enter again confirms, esc keeps the turn",
		"")
	for _, k := range [][2]string{
		{"@file", "mention a file (fuzzy search)"},
		{"$skill", "use a skill: a popup of the workspace's skills"},
		{"!cmd", "run a shell command in the thread"},
		{"paste", "typed as keys (no bracketed paste): a draft until an enter after it"},
		{"esc esc", "on an empty input: edit an earlier message (rewind, code too)"},
	} {
		// the same column as the commands' "/name" above
		lines = append(lines, k[0]+strings.Repeat(" ", max(1, 12-utf8.RuneCountInString(k[0])))+k[1])
	}
	lines = append(lines, c.keys.HelpLines(keys.Compose, 12)...) // model/keys: the keymap
	lines = append(lines, "", "editing keys, lists, the pager, forms, and rebinding them ([keys] in the config): docs/KEYS.md")
	c.info("Commands", lines)
	c.out().Want(act.Follow{})
}
