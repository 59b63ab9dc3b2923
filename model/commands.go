package model

import (
	"context"
	"fmt"
	"maps"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/model/composer"
	"tandem/model/keys"
	"tandem/ui"
)

// command is one slash command: its name (without "/"), the description
// shown in the popup and by /help, whether it needs the turn to be over,
// whether it is destructive, the question it asks first (ask, slash.go),
// and what it does (args is the rest of the line).
//
// A destructive command quits, interrupts, discards or rewinds. Like
// every command it runs only by its whole name or when picked by moving
// onto it in the popup (slash.go); /help names the destructive ones, and
// the tests hold each of them to that rule.
type command struct {
	name, desc  string
	idleOnly    bool
	destructive bool
	// key, when set, is the binding that does the same: its keys fill
	// the description's %s ("(f3)").
	key func(*keys.Map) key.Binding
	// ask returns the question to confirm before running now ("" runs at
	// once): /stop during a turn (slash.go).
	ask func(m *Model) string
	run func(m *Model, args string) tea.Cmd
}

// commands returns the slash commands in the order /help lists them.
func commands() []*command {
	return commandList
}

var commandList []*command

func init() {
	commandList = []*command{
		{name: "model", desc: "choose the model and reasoning effort for the next turns", idleOnly: true, run: (*Model).cmdModel},
		{name: "approvals", desc: "choose the approval policy and sandbox", idleOnly: true, run: (*Model).cmdApprovals},
		{name: "status", desc: "show model, cwd, account, tokens, context, limits, server", run: (*Model).cmdStatus},
		{name: "diff", desc: "show the last turn's diff", run: (*Model).cmdDiff},
		{name: "new", destructive: true, desc: "start a new thread", idleOnly: true, run: (*Model).cmdNew},
		{name: "resume", desc: "resume an earlier thread", idleOnly: true, run: (*Model).cmdResume},
		{name: "fork", desc: "fork this thread into a new one", idleOnly: true, run: (*Model).cmdFork},
		{name: "agents", desc: "the thread's sub-agents: open one to watch it (%s)", key: func(k *keys.Map) key.Binding { return k.Agents }, run: (*Model).cmdAgents},
		{name: "undo", destructive: true, desc: "take back the last turn and its file changes", idleOnly: true, run: (*Model).cmdUndo},
		{name: "rename", desc: "rename this thread: /rename NAME", run: (*Model).cmdRename},
		{name: "archive", destructive: true, desc: "archive this thread and start a new one", idleOnly: true, run: (*Model).cmdArchive},
		{name: "compact", destructive: true, desc: "summarize the thread to free context", idleOnly: true, run: (*Model).cmdCompact},
		{name: "review", desc: "review the uncommitted changes", idleOnly: true, run: (*Model).cmdReview},
		{name: "init", desc: "write an AGENTS.md for this repository (Codex's /init prompt, as a turn)", idleOnly: true, run: (*Model).cmdInit},
		{name: "logout", destructive: true, desc: "log out of codex (the stored login is forgotten)", idleOnly: true, run: (*Model).cmdLogout},
		{name: "hooks", desc: "list the thread's hooks and whether they are trusted", run: (*Model).cmdHooks},
		{name: "skills", desc: "list the workspace's skills (type $ to use one)", run: (*Model).cmdSkills},
		{name: "plan", desc: "plan mode on or off for the next turns (%s switches modes)", key: func(k *keys.Map) key.Binding { return k.Collab }, run: (*Model).cmdPlan},
		{name: "goal", desc: "the thread's goal: /goal TEXT sets it, /goal clear clears it", run: (*Model).cmdGoal},
		{name: "mcp", desc: "list MCP servers and their tools; /mcp login NAME signs in (OAuth)", run: (*Model).cmdMcp},
		{name: "copy", desc: "copy the last answer to the clipboard", run: (*Model).cmdCopy},
		{name: "restart", destructive: true, desc: "restart the codex app-server", idleOnly: true, run: (*Model).cmdRestart},
		{name: "help", desc: "list the commands and keys", run: (*Model).cmdHelp},
		{name: "quit", destructive: true, desc: "quit tandem", run: func(m *Model, _ string) tea.Cmd { return m.quit() }},
		{name: "detach", destructive: true, desc: "leave a session on the codex daemon; its turn goes on (tandem resume --last comes back)", run: (*Model).cmdDetach},
		{name: "stop", destructive: true, desc: "interrupt the running turn, then quit", ask: (*Model).stopQuestion, run: (*Model).cmdStop},
	}
}

// filterCommands returns the commands whose name matches query fuzzily,
// best first; an empty query lists them all in their usual order.
func filterCommands(cmds []*command, query string) []*command {
	return composer.Filter(cmds, query, func(c *command) string { return c.name })
}

