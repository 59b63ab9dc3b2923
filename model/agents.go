package model

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/thread"
	"tandem/ui"
)

// Sub-agents (/agents, F3): the session's thread may spawn sub-agents,
// each a thread of its own whose events the session hands over wrapped
// (backend.SubAgentEvent). Each is folded into a state and a transcript of
// its own, live or finished, whether shown or not; /agents lists them and
// opens one in the same view, with a header naming it. Esc (or F3 and
// "back") returns to the thread, which kept streaming meanwhile.
//
// The shown thread is always m.thread and m.view: showing a sub-agent
// swaps its state and transcript with the main thread's, which wait in
// agentsState.main until it is swapped back.

// agentSafe are the slash commands that may run while a sub-agent is
// shown: the others act on the thread, so they wait for Esc.
var agentSafe = map[string]bool{"agents": true, "help": true, "quit": true, "copy": true, "status": true}

// subAgent is one sub-agent of the session's thread.
type subAgent struct {
	id, name, role string
	status         string // "running", "done", "interrupted", "failed", "earlier"
	// unloaded: an earlier sub-agent whose history is read when shown.
	unloaded bool
	state    thread.State
	view     transcriptView
}

// agentsState is the sub-agents component.
type agentsState struct {
	list    []*subAgent // in the order they started
	byID    map[string]*subAgent
	showing *subAgent // the sub-agent on screen; nil: the main thread
	// main holds the main thread's state and transcript while a
	// sub-agent is shown.
	mainState thread.State
	mainView  transcriptView
}

// agentName is a sub-agent's name for headers and approvals: its
// nickname, else its role, else its short thread id.
func agentName(t backend.Thread) string {
	switch {
	case t.AgentNickname != nil && *t.AgentNickname != "":
		return *t.AgentNickname
	case t.AgentRole != nil && *t.AgentRole != "":
		return *t.AgentRole
	}
	return thread.ShortThread(t.ID)
}

// agent returns the sub-agent of thread id, or nil.
func (m *Model) agent(id string) *subAgent { return m.agents.byID[id] }

