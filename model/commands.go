package model

import (
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/ui"
)

// command is one slash command: its name (without "/"), the description
// shown in the popup and by /help, whether it needs the turn to be over,
// and what it does (args is the rest of the line).
type command struct {
	name, desc string
	idleOnly   bool
	run        func(m *Model, args string) tea.Cmd
}

// commandResultMsg is the result of a command's request: lines are shown
// as an info banner titled title; err as an error banner.
type commandResultMsg struct {
	name  string
	title string
	lines []string
	err   error
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
		{name: "new", desc: "start a new thread", idleOnly: true, run: (*Model).cmdNew},
		{name: "resume", desc: "resume an earlier thread", idleOnly: true, run: (*Model).cmdResume},
		{name: "fork", desc: "fork this thread into a new one", idleOnly: true, run: (*Model).cmdFork},
		{name: "rename", desc: "rename this thread: /rename NAME", run: (*Model).cmdRename},
		{name: "archive", desc: "archive this thread and start a new one", idleOnly: true, run: (*Model).cmdArchive},
		{name: "compact", desc: "summarize the thread to free context", idleOnly: true, run: (*Model).cmdCompact},
		{name: "review", desc: "review the uncommitted changes", idleOnly: true, run: (*Model).cmdReview},
		{name: "mcp", desc: "list MCP servers and their tools", run: (*Model).cmdMcp},
		{name: "copy", desc: "copy the last answer to the clipboard", run: (*Model).cmdCopy},
		{name: "restart", desc: "restart the codex app-server", idleOnly: true, run: (*Model).cmdRestart},
		{name: "help", desc: "list the commands and keys", run: (*Model).cmdHelp},
		{name: "quit", desc: "quit tandem", run: func(m *Model, _ string) tea.Cmd { return m.quit() }},
	}
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

// parseCommand splits a "/name args" draft; ok is false when the draft is
// not a known command (then it is sent as a prompt).
func parseCommand(text string) (*command, string, bool) {
	if !strings.HasPrefix(text, "/") {
		return nil, "", false
	}
	name, args, _ := strings.Cut(strings.TrimSpace(text[1:]), " ")
	c := findCommand(name)
	if c == nil {
		return nil, "", false
	}
	return c, strings.TrimSpace(args), true
}

// runCommand runs c, unless it needs the turn to be over.
func (m *Model) runCommand(c *command, args string) tea.Cmd {
	if m.sharedBlocks(c.name) { // role.go
		return nil
	}
	if c.idleOnly && (m.running || m.startingTurn) {
		m.status.Notice = "/" + c.name + " can't run while a turn is running — wait or esc to interrupt"
		return nil
	}
	if c.idleOnly && m.x.switching {
		m.status.Notice = "/" + c.name + " can't run while a thread is opening"
		return nil
	}
	m.status.Notice = ""
	return c.run(m, args)
}

// needDriver returns the thread driver, or says why there is none.
func (m *Model) needDriver(name string) (ThreadDriver, bool) {
	td, ok := m.threadDriver()
	if !ok || !m.ready {
		m.status.Notice = "/" + name + " needs a running app-server"
		return nil, false
	}
	return td, true
}

// callCmd sends one request and reports the outcome as a commandResultMsg;
// done turns the result into banner lines.
func callCmd[R any](td ThreadDriver, name, method string, params any, done func(R) (string, []string)) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := callCtx()
		defer cancel()
		var r R
		if err := td.Call(ctx, method, params, &r); err != nil {
			return commandResultMsg{name: name, err: fmt.Errorf("%s: %w", method, err)}
		}
		title, lines := done(r)
		return commandResultMsg{name: name, title: title, lines: lines}
	}
}

func (m *Model) onCommandResult(r commandResultMsg) tea.Cmd {
	if r.err != nil {
		m.banner(ui.BannerError, "/"+r.name+": "+oneLine(r.err), nil)
		return nil
	}
	if r.title != "" {
		m.banner(ui.BannerInfo, r.title, r.lines)
	}
	return nil
}

func (m *Model) cmdNew(string) tea.Cmd {
	td, ok := m.needDriver("new")
	if !ok {
		return nil
	}
	m.x.switching = true
	return newThreadCmd(td, "")
}

func (m *Model) cmdFork(string) tea.Cmd {
	td, ok := m.needDriver("fork")
	if !ok {
		return nil
	}
	m.x.switching = true
	return forkCmd(td, td.ThreadID())
}

