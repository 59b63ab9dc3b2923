package transcript

import (
	"fmt"
	"strings"

	"tandem/backend"
	"tandem/model/act"
	"tandem/thread"
	"tandem/ui"
)

// Sub-agents (/agents, F3): the session's thread may spawn sub-agents,
// each a thread of its own whose events the session hands over wrapped
// (backend.SubAgentEvent). Each has a pane of its own, folded live or
// finished whether shown or not; /agents lists them and shows one in
// the same view, with a header naming it. Esc (or F3 and "back") shows
// the thread again, which kept folding its own events meanwhile.

// agentInfo is what a sub-agent's pane knows of the sub-agent.
type agentInfo struct {
	id, name, role string
	status         string // "running", "done", "interrupted", "failed", "earlier"
	// unloaded: an earlier sub-agent whose history is read when shown.
	unloaded bool
}

// agents are the sub-agents' panes, in the order they started.
type agents struct {
	list []*Pane
	byID map[string]*Pane
}

// AgentName is a sub-agent's name for headers and approvals: its
// nickname, else its role, else its short thread id.
func AgentName(t backend.Thread) string {
	switch {
	case t.AgentNickname != nil && *t.AgentNickname != "":
		return *t.AgentNickname
	case t.AgentRole != nil && *t.AgentRole != "":
		return *t.AgentRole
	}
	return thread.ShortThread(t.ID)
}

// agent returns the pane of sub-agent thread id, or nil.
func (p *Panes) agent(id string) *Pane { return p.agents.byID[id] }

// addAgent adds a pane for sub-agent id.
func (p *Panes) addAgent(a *agentInfo) *Pane {
	pane := &Pane{agent: a}
	pane.state.Reset(a.id)
	pane.v.follow = true
	if p.agents.byID == nil {
		p.agents.byID = map[string]*Pane{}
	}
	p.agents.byID[a.id] = pane
	p.agents.list = append(p.agents.list, pane)
	p.env.Out.Clear(act.NoticeNoAgents) // there is one now
	return pane
}

// FoldAgent folds an event of a sub-agent into its own pane, the shown
// one or not; a sub-agent seen the first time gets a pane, and its name
// and role are asked for.
func (p *Panes) FoldAgent(e backend.SubAgentEvent) {
	id := e.Thread()
	pane := p.agent(id)
	if pane == nil {
		pane = p.addAgent(&agentInfo{id: id, name: thread.ShortThread(id), status: "running"})
		p.env.Out.Call(act.ToPanes, act.ReadAgent{ID: id})
	}
	a := pane.agent
	if st, ok := e.Event.(backend.ThreadStartedEvent); ok {
		p.OnAgentRead(act.AgentRead{Thread: st.Started})
		return
	}
	switch ev := e.Event.(type) {
	case backend.TurnStartedEvent:
		a.status = "running"
	case backend.TurnCompletedEvent:
		a.status = "done"
		switch ev.Turn.Status {
		case backend.TurnInterrupted:
			a.status = "interrupted"
		case backend.TurnFailed:
			a.status = "failed"
		}
	}
	// Every item is drawn, its prompt too (the thread's own pane leaves
	// out the user's prompt while the turn runs: drawn when sent).
	ch := pane.state.Apply(e.Event)
	for _, cut := range ch.Cut {
		pane.v.touch(cut)
	}
	if ch.Item != nil {
		p.dig.addPaths(ch.Item) // a sub-agent's changes are the thread's workspace's
	}
	switch {
	case ch.Item == nil:
	case ch.Added:
		pane.v.addItem(ch.Item, p.cwd)
	default:
		pane.v.touch(ch.Item)
	}
}

// OnAgentRead takes a sub-agent's thread: its name and role, which the
// thread's sub-agent cells drawn so far name from now on.
func (p *Panes) OnAgentRead(msg act.AgentRead) {
	pane := p.agent(msg.Thread.ID)
	if pane == nil || msg.Err != nil {
		return
	}
	pane.agent.name = AgentName(msg.Thread)
	if msg.Thread.AgentRole != nil {
		pane.agent.role = *msg.Thread.AgentRole
	}
	for _, it := range p.main.state.Items() {
		if p.nameAgents(it) {
			p.main.v.touch(it)
		}
	}
}

// nameAgents puts the sub-agents' names for their short thread ids in a
// sub-agent cell's title and detail; it reports whether it changed them.
func (p *Panes) nameAgents(it *thread.Item) bool {
	if it.Kind != thread.Tool || it.Type != "collabAgentToolCall" && it.Type != "subAgentActivity" {
		return false
	}
	changed := false
	for _, pane := range p.agents.list {
		a := pane.agent
		short := thread.ShortThread(a.id)
		if a.name == short {
			continue
		}
		for _, f := range []*string{&it.Title, &it.Detail} {
			if strings.Contains(*f, short) {
				*f = strings.ReplaceAll(*f, short, a.name)
				changed = true
			}
		}
	}
	if changed {
		it.Rev++
	}
	return changed
}