// onSubAgentEvent folds an event of a sub-agent into its own state and
// transcript (the shown one, if it is shown).
func (m *Model) onSubAgentEvent(e backend.SubAgentEvent) tea.Cmd {
	id := e.Thread()
	var cmd tea.Cmd
	a := m.agent(id)
	if a == nil {
		a = &subAgent{id: id, name: thread.ShortThread(id), status: "running"}
		a.state.Reset(id)
		a.view.follow = true
		if m.agents.byID == nil {
			m.agents.byID = map[string]*subAgent{}
		}
		m.agents.byID[id] = a
		m.agents.list = append(m.agents.list, a)
		cmd = m.agentInfoCmd(id) // its nickname and role
	}
	if st, ok := e.Event.(backend.ThreadStartedEvent); ok {
		m.onAgentInfo(agentInfoMsg{thread: st.Started})
		return cmd
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
	m.withAgent(a, func() {
		// Every item is drawn, its prompt too (m.project leaves out the
		// user's own prompt while the thread's turn runs: drawn when sent).
		switch ch := m.thread.Apply(e.Event); {
		case ch.Item == nil:
		case ch.Added:
			m.view.addItem(ch.Item, m.threadCwd)
		default:
			m.view.touch(ch.Item)
		}
	})
	return cmd
}

// agentInfoMsg carries a sub-agent's thread as thread/read gives it.
type agentInfoMsg struct {
	thread backend.Thread
	err    error
}

// agentInfoCmd reads a sub-agent's thread for its nickname and role.
func (m *Model) agentInfoCmd(id string) tea.Cmd {
	c := m.client
	if c == nil {
		return nil
	}
	return callCmd(func(ctx context.Context) tea.Msg {
		t, err := c.ReadThread(ctx, id)
		t.ID = id
		return agentInfoMsg{thread: t, err: err}
	})
}

func (m *Model) onAgentInfo(msg agentInfoMsg) {
	a := m.agent(msg.thread.ID)
	if a == nil || msg.err != nil {
		return
	}
	a.name = agentName(msg.thread)
	if msg.thread.AgentRole != nil {
		a.role = *msg.thread.AgentRole
	}
	// The thread's sub-agent cells drawn so far name it now.
	m.withMain(func() {
		for _, it := range m.thread.Items() {
			if m.nameAgents(it) {
				m.view.touch(it)
			}
		}
	})
}

// nameAgents puts the sub-agents' names for their short thread ids in a
// sub-agent cell's title and detail; it reports whether it changed them.
func (m *Model) nameAgents(it *thread.Item) bool {
	if it.Kind != thread.Tool || it.Type != "collabAgentToolCall" && it.Type != "subAgentActivity" {
		return false
	}
	changed := false
	for _, a := range m.agents.list {
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

// withAgent runs fn with a's state and transcript as m.thread and
// m.view (they already are when a is shown).
func (m *Model) withAgent(a *subAgent, fn func()) {
	if m.agents.showing == a {
		fn()
		return
	}
	m.thread, a.state = a.state, m.thread
	m.view, a.view = a.view, m.view
	defer func() {
		m.thread, a.state = a.state, m.thread
		m.view, a.view = a.view, m.view
	}()
	fn()
}

// withMain runs fn with the main thread as m.thread and m.view, while a
// sub-agent is shown; otherwise it just runs fn. The main thread's own
// events, requests and banners go through it.
func (m *Model) withMain(fn func()) {
	a := m.agents.showing
	if a == nil {
		fn()
		return
	}
	m.thread, m.agents.mainState = m.agents.mainState, m.thread
	m.view, m.agents.mainView = m.agents.mainView, m.view
	defer func() {
		m.thread, m.agents.mainState = m.agents.mainState, m.thread
		m.view, m.agents.mainView = m.agents.mainView, m.view
	}()
	fn()
}

// showAgent puts a (nil: the main thread) on screen.
func (m *Model) showAgent(a *subAgent) {
	cur := m.agents.showing
	if cur == a {
		return
	}
	if cur != nil { // back to the main thread first
		m.thread, cur.state = cur.state, m.thread
		m.view, cur.view = cur.view, m.view
		m.thread, m.agents.mainState = m.agents.mainState, thread.State{}
		m.view, m.agents.mainView = m.agents.mainView, transcriptView{}
		m.agents.showing = nil
	}
	if a != nil {
		m.agents.mainState, m.agents.mainView = m.thread, m.view
		m.thread, m.view = a.state, a.view
		a.state, a.view = thread.State{}, transcriptView{}
		m.agents.showing = a
	}
	m.clearNotice(noticeInfo, noticeHeld) // "a sub-agent is shown" and the like
	// It was laid out at the width of its last showing: re-wrap now.
	if w := m.contentWidth(); w > 0 {
		m.view.renderWidth = w
	}
	m.view.follow = true
	m.view.frameOK = false
	m.view.bottomLines = nil
	m.view.transcript.Flush()
}

// cmdAgents is /agents: the sub-agents, live and finished; Enter opens
// one, "back to the thread" returns.
func (m *Model) cmdAgents(string) tea.Cmd {
	m.openAgentsPicker()
	return nil
}

func (m *Model) openAgentsPicker() {
	if m.requests.form != nil {
		// The form has the keys: the list would look open while they
		// answered the request.
		m.setNotice(noticeInfo, "a request is waiting — answer it first (ctrl+t shows all of it)")
		return
	}
	if len(m.agents.list) == 0 {
		m.setNotice(noticeInfo, "no sub-agents in this thread yet")
		return
	}
	var items []pickItem
	if m.agents.showing != nil {
		items = append(items, pickItem{label: "← back to the thread", value: (*subAgent)(nil)})
	}
	for _, a := range m.agents.list {
		detail := a.status
		if a.role != "" && a.role != a.name {
			detail = a.role + " · " + detail
		}
		if it := a.lastAnswer(m); it != "" {
			detail += " · " + it
		}
		items = append(items, pickItem{label: a.name, detail: detail, value: a})
	}
	p := &picker{title: "Sub-agents", hint: "enter to open · esc to close", items: items}
	p.refilter()
	p.onChoose = func(it pickItem) tea.Cmd {
		a := it.value.(*subAgent)
		m.showAgent(a)
		if a != nil {
			return m.loadAgentCmd(a)
		}
		return nil
	}
	m.openPicker(p)
}

// lastAnswer is the first line of a's latest answer, cut short.
func (a *subAgent) lastAnswer(m *Model) string {
	st := &a.state
	if m.agents.showing == a {
		st = &m.thread
	}
	it := st.Last(thread.Agent)
	if it == nil {
		return ""
	}
	return thread.Preview(it.Text(), 40)
}

// agentHeader is the line above the transcript while a sub-agent is
// shown.
func (m *Model) agentHeader(w int) string {
	a := m.agents.showing
	if a == nil {
		return ""
	}
	back := "esc back to the thread"
	if m.requests.form != nil {
		back = "answer the request, then esc back to the thread"
	}
	txt := fmt.Sprintf("sub-agent %s (%s) · %s · %s all sub-agents", a.name, a.status, back, m.keys.Agents.Help().Key)
	return m.styles.Warn.Render(ui.Truncate(txt, w))
}

// askerOf names who asks a request: "" for the main thread, "Sub-agent
// NAME" for a sub-agent's.
func (m *Model) askerOf(threadID string) string {
	if a := m.agent(threadID); a != nil {
		return "Sub-agent " + a.name
	}
	return ""
}

// leaveAgents puts the thread back on screen and marks the sub-agents
// still running as unknown: after a restart or a switch their events no
// longer come.
func (m *Model) leaveAgents() {
	m.showAgent(nil)
	for _, a := range m.agents.list {
		if a.status == "running" {
			a.status = "unknown after a restart"
		}
	}
}

// agentsListedMsg carries the sub-agents an opened thread had spawned
// before (thread/list by ancestor).
type agentsListedMsg struct {
	parent  string
	threads []backend.Thread
}

// earlierAgentsCmd lists the sub-agents thread id spawned in earlier
// sessions, so /agents shows them (finished) after a resume.
func (m *Model) earlierAgentsCmd(id string) tea.Cmd {
	c := m.client
	if c == nil || id == "" {
		return nil
	}
	return callCmd(func(ctx context.Context) tea.Msg {
		r, err := c.ListThreads(ctx, backend.ThreadListParams{Limit: 100, AncestorThreadID: id, SourceKinds: backend.SubAgentSources})
		if err != nil {
			return agentsListedMsg{parent: id}
		}
		return agentsListedMsg{parent: id, threads: r.Data}
	})
}

func (m *Model) onAgentsListed(msg agentsListedMsg) {
	if m.client == nil || msg.parent != m.client.ThreadID() {
		return // another thread is open by now
	}
	for _, t := range msg.threads {
		if m.agent(t.ID) != nil {
			continue
		}
		a := &subAgent{id: t.ID, name: agentName(t), status: "earlier", unloaded: true}
		if t.AgentRole != nil {
			a.role = *t.AgentRole
		}
		a.state.Reset(t.ID)
		a.view.follow = true
		if m.agents.byID == nil {
			m.agents.byID = map[string]*subAgent{}
		}
		m.agents.byID[t.ID] = a
		m.agents.list = append(m.agents.list, a)
	}
}

// agentHistoryMsg carries an earlier sub-agent's turns.
type agentHistoryMsg struct {
	id    string
	turns []backend.Turn
	err   error
}

// loadAgentCmd reads an earlier sub-agent's history (thread/read with
// turns) the first time it is shown.
func (m *Model) loadAgentCmd(a *subAgent) tea.Cmd {
	c := m.client
	if c == nil || !a.unloaded {
		return nil
	}
	a.unloaded = false
	id := a.id
	return callCmd(func(ctx context.Context) tea.Msg {
		t, err := c.ReadThreadTurns(ctx, id)
		return agentHistoryMsg{id: id, turns: t.Turns, err: err}
	})
}

func (m *Model) onAgentHistory(msg agentHistoryMsg) {
	a := m.agent(msg.id)
	if a == nil {
		return
	}
	if msg.err != nil {
		m.withAgent(a, func() { m.banner(ui.BannerError, "could not read the sub-agent's history: "+oneLine(msg.err), nil) })
		return
	}
	m.withAgent(a, func() {
		for _, it := range m.thread.Load(msg.turns) {
			m.view.addItem(it, m.threadCwd)
		}
	})
}