func (m *Model) cmdRename(args string) tea.Cmd {
	td, ok := m.needDriver("rename")
	if !ok {
		return nil
	}
	if args == "" {
		m.status.Notice = "usage: /rename NAME"
		m.setDraft("/rename ")
		return nil
	}
	return callCmd(td, "rename", "thread/name/set", backend.ThreadSetNameParams{ThreadID: td.ThreadID(), Name: args},
		func(struct{}) (string, []string) { return "Thread renamed to “" + args + "”", nil })
}

func (m *Model) cmdArchive(string) tea.Cmd {
	td, ok := m.needDriver("archive")
	if !ok {
		return nil
	}
	id := td.ThreadID()
	m.x.switching = true
	return func() tea.Msg {
		ctx, cancel := callCtx()
		defer cancel()
		if err := td.Call(ctx, "thread/archive", backend.ThreadIDParams{ThreadID: id}, nil); err != nil {
			return threadSwitchedMsg{err: fmt.Errorf("thread/archive: %w", err)}
		}
		resp, err := td.NewThread(ctx)
		return threadSwitchedMsg{resp: resp, how: "new", notice: "Archived thread " + shortID(id) + "; this is a new thread", err: err}
	}
}

func (m *Model) cmdCompact(string) tea.Cmd {
	td, ok := m.needDriver("compact")
	if !ok {
		return nil
	}
	return callCmd(td, "compact", "thread/compact/start", backend.ThreadIDParams{ThreadID: td.ThreadID()},
		func(struct{}) (string, []string) { return "Compacting the thread…", nil })
}

func (m *Model) cmdReview(string) tea.Cmd {
	td, ok := m.needDriver("review")
	if !ok {
		return nil
	}
	m.beginTurn()
	return tea.Batch(func() tea.Msg {
		ctx, cancel := callCtx()
		defer cancel()
		err := td.Call(ctx, "review/start", backend.ReviewStartParams{ThreadID: td.ThreadID(), Target: backend.ReviewTarget{Type: "uncommittedChanges"}}, nil)
		if err != nil {
			err = fmt.Errorf("review/start: %w", err)
		}
		return turnStartResult{err: err}
	}, m.startTick(), m.spin.Tick)
}

func (m *Model) cmdMcp(string) tea.Cmd {
	td, ok := m.needDriver("mcp")
	if !ok {
		return nil
	}
	return callCmd(td, "mcp", "mcpServerStatus/list", backend.McpServerStatusListParams{ThreadID: td.ThreadID(), Detail: "toolsAndAuthOnly"},
		func(r backend.McpServerStatusListResponse) (string, []string) {
			if len(r.Data) == 0 {
				return "No MCP servers configured", nil
			}
			var lines []string
			for _, s := range r.Data {
				st := "unknown"
				if s.RuntimeStatus != nil {
					st = *s.RuntimeStatus
				}
				tools := make([]string, 0, len(s.Tools))
				for t := range s.Tools {
					tools = append(tools, t)
				}
				sort.Strings(tools)
				line := fmt.Sprintf("%s — %s, auth %s, %d tools", s.Name, st, s.AuthStatus, len(tools))
				if len(tools) > 0 {
					line += ": " + strings.Join(tools, ", ")
				}
				if s.ToolsError != nil {
					line += " (error: " + *s.ToolsError + ")"
				}
				lines = append(lines, line)
			}
			return fmt.Sprintf("MCP servers (%d)", len(r.Data)), lines
		})
}

func (m *Model) cmdDiff(string) tea.Cmd {
	diff := m.x.lastDiff
	if strings.TrimSpace(diff) == "" {
		m.banner(ui.BannerInfo, "No diff yet: no turn changed files in this thread", nil)
		return nil
	}
	m.transcript.Append(&ui.BannerCell{Kind: ui.BannerInfo, Text: "Last turn's diff", Detail: strings.Split(strings.TrimRight(diff, "\n"), "\n")})
	m.follow = true
	return nil
}

// LastDiff returns the thread's last `turn/diff/updated` diff ("" when
// none came yet): what /diff shows.
func (m *Model) LastDiff() string { return m.x.lastDiff }

// TurnOptions returns the overrides /model and /approvals set for the next
// turns.
func (m *Model) TurnOptions() backend.TurnOptions { return m.x.turn }

// Queued returns the prompts queued for the next turns (Tab while a turn
// runs), first to be sent first.
func (m *Model) Queued() []string { return m.x.queued }

func (m *Model) cmdCopy(string) tea.Cmd { return m.CopyLastAnswer() }

func (m *Model) cmdRestart(string) tea.Cmd { return m.restartServer() } // restart.go

