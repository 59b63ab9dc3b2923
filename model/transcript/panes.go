package transcript

import (
	"strings"
	"time"

	"tandem/backend"
	"tandem/internal/hub"
	"tandem/model/act"
	"tandem/model/keys"
	"tandem/thread"
	"tandem/ui"
)

// Look is what cells are drawn with: the palette and the Markdown
// renderer of a dark or light background.
type Look struct {
	Styles   ui.Styles
	Markdown *ui.Markdown
}

// Options configure Panes.
type Options struct {
	// NoAltScreen prints finished cells into the terminal's scrollback
	// (--no-alt-screen); NoColor drops their colours there.
	NoAltScreen, NoColor bool
	// Keys is the keymap the search line's hints name (nil: keys.Default).
	Keys *keys.Map
}

// Pane is one thread as this viewer sees it: the fold of its events and
// its drawing. A sub-agent's pane also knows the sub-agent's name, role
// and state.
type Pane struct {
	state thread.State
	v     view
	older olderState
	// seek is a turn to scroll to once it is read (scrollto.go).
	seek seekState
	// agent is set for a sub-agent's pane.
	agent *agentInfo
}

// State is the pane's fold (read it; Panes writes it).
func (p *Pane) State() *thread.State { return &p.state }

// Panes are the viewer's panes: the session's thread (main), its
// sub-agents, and which one is on screen. Use New.
type Panes struct {
	env  act.Env
	look Look
	// w and h are the window's size; renderWidth the width the cells are
	// drawn at (it follows w once resizes settle), resizeSeq the resize
	// being waited for.
	w, h, renderWidth, resizeSeq int
	main                         *Pane
	agents                       agents
	shown                        *Pane
	// cwd is the thread's workspace on the server (absolute, the
	// server's): file changes under it are shown relative to it. name is
	// the thread's name as last shown.
	cwd, name string
	// peeked is the thread whose newest turns are drawn while its resume
	// runs ("" when none are).
	peeked string
	// opened is the newest turn of the history loaded when the thread
	// opened ("" for none: a new thread): /recap's "since you opened it".
	opened string
	pager  *pager
	sb     scrollback
	// mouseOff: the mouse is released for the terminal's own selection.
	mouseOff bool
	// unknown are the notification methods tandem does not show that
	// were noted (OnUnknown).
	unknown map[string]bool
	// dig is the thread at a glance, kept as it folds (digest.go).
	dig digest
	// find is the open search line (search.go), nil when closed;
	// findSeq numbers its searches of earlier turns, noServerFind says
	// the server has no thread/searchOccurrences.
	find         *search
	findSeq      int
	noServerFind bool
	keys         *keys.Map // the keymap, for the hints the search line draws
}

// New returns the panes of a viewer, the session's thread shown.
func New(env act.Env, look Look, opts Options) *Panes {
	km := opts.Keys
	if km == nil {
		km = keys.Default()
	}
	p := &Panes{env: env, look: look, main: &Pane{}, sb: newScrollback(opts.NoAltScreen, opts.NoColor), keys: km}
	p.main.v.follow = true
	p.shown = p.main
	return p
}

// Msg is a message of the panes' own (a resize settling, a pager fill
// step, a scrollback print acknowledged): the root hands it to Update.
type Msg interface{ panesMsg() }

// Main is the session thread's pane; Shown the pane on screen.
func (p *Panes) Main() *Pane  { return p.main }
func (p *Panes) Shown() *Pane { return p.shown }

// Thread is the session thread's fold.
func (p *Panes) Thread() *thread.State { return &p.main.state }

// Cwd is the thread's workspace on the server ("" before it is known).
func (p *Panes) Cwd() string { return p.cwd }

// SetCwd sets the thread's workspace on the server.
func (p *Panes) SetCwd(cwd string) {
	if cwd != "" {
		p.cwd = cwd
	}
}

// Name is the thread's name as last shown ("" for none).
func (p *Panes) Name() string { return p.name }