// about is the command's description for people, with its key (about
// what the keymap binds now).
func (c *command) about(km *keys.Map) string {
	if c.key == nil {
		return c.desc
	}
	return fmt.Sprintf(c.desc, c.key(km).Help().Key)
}

// findCommand returns the command named name.
func findCommand(name string) *command {
	for _, c := range commandList {
		if c.name == name {
			return c
		}
	}
	return nil
}

// parseCommand splits a "/name args" draft at the first space or new
// line; ok is false when the draft does not start with a command's whole
// name (slash.go says what then).
func parseCommand(text string) (*command, string, bool) {
	if !strings.HasPrefix(text, "/") {
		return nil, "", false
	}
	name, args := text[1:], ""
	if i := strings.IndexFunc(name, unicode.IsSpace); i >= 0 {
		name, args = name[:i], name[i:]
	}
	c := findCommand(name)
	if c == nil {
		return nil, "", false
	}
	return c, strings.TrimSpace(args), true
}

// runCommand runs c, unless it may not run now: then it says why
// (refuse), and the draft it came from stays (runDraftCommand).
func (m *Model) runCommand(c *command, args string) tea.Cmd {
	if m.sharedBlocks(c.name) { // role.go
		m.refused = true
		return nil
	}
	if m.panes.AgentShown() && !agentSafe[c.name] { // agents.go
		m.refuse("a sub-agent is shown — esc back to the thread for /" + c.name)
		return nil
	}
	if c.idleOnly && m.turn.Busy() {
		m.refuse("/" + c.name + " can't run while a turn is running — wait or esc to interrupt")
		return nil
	}
	if c.idleOnly && m.turn.Switching() {
		m.refuse("/" + c.name + " can't run while a thread is opening")
		return nil
	}
	m.clearNotice()
	return c.run(m, args)
}

// refuse says why a command did not run; the draft it came from stays in
// the composer (runDraftCommand).
func (m *Model) refuse(why string) {
	m.setNotice(noticeInfo, why)
	m.refused = true
}

// needClient returns the client, or says why there is none.
func (m *Model) needClient(name string) (backend.Client, bool) {
	if m.turn.Client() == nil || !m.turn.Ready() {
		m.refuse("/" + name + " needs a running app-server")
		return nil, false
	}
	return m.turn.Client(), true
}

// call runs one request in a command and reports its outcome as a
// commandResultMsg: do returns the banner's title and lines.
func call(name string, do func(ctx context.Context) (string, []string, error)) tea.Cmd {
	return callCmd(func(ctx context.Context) tea.Msg {
		title, lines, err := do(ctx)
		return commandResultMsg{name: name, title: title, lines: lines, err: err}
	})
}

func (m *Model) onCommandResult(r commandResultMsg) {
	if r.err != nil {
		m.banner(ui.BannerError, "/"+r.name+": "+oneLine(r.err), nil)
		return
	}
	if r.title != "" {
		m.banner(ui.BannerInfo, r.title, r.lines)
	}
}

func (m *Model) cmdNew(string) tea.Cmd {
	if _, ok := m.needClient("new"); ok {
		m.out.Want(act.NewThread{}) // model/turn
	}
	return nil
}

func (m *Model) cmdFork(string) tea.Cmd {
	if _, ok := m.needClient("fork"); ok {
		m.out.Want(act.Fork{}) // model/turn
	}
	return nil
}

func (m *Model) cmdRename(args string) tea.Cmd {
	c, ok := m.needClient("rename")
	if !ok {
		return nil
	}
	if args == "" {
		m.setNotice(noticeInfo, "usage: /rename NAME")
		m.composer.SetDraft("/rename ")
		return nil
	}
	return call("rename", func(ctx context.Context) (string, []string, error) {
		if err := c.RenameThread(ctx, args); err != nil {
			return "", nil, fmt.Errorf("thread/name/set: %w", err)
		}
		return "Thread renamed to “" + args + "”", nil, nil
	})
}

func (m *Model) cmdArchive(string) tea.Cmd {
	if _, ok := m.needClient("archive"); ok {
		m.out.Want(act.Archive{}) // model/turn
	}
	return nil
}

func (m *Model) cmdCompact(string) tea.Cmd {
	c, ok := m.needClient("compact")
	if !ok {
		return nil
	}
	return call("compact", func(ctx context.Context) (string, []string, error) {
		if err := c.Compact(ctx); err != nil {
			return "", nil, fmt.Errorf("thread/compact/start: %w", err)
		}
		return "Compacting the thread…", nil, nil
	})
}

func (m *Model) cmdReview(string) tea.Cmd {
	if _, ok := m.needClient("review"); ok {
		m.out.Want(act.Review{}) // model/turn
	}
	return nil
}