// ShowAgent puts sub-agent id's pane on screen ("": the thread's); an
// earlier sub-agent's history is read the first time it is shown.
func (p *Panes) ShowAgent(id string) {
	next := p.main
	if id != "" {
		if pane := p.agent(id); pane != nil {
			next = pane
		}
	}
	if p.shown == next {
		return
	}
	p.shown = next
	p.env.Out.Clear(act.NoticeInfo, act.NoticeHeld) // "a sub-agent is shown" and the like
	// It was laid out at the width of its last showing: re-wrap now.
	if w := p.width(); p.w > 0 {
		p.renderWidth = w
	}
	v := &next.v
	v.follow = true
	v.frameOK = false
	v.transcript.Flush()
	if a := next.agent; a != nil && a.unloaded {
		a.unloaded = false
		p.env.Out.Call(act.ToPanes, act.ReadAgentHistory{ID: a.id})
	}
}

// AgentShown reports whether a sub-agent's pane is on screen.
func (p *Panes) AgentShown() bool { return p.shown != p.main }

// AgentItem is a sub-agent as the /agents list shows it: ID ("" for the
// way back to the thread), its name and a detail line.
type AgentItem struct {
	ID, Name, Detail string
}

// Agents returns the /agents list: "back to the thread" first while a
// sub-agent is shown, then each sub-agent with its role, state and the
// first line of its latest answer.
func (p *Panes) Agents() []AgentItem {
	var items []AgentItem
	if p.AgentShown() {
		items = append(items, AgentItem{Name: "← back to the thread"})
	}
	for _, pane := range p.agents.list {
		a := pane.agent
		detail := a.status
		if a.role != "" && a.role != a.name {
			detail = a.role + " · " + detail
		}
		if it := pane.state.Last(thread.Agent); it != nil {
			if l := thread.Preview(it.Text(), 40); l != "" {
				detail += " · " + l
			}
		}
		items = append(items, AgentItem{ID: a.id, Name: a.name, Detail: detail})
	}
	return items
}

// HasAgents reports whether the thread has sub-agents.
func (p *Panes) HasAgents() bool { return len(p.agents.list) > 0 }

// AgentHeader is the line above the transcript while a sub-agent is
// shown ("" otherwise); formUp says a request's form waits, agentsKey
// names the key of the list.
func (p *Panes) AgentHeader(w int, formUp bool, agentsKey string) string {
	a := p.shown.agent
	if a == nil {
		return ""
	}
	back := "esc back to the thread"
	if formUp {
		back = "answer the request, then esc back to the thread"
	}
	txt := fmt.Sprintf("sub-agent %s (%s) · %s · %s all sub-agents", a.name, a.status, back, agentsKey)
	return p.look.Styles.Warn.Render(ui.Truncate(txt, w))
}

// ThreadOf is the fold that holds thread id's items: a sub-agent's pane
// for its thread, the session's thread for any other id (where an item
// the server names may then not be found).
func (p *Panes) ThreadOf(id string) *thread.State {
	if pane := p.agent(id); pane != nil {
		return &pane.state
	}
	return &p.main.state
}

// AskerOf names who asks a request of thread id: "" for the session's
// thread, "Sub-agent NAME" for a sub-agent's.
func (p *Panes) AskerOf(id string) string {
	if pane := p.agent(id); pane != nil {
		return "Sub-agent " + pane.agent.name
	}
	return ""
}

// LeaveAgents shows the thread again and marks the sub-agents still
// running as unknown: after a restart or a switch their events no longer
// come.
func (p *Panes) LeaveAgents() {
	p.ShowAgent("")
	for _, pane := range p.agents.list {
		if pane.agent.status == "running" {
			pane.agent.status = "unknown after a restart"
		}
	}
}

// ListEarlierAgents asks for the sub-agents thread id spawned in earlier
// sessions, so /agents shows them (finished) after a resume.
func (p *Panes) ListEarlierAgents(id string) {
	if id != "" {
		p.env.Out.Call(act.ToPanes, act.ListAgents{Parent: id})
	}
}

// OnAgentsListed adds the earlier sub-agents of thread (the one still
// open: open names it).
func (p *Panes) OnAgentsListed(msg act.AgentsListed, open string) {
	if msg.Parent != open {
		return // another thread is open by now
	}
	for _, t := range msg.Threads {
		if p.agent(t.ID) != nil {
			continue
		}
		a := &agentInfo{id: t.ID, name: AgentName(t), status: "earlier", unloaded: true}
		if t.AgentRole != nil {
			a.role = *t.AgentRole
		}
		p.addAgent(a)
	}
}

// OnAgentHistory draws an earlier sub-agent's turns in its pane.
func (p *Panes) OnAgentHistory(msg act.AgentHistory) {
	pane := p.agent(msg.ID)
	if pane == nil {
		return
	}
	if msg.Err != nil {
		pane.v.add(&ui.BannerCell{Kind: ui.BannerError, Text: "could not read the sub-agent's history: " + act.OneLine(msg.Err)})
		return
	}
	for _, it := range pane.state.Load(msg.Turns) {
		pane.v.addItem(it, p.cwd)
	}
}