// SetLook draws everything again with look (a dark or light background).
func (p *Panes) SetLook(look Look) {
	p.look = look
	for _, pane := range p.all() {
		pane.v.transcript.Invalidate()
		pane.v.frameOK = false
	}
}

// Look is what the cells are drawn with.
func (p *Panes) Look() Look { return p.look }

// all returns every pane: the thread's, then the sub-agents'.
func (p *Panes) all() []*Pane {
	out := []*Pane{p.main}
	for _, a := range p.agents.list {
		out = append(out, a)
	}
	return out
}

// Close removes the temp files of spilled command output, of every pane.
func (p *Panes) Close() {
	for _, pane := range p.all() {
		pane.state.Close()
	}
}

// Cells are the shown pane's cells (tests and export).
func (p *Panes) Cells() []ui.Cell { return p.shown.v.transcript.Cells }

// FoldFacts are what folding an event of the thread asks of the turn:
// whether a user message is this viewer's own prompt of the running turn
// (drawn when it was sent, so not again).
type FoldFacts struct{ OwnTurn bool }

// Fold applies an event of the session's thread to its pane and draws
// what changed; it returns the change (the turn machine looks at it).
func (p *Panes) Fold(ev backend.Event, f FoldFacts) thread.Change {
	m := p.main
	ch := m.state.Apply(ev)
	for _, cut := range ch.Cut {
		m.v.touch(cut) // drawn whole now, with its mark
	}
	it := ch.Item
	if it != nil {
		p.nameAgents(it)
		p.dig.note(it)
	}
	if e, ok := ev.(backend.TurnCompletedEvent); ok && (e.Thread() == "" || e.Thread() == m.state.ThreadID()) {
		p.dig.turnEnded(e.Turn.ID)
	}
	switch {
	case it == nil:
	case !ch.Added:
		m.v.touch(it)
	case it.Kind == thread.User && f.OwnTurn:
	default:
		m.v.addItem(it, p.cwd)
	}
	if _, ok := ev.(backend.ReasoningSummaryDeltaEvent); ok && it != nil {
		if h := ui.ReasoningHeading(it.Text()); h != "" {
			m.v.header = h // the status line's "working" header
		}
	}
	return ch
}

// OnName takes the thread's new name (thread/name/updated): a quiet
// banner when it changed.
func (p *Panes) OnName(e backend.ThreadNameEvent) {
	if e.Name != nil && *e.Name != "" && *e.Name != p.name {
		p.name = *e.Name
		p.main.v.add(&ui.BannerCell{Kind: ui.BannerQuiet, Text: "thread renamed “" + *e.Name + "”"})
	}
}

// OnUnknown notes a notification tandem does not show yet, once per
// method: a quiet banner names it.
func (p *Panes) OnUnknown(e backend.UnknownEvent) {
	if p.unknown[e.Method] {
		return
	}
	if p.unknown == nil {
		p.unknown = map[string]bool{}
	}
	p.unknown[e.Method] = true
	p.Banner(act.Banner{Kind: ui.BannerQuiet, Text: "codex sent " + e.Method + ", which tandem does not show yet (noted once)"})
}

// Header is the running turn's "working" header: the reasoning
// summary's latest bold heading ("" for none).
func (p *Panes) Header() string { return p.main.v.header }

// ClearHeader forgets the header (the turn ended).
func (p *Panes) ClearHeader() { p.main.v.header = "" }

// Banner adds a banner to the thread's pane, or with Shown to the pane
// on screen.
func (p *Panes) Banner(b act.Banner) {
	pane := p.main
	if b.Shown {
		pane = p.shown
	}
	pane.v.add(&ui.BannerCell{Kind: b.Kind, Text: b.Text, Detail: b.Detail})
}

// Echo adds a cell of this viewer's own to the thread's pane (the user's
// prompt as sent), and follows the bottom.
func (p *Panes) Echo(c ui.Cell) {
	p.main.v.add(c)
	p.main.v.follow = true
}

// Follow scrolls the shown pane to its bottom and keeps it there.
func (p *Panes) Follow() { p.shown.v.follow = true }