func (m *Model) cmdMcp(args string) tea.Cmd {
	c, ok := m.needClient("mcp")
	if !ok {
		return nil
	}
	if f := strings.Fields(args); len(f) > 0 {
		if f[0] != "login" || len(f) != 2 {
			m.setNotice(noticeInfo, "usage: /mcp, or /mcp login NAME")
			return nil
		}
		name := f[1]
		return call("mcp login", func(ctx context.Context) (string, []string, error) {
			url, err := c.McpLogin(ctx, name)
			if err != nil {
				return "", nil, fmt.Errorf("mcpServer/oauth/login %s: %w", name, err)
			}
			return "Sign in to MCP server " + name + ": open this URL (F2 frees the mouse to select it)", []string{url}, nil
		})
	}
	startup := maps.Clone(m.stat.McpStartup()) // the start-up states seen (events.go)
	return call("mcp", func(ctx context.Context) (string, []string, error) {
		servers, err := c.McpServers(ctx)
		if err != nil {
			return "", nil, fmt.Errorf("mcpServerStatus/list: %w", err)
		}
		if len(servers) == 0 {
			return "No MCP servers configured", nil, nil
		}
		var lines []string
		for _, s := range servers {
			st := "unknown"
			if s.RuntimeStatus != nil {
				st = *s.RuntimeStatus
			}
			tools := make([]string, 0, len(s.Tools))
			for t := range s.Tools {
				tools = append(tools, t)
			}
			sort.Strings(tools)
			if up := startup[s.Name]; up != "" && up != "ready" {
				st += ", start-up " + up
			}
			line := fmt.Sprintf("%s — %s, auth %s, %d tools", s.Name, st, s.AuthStatus, len(tools))
			if len(tools) > 0 {
				line += ": " + strings.Join(tools, ", ")
			}
			if s.ToolsError != nil {
				line += " (error: " + *s.ToolsError + ")"
			}
			lines = append(lines, line)
		}
		return fmt.Sprintf("MCP servers (%d)", len(servers)), lines, nil
	})
}

// cmdHooks is /hooks: the hooks configured for the thread (hooks/list),
// each with its event, matcher, command and trust.
func (m *Model) cmdHooks(string) tea.Cmd {
	c, ok := m.needClient("hooks")
	if !ok {
		return nil
	}
	return call("hooks", func(ctx context.Context) (string, []string, error) {
		hooks, err := c.ListHooks(ctx)
		if err != nil {
			return "", nil, fmt.Errorf("hooks/list: %w", err)
		}
		if len(hooks) == 0 {
			return "No hooks configured", nil, nil
		}
		var lines []string
		untrusted := 0
		for _, h := range hooks {
			what := h.HandlerType
			if h.Command != "" {
				what += " " + h.Command
			}
			if h.Matcher != nil && *h.Matcher != "" {
				what = "(" + *h.Matcher + ") " + what
			}
			state := h.TrustStatus
			if !h.Enabled {
				state += ", disabled"
			}
			if h.TrustStatus == "untrusted" || h.TrustStatus == "modified" {
				untrusted++
			}
			lines = append(lines, fmt.Sprintf("%s %s — %s (%s)", h.EventName, what, state, h.SourcePath))
		}
		if untrusted > 0 {
			lines = append(lines, "", "untrusted hooks don't run: review and trust them in codex (`/hooks` in its TUI)")
		}
		return fmt.Sprintf("Hooks (%d)", len(hooks)), lines, nil
	})
}

func (m *Model) cmdDiff(string) tea.Cmd {
	diff := m.panes.Thread().Diff
	if strings.TrimSpace(diff) == "" {
		m.banner(ui.BannerInfo, "No diff yet: no turn changed files in this thread", nil)
		return nil
	}
	m.panes.Echo(&ui.DiffCell{Title: "Last turn's diff", Diff: diff}) // every file's every line, read by internal/lib/unidiff
	m.panes.Follow()
	return nil
}

func (m *Model) cmdCopy(string) tea.Cmd { return m.CopyLastAnswer() }

func (m *Model) cmdRestart(string) tea.Cmd { m.out.Want(act.Restart{}); return nil } // model/turn

func (m *Model) cmdHelp(string) tea.Cmd {
	var lines, destructive []string
	for _, c := range commandList {
		lines = append(lines, fmt.Sprintf("/%-10s %s", c.name, c.about(m.keys)))
		if c.destructive {
			destructive = append(destructive, "/"+c.name)
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
	lines = append(lines, m.keys.HelpLines(keys.Compose, 12)...) // model/keys: the keymap
	lines = append(lines, "", "editing keys, lists, the pager, forms, and rebinding them ([keys] in the config): docs/KEYS.md")
	m.banner(ui.BannerInfo, "Commands", lines)
	m.panes.Follow()
	return nil
}