func (m *Model) cmdHelp(string) tea.Cmd {
	var lines []string
	for _, c := range commandList {
		lines = append(lines, fmt.Sprintf("/%-10s %s", c.name, c.desc))
	}
	lines = append(lines, "")
	for _, k := range [][2]string{
		{"@file", "mention a file (fuzzy search)"},
		{"!cmd", "run a shell command in the thread"},
		{"enter", "send · while a turn runs: steer it"},
		{"tab", "while a turn runs: queue for the next turn"},
		{"↑/↓", "prompt history · ctrl+r search it"},
		{"ctrl+g", "edit the prompt in $VISUAL/$EDITOR"},
		{"esc", "interrupt the turn · ctrl+c twice to quit"},
		{"ctrl+t", "the whole transcript in a pager (q closes)"},
		{"ctrl+o", "expand or collapse the last command's output · alt+o: in $PAGER"},
		{"alt+y", "copy the last answer (also /copy)"},
		{"f2", "release the mouse for the terminal's own selection"},
		{"pgup/pgdn", "scroll the transcript"},
		{"f5", "after the app-server died: restart it, resume the thread"},
	} {
		// the same column as the commands' "/name" above
		lines = append(lines, k[0]+strings.Repeat(" ", max(1, 12-utf8.RuneCountInString(k[0])))+k[1])
	}
	m.banner(ui.BannerInfo, "Commands", lines)
	m.follow = true
	return nil
}

// cmdStatus shows the session's settings, then fills in the account from
// `account/read`.
func (m *Model) cmdStatus(string) tea.Cmd {
	s := m.status
	model := s.Model
	if m.x.turn.Model != "" {
		model = m.x.turn.Model + " (next turn)"
	}
	effort := m.x.effort
	if m.x.turn.Effort != "" {
		effort = m.x.turn.Effort + " (next turn)"
	}
	approval, sandbox := s.Approval, s.Sandbox
	if m.x.turn.ApprovalPolicy != "" {
		approval = m.x.turn.ApprovalPolicy + " (next turn)"
	}
	if m.x.turn.Sandbox != "" {
		sandbox = m.x.turn.Sandbox + " (next turn)"
	}
	lines := []string{
		"model:      " + orDash(model),
		"effort:     " + orDash(effort),
		"cwd:        " + orDash(s.Cwd),
		"approvals:  " + orDash(approval),
		"sandbox:    " + orDash(sandbox),
		"tokens:     " + fmt.Sprintf("%d used in this thread", s.TotalTokens),
	}
	if s.ContextWindow > 0 {
		left := 100 - int(100*s.LastInputTokens/max(1, s.ContextWindow))
		lines = append(lines, fmt.Sprintf("context:    %d%% left of %d", max(0, left), s.ContextWindow))
	} else {
		lines = append(lines, "context:    unknown")
	}
	td, ok := m.threadDriver()
	if ok {
		lines = append(lines, "thread:     "+orDash(td.ThreadID()), "server:     "+orDash(serverVersion(td.UserAgent())))
	}
	if s.Peer != "" {
		lines = append(lines, "peer:       "+s.Peer)
	}
	if !ok || !m.ready {
		m.banner(ui.BannerInfo, "Status", lines)
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := callCtx()
		defer cancel()
		var acct backend.AccountReadResponse
		if err := td.Call(ctx, "account/read", backend.AccountReadParams{}, &acct); err != nil {
			lines = append(lines, "account:    unknown ("+oneLine(err)+")")
		} else if acct.Account == nil && !acct.RequiresOpenaiAuth {
			lines = append(lines, "account:    not needed by this provider")
		} else {
			lines = append(lines, "account:    "+acct.Account.Describe())
		}
		var rl struct {
			RateLimits backend.RateLimitSnapshot `json:"rateLimits"`
		}
		if err := td.Call(ctx, "account/rateLimits/read", nil, &rl); err != nil {
			lines = append(lines, "limits:     unavailable")
		} else {
			lines = append(lines, "limits:     "+describeLimits(rl.RateLimits))
		}
		return commandResultMsg{name: "status", title: "Status", lines: lines}
	}
}

// describeLimits renders the primary and secondary rate-limit windows.
func describeLimits(s backend.RateLimitSnapshot) string {
	var parts []string
	for _, w := range []*backend.RateLimitWindow{s.Primary, s.Secondary} {
		if w == nil {
			continue
		}
		p := fmt.Sprintf("%.0f%% used", w.UsedPercent)
		if w.WindowDurationMins != nil {
			p += fmt.Sprintf(" of %s", ui.FormatDuration(time.Duration(*w.WindowDurationMins)*time.Minute))
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return "none reported"
	}
	return strings.Join(parts, ", ")
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