// LoadHistory folds a thread's history (thread/resume, thread/fork) into
// the thread's pane and draws it; with failures a turn that failed says
// so.
func (p *Panes) LoadHistory(turns []backend.Turn, failures bool) {
	m := p.main
	if len(turns) > 0 {
		p.opened = turns[len(turns)-1].ID
	}
	p.dig.turns(turns)
	for _, t := range turns {
		for _, it := range m.state.Load([]backend.Turn{t}) {
			m.v.addItem(it, p.cwd)
			p.dig.note(it)
		}
		if failures && t.Status == backend.TurnFailed && t.Error != nil {
			m.v.add(&ui.BannerCell{Kind: ui.BannerError, Text: "turn failed: " + t.Error.Message})
		}
	}
}

// SetThread names the open thread (a restart keeps the transcript).
func (p *Panes) SetThread(id string) { p.main.state.SetThread(id) }

// Open replaces the thread's pane with thread th's, empty (a thread
// switch), in workspace cwd: the sub-agents are the old thread's and go;
// the account's rate limits and the model's context window outlive the
// thread. The thread's name and creation are th's.
func (p *Panes) Open(th backend.Thread, cwd string) {
	id := th.ID
	p.ShowAgent("")
	p.agents = agents{}
	m := p.main
	limits, window := m.state.RateLimits, m.state.Usage.ContextWindow
	m.state.Close()
	m.state.Reset(id)
	m.state.RateLimits, m.state.Usage.ContextWindow = limits, window
	m.v.reset()
	p.peeked = ""
	p.opened = ""
	p.SetCwd(cwd)
	p.name = ""
	if th.Name != nil {
		p.name = *th.Name
	}
	p.dig.reset(createdAt(th.CreatedAt))
}

// Named takes the open thread's name and creation (unix seconds) as the
// server gave them when it opened (thread/start, thread/resume): "" and
// 0 keep what is known.
func (p *Panes) Named(name string, created int64) {
	if name != "" {
		p.name = name
	}
	if t := createdAt(created); !t.IsZero() {
		p.dig.created = t
	}
}

// OpenedAt is the newest turn of the thread when it was opened here (""
// for none: a new thread, or one opened with no history): what /recap
// summarises from until the first /recap.
func (p *Panes) OpenedAt() string { return p.opened }

// ForgetPeek drops the newest turns drawn of a thread that did not open.
func (p *Panes) ForgetPeek() {
	if p.peeked != "" {
		p.main.v.reset()
		p.peeked = ""
	}
}

// Merge folds a re-attach's history into the thread's pane: items shown
// are completed in place, those that completed while away are added but
// for dropped's user messages (drawn when sent, unless shared).
func (p *Panes) Merge(turns []backend.Turn, dropped string, shared bool) {
	m := p.main
	added, changed := m.state.Merge(turns)
	p.dig.turns(turns)
	for _, t := range turns { // in the thread's order: the newest line is the last noted
		for _, bi := range t.Items {
			if it := m.state.Find(t.ID, bi.ID); it != nil {
				p.dig.note(it)
			}
		}
	}
	for _, it := range added {
		if it.Kind == thread.User && it.Key.Turn == dropped && !shared {
			continue
		}
		m.v.addItem(it, p.cwd)
	}
	for _, it := range changed {
		m.v.touch(it)
	}
}

// EndGaps marks the messages a drop cut as cut for good (the turn they
// were in has ended).
func (p *Panes) EndGaps() {
	for _, it := range p.main.state.EndGaps() {
		p.main.v.touch(it)
	}
}

// EndOpen ends the open commands, file changes and tool calls of turn
// ("" every turn) with status (thread.EndOpen); all ends the sub-agents'
// too, every turn of theirs.
func (p *Panes) EndOpen(turn, status string, all bool) {
	for _, it := range p.main.state.EndOpen(turn, status) {
		p.main.v.touch(it)
	}
	if !all {
		return
	}
	for _, a := range p.agents.list {
		for _, it := range a.state.EndOpen("", status) {
			a.v.touch(it)
		}
	}
}

