package commands

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"tandem/backend"
	"tandem/model/act"
	"tandem/ui"
)

// The commands that ask the app-server about the session: /status, /mcp,
// /hooks, /skills, and /logout's answer.

// showStatus is /status: the session's settings at once, then (with a
// ready app-server) the account and the rate limits read from it.
func (c *Commands) showStatus(string) {
	st := c.world.Status()
	s, o := st.Info, st.Next
	model := s.Model
	if o.Model != "" {
		model = o.Model + " (next turn)"
	}
	effort := st.Effort
	if o.Effort != "" {
		effort = o.Effort + " (next turn)"
	}
	approval, sandbox := s.Approval, s.Sandbox
	if o.ApprovalPolicy != "" {
		approval = o.ApprovalPolicy + " (next turn)"
	}
	if o.Sandbox != "" {
		sandbox = o.Sandbox + " (next turn)"
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
	srv := c.world.Server()
	if srv.Online {
		lines = append(lines, "thread:     "+orDash(srv.ThreadID), "server:     "+orDash(srv.Version))
	}
	if s.Peer != "" {
		lines = append(lines, "peer:       "+s.Peer)
	}
	if !srv.Ready {
		c.info("Status", lines)
		return
	}
	c.seq++
	c.status[c.seq] = lines
	c.out().Call(act.ToCommands, act.ReadStatus{Seq: c.seq})
}

// onStatus shows /status with the server's part.
func (c *Commands) onStatus(r act.StatusRead) {
	lines, ok := c.status[r.Seq]
	if !ok {
		return
	}
	delete(c.status, r.Seq)
	switch acct := r.Account; {
	case r.AccountErr != nil:
		lines = append(lines, "account:    unknown ("+act.OneLine(r.AccountErr)+")")
	case acct.Account == nil && !acct.RequiresOpenaiAuth:
		lines = append(lines, "account:    not needed by this provider")
	default:
		lines = append(lines, "account:    "+acct.Account.Describe())
	}
	if r.LimitsErr != nil {
		lines = append(lines, "limits:     unavailable")
	} else {
		lines = append(lines, "limits:     "+describeLimits(r.Limits))
	}
	c.info("Status", lines)
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

// mcp is /mcp (the MCP servers, their tools and start-up states) or /mcp
// login NAME (the OAuth sign-in's URL).
func (c *Commands) mcp(args string) {
	if f := strings.Fields(args); len(f) > 0 {
		if f[0] != "login" || len(f) != 2 {
			c.refuse("usage: /mcp, or /mcp login NAME")
			return
		}
		c.out().Call(act.ToCommands, act.LoginMcp{Name: f[1]})
		return
	}
	c.out().Call(act.ToCommands, act.ListMcpServers{})
}

func (c *Commands) onMcpLogin(r act.McpLoginURL) {
	if r.Err != nil {
		c.failed("mcp login", r.Err)
		return
	}
	c.info("Sign in to MCP server "+r.Name+": open this URL (F2 frees the mouse to select it)", []string{r.URL})
}

// onMcp lists the MCP servers, with the start-up states seen when the
// answer came.
func (c *Commands) onMcp(r act.McpServersListed) {
	if r.Err != nil {
		c.failed("mcp", r.Err)
		return
	}
	if len(r.Servers) == 0 {
		c.info("No MCP servers configured", nil)
		return
	}
	startup := c.world.McpStartup()
	var lines []string
	for _, s := range r.Servers {
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
	c.info(fmt.Sprintf("MCP servers (%d)", len(r.Servers)), lines)
}

// onHooks is /hooks' answer: the hooks configured for the thread
// (`hooks/list`), each with its event, matcher, command and trust.
func (c *Commands) onHooks(r act.HooksListed) {
	if r.Err != nil {
		c.failed("hooks", r.Err)
		return
	}
	if len(r.Hooks) == 0 {
		c.info("No hooks configured", nil)
		return
	}
	var lines []string
	untrusted := 0
	for _, h := range r.Hooks {
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
	c.info(fmt.Sprintf("Hooks (%d)", len(r.Hooks)), lines)
}

// skills is /skills: the workspace's skills, fresh from `skills/list`
// (the thread's workspace on the server, else the local one).
func (c *Commands) skills(string) {
	cwd := c.world.ThreadCwd()
	if cwd == "" {
		cwd = c.opts.Workspace
	}
	c.out().Call(act.ToCommands, act.ListSkills{Cwd: cwd})
}

// onSkills shows the skills (name, scope, description, SKILL.md) and the
// ones that failed to load.
func (c *Commands) onSkills(r act.SkillsListed) {
	if r.Err != nil {
		c.failed("skills", r.Err) // backend names the method
		return
	}
	title, lines := skillsBanner(r.Entry)
	c.info(title, lines)
}

// skillsBanner is /skills' banner for entry.
func skillsBanner(entry backend.SkillsListEntry) (string, []string) {
	var lines []string
	for _, sk := range entry.Skills {
		state := ""
		if !sk.Enabled {
			state = ", disabled"
		}
		lines = append(lines, fmt.Sprintf("$%s (%s%s) — %s", sk.Name, sk.Scope, state, ui.SanitizeLine(sk.Description)), "    "+sk.Path)
	}
	for _, e := range entry.Errors {
		lines = append(lines, "not loaded: "+e.Path+": "+ui.SanitizeLine(e.Message))
	}
	if len(entry.Skills) == 0 {
		lines = append(lines, "add one as .codex/skills/NAME/SKILL.md in the workspace, or skills/NAME/SKILL.md in the codex home")
		return "No skills", lines
	}
	lines = append(lines, "", "type $ in the composer to use one")
	return fmt.Sprintf("Skills (%d)", len(entry.Skills)), lines
}

// onLogout is /logout's answer: what it logged out of; then the status
// line says so and the account is checked again, which offers the login
// form when the provider needs one.
func (c *Commands) onLogout(r act.LoggedOut) {
	if r.Err != nil {
		c.failed("logout", r.Err)
		return
	}
	text := "Logged out"
	if r.Was != nil {
		text += " of " + r.Was.Describe()
	}
	c.info(text+": codex forgot the stored login", nil)
	c.out().Want(act.Settings{LoggedOut: act.Bool(true)})
	c.out().Want(act.CheckAccount{})
}