// MarkGaps marks the messages streaming when the link dropped.
func (p *Panes) MarkGaps() {
	for _, it := range p.main.state.MarkGaps() {
		p.main.v.touch(it)
	}
}

// OnAction folds a driver's action of a shared session: a prompt's
// author waits for its message; an interrupt and a !command are said at
// once.
func (p *Panes) OnAction(e hub.ActionEvent) {
	m := p.main
	switch e.Kind {
	case hub.ActionPrompt:
		if strings.HasPrefix(e.Text, "!") {
			// A !command is drawn as the command it runs.
			cmd, more, _ := strings.Cut(e.Text, "\n")
			if more != "" {
				cmd += " …" // one line: the rest can't pose as another notice
			}
			m.v.add(&ui.BannerCell{Kind: ui.BannerQuiet, Text: e.Who + " ran " + cmd})
			return
		}
		m.v.noteAuthor(e.Who, e.Text)
	case hub.ActionInterrupt:
		m.v.add(&ui.BannerCell{Kind: ui.BannerQuiet, Text: e.Who + " interrupted the turn"})
	}
}

// Awaiting labels the command cells of items "awaiting approval" and
// drops the label of the others.
func (p *Panes) Awaiting(items []*thread.Item) {
	v := &p.main.v
	want := map[*ui.CommandCell]bool{}
	for _, it := range items {
		if c, ok := v.cell(it).(*ui.CommandCell); ok {
			want[c] = true
		}
	}
	for c := range v.awaiting {
		if !want[c] {
			c.SetAwaitingApproval(false)
			delete(v.awaiting, c)
		}
	}
	for c := range want {
		if v.awaiting[c] {
			continue
		}
		c.SetAwaitingApproval(true)
		if v.awaiting == nil {
			v.awaiting = map[*ui.CommandCell]bool{}
		}
		v.awaiting[c] = true
	}
}

// ToggleLastCommand expands or collapses the last command's output in
// the shown pane.
func (p *Panes) ToggleLastCommand() {
	if c, ok := p.shown.v.cell(p.shown.state.Last(thread.Command)).(*ui.CommandCell); ok {
		c.ToggleExpanded()
	}
}

// LastAnswer returns the text of the shown pane's last agent message ("",
// if none).
func (p *Panes) LastAnswer() string {
	if it := p.shown.state.Last(thread.Agent); it != nil {
		return it.Text()
	}
	return ""
}

// MouseReleased reports whether the mouse is released for the
// terminal's own selection.
func (p *Panes) MouseReleased() bool { return p.mouseOff }

// ToggleMouse releases or captures the mouse; it reports whether it is
// released now.
func (p *Panes) ToggleMouse() bool {
	p.mouseOff = !p.mouseOff
	return p.mouseOff
}

// clock is the time, by the env's clock.
func (p *Panes) clock() time.Time { return p.env.Clock.Now() }

// DoneFacts are what the results of the panes' calls ask of the rest:
// the transcript's rows, whether a client is there to read more with,
// whether a thread is being opened, and the thread open on the server.
type DoneFacts struct {
	Height    int
	CanRead   bool
	Switching bool
	Open      string
}

// OnDone takes the result of a call the panes asked for (act.Done with
// For act.ToPanes).
func (p *Panes) OnDone(msg any, f DoneFacts) {
	switch msg := msg.(type) {
	case act.OlderTurns:
		p.OnOlderTurns(msg, f.Height, f.CanRead)
	case act.ThreadPeek:
		p.Peek(msg, f.Switching)
	case act.AgentRead:
		p.OnAgentRead(msg)
	case act.AgentsListed:
		p.OnAgentsListed(msg, f.Open)
	case act.AgentHistory:
		p.OnAgentHistory(msg)
	case act.Occurrences:
		p.onOccurrences(msg, f) // search_older.go
	case act.SearchTurns:
		p.onSearchTurns(msg, f)
	}
}
