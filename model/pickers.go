package model

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/ui"
)

// modelListMsg is the `model/list` answer for /model.
type modelListMsg struct {
	models []backend.ModelInfo
	err    error
}

// threadPageMsg is one `thread/list` page for the resume picker p; seq
// drops answers to older queries.
type threadPageMsg struct {
	p      *picker
	seq    int
	append bool
	resp   backend.ThreadListResponse
	err    error
}

// cmdModel lists the models (`model/list`) and, once one is chosen, its
// reasoning efforts; the choice applies from the next turn (turn/start
// model and effort).
func (m *Model) cmdModel(string) tea.Cmd {
	c, ok := m.needClient("model")
	if !ok {
		return nil
	}
	m.openPicker(&picker{title: "Model", hint: "enter to choose · esc to cancel", loading: true})
	return callCmd(func(ctx context.Context) tea.Msg {
		models, err := c.ListModels(ctx)
		if err != nil {
			return modelListMsg{err: fmt.Errorf("model/list: %w", err)}
		}
		return modelListMsg{models: models}
	})
}

func (m *Model) onModelList(msg modelListMsg) tea.Cmd {
	p := m.picker
	if p == nil || p.title != "Model" {
		return nil
	}
	p.loading = false
	if msg.err != nil {
		m.closePicker(p)
		m.banner(ui.BannerError, "/model: "+oneLine(msg.err), nil)
		return nil
	}
	current := m.stat.Info().Model
	if m.turn.overrides.Model != "" {
		current = m.turn.overrides.Model
	}
	var items []pickItem
	sel := 0
	for _, mi := range msg.models {
		if mi.Hidden {
			continue
		}
		label := mi.Model
		if mi.DisplayName != "" && mi.DisplayName != mi.Model {
			label = mi.DisplayName + " (" + mi.Model + ")"
		}
		if mi.Model == current {
			label += " ✓"
			sel = len(items)
		}
		items = append(items, pickItem{label: label, detail: mi.Description, value: mi})
	}
	p.empty = "the server lists no models"
	p.setItems(items)
	p.sel = sel
	p.onChoose = func(it pickItem) tea.Cmd {
		mi := it.value.(backend.ModelInfo)
		if len(mi.SupportedReasoningEfforts) <= 1 {
			effort := mi.DefaultReasoningEffort
			if len(mi.SupportedReasoningEfforts) == 1 {
				effort = mi.SupportedReasoningEfforts[0].ReasoningEffort
			}
			m.setModel(mi.Model, effort)
			return nil
		}
		m.openEffortPicker(mi)
		return nil
	}
	return nil
}

func (m *Model) openEffortPicker(mi backend.ModelInfo) {
	var items []pickItem
	sel := 0
	for i, e := range mi.SupportedReasoningEfforts {
		label := e.ReasoningEffort
		if e.ReasoningEffort == mi.DefaultReasoningEffort {
			label += " (default)"
			sel = i
		}
		items = append(items, pickItem{label: label, detail: e.Description, value: e.ReasoningEffort})
	}
	p := &picker{title: "Reasoning effort for " + mi.Model, hint: "enter to choose · esc to cancel"}
	p.setItems(items)
	p.sel = sel
	p.onChoose = func(it pickItem) tea.Cmd {
		m.setModel(mi.Model, it.value.(string))
		return nil
	}
	// Opened from the model picker's onChoose: closing that one leaves
	// this one shown.
	m.openPicker(p)
}

// setModel makes model and effort the overrides for the next turns.
func (m *Model) setModel(model, effort string) {
	m.turn.overrides.Model, m.turn.overrides.Effort = model, effort
	m.stat.Apply(act.Settings{Model: &model})
	if effort != "" {
		m.turn.effort = effort
	}
	m.setNotice(noticeInfo, "model "+model+effortSuffix(effort)+" from the next turn")
}

func effortSuffix(e string) string {
	if e == "" {
		return ""
	}
	return " (" + e + ")"
}

// approvalPreset is one /approvals choice.
type approvalPreset struct {
	label, desc, approval, sandbox string
}

var approvalPresets = []approvalPreset{
	{"Read only", "ask before any change or network use", "on-request", "read-only"},
	{"Auto", "work in the workspace; ask to go outside it", "on-request", "workspace-write"},
	{"Untrusted", "ask before every command that isn't known safe", "untrusted", "workspace-write"},
	{"Full access", "never ask; no sandbox (use with care)", "never", "danger-full-access"},
}

// cmdApprovals picks an approval policy and sandbox; they apply from the
// next turn (turn/start approvalPolicy and sandboxPolicy).
func (m *Model) cmdApprovals(string) tea.Cmd {
	var items []pickItem
	sel := 0
	for i, a := range approvalPresets {
		label := a.label
		if a.approval == m.stat.Info().Approval && a.sandbox == m.stat.Info().Sandbox {
			label += " ✓"
			sel = i
		}
		items = append(items, pickItem{label: label, detail: fmt.Sprintf("%s — -a %s -s %s", a.desc, a.approval, a.sandbox), value: a})
	}
	p := &picker{title: "Approvals and sandbox", hint: "enter to choose · esc to cancel"}
	p.setItems(items)
	p.sel = sel
	p.onChoose = func(it pickItem) tea.Cmd {
		a := it.value.(approvalPreset)
		m.turn.overrides.ApprovalPolicy, m.turn.overrides.Sandbox = a.approval, a.sandbox
		m.stat.Apply(act.Settings{Approval: &a.approval, Sandbox: &a.sandbox})
		m.setNotice(noticeInfo, "approvals "+a.approval+", sandbox "+a.sandbox+" from the next turn")
		return nil
	}
	m.openPicker(p)
	return nil
}

func (m *Model) cmdResume(string) tea.Cmd {
	if _, ok := m.needClient("resume"); !ok {
		return nil
	}
	return m.openResumePicker(false)
}

// resumeFilter is the resume picker's state: all workspaces or this one,
// and the sort key.
type resumeFilter struct {
	all     bool
	sortKey string
	cursor  *string
	seq     int
	threads []backend.Thread
}

// openResumePicker opens the thread picker: pages of `thread/list` for this
// workspace (Ctrl+A: all), newest updated first (Ctrl+S: by created),
// typing searches titles (searchTerm). fresh means no thread is open yet:
// Esc then starts a new one.
func (m *Model) openResumePicker(fresh bool) tea.Cmd {
	c := m.client
	if c == nil {
		return nil
	}
	f := &resumeFilter{sortKey: backend.SortUpdated}
	p := &picker{title: "Resume a thread", empty: "no threads"}
	var load func(next bool) tea.Cmd
	hint := func() {
		scope := "this workspace"
		if f.all {
			scope = "all workspaces"
		}
		sortBy := "updated"
		if f.sortKey == backend.SortCreated {
			sortBy = "created"
		}
		p.hint = fmt.Sprintf("%s · sorted by %s · ctrl+a scope · ctrl+s sort · type to search · enter resume · esc %s",
			scope, sortBy, map[bool]string{true: "new thread", false: "cancel"}[fresh])
	}
	load = func(next bool) tea.Cmd {
		f.seq++
		seq := f.seq
		params := backend.ThreadListParams{Limit: 25, SortKey: f.sortKey, SearchTerm: p.query}
		if !f.all {
			params.Cwd = m.opts.Workspace
		}
		if next {
			if f.cursor == nil {
				return nil
			}
			params.Cursor = f.cursor
		}
		p.loading = true
		hint()
		return callCmd(func(ctx context.Context) tea.Msg {
			resp, err := c.ListThreads(ctx, params)
			return threadPageMsg{p: p, seq: seq, append: next, resp: resp, err: err}
		})
	}
	p.onQuery = func(string) tea.Cmd { return load(false) }
	p.onMore = func() tea.Cmd { return load(true) }
	p.onKey = func(k tea.KeyPressMsg) (tea.Cmd, bool) {
		switch {
		case key.Matches(k, m.keys.ResumeScope):
			f.all = !f.all
			return load(false), true
		case key.Matches(k, m.keys.ResumeSort):
			if f.sortKey == backend.SortUpdated {
				f.sortKey = backend.SortCreated
			} else {
				f.sortKey = backend.SortUpdated
			}
			return load(false), true
		}
		return nil, false
	}
	p.preview = func(it pickItem) []string {
		t := it.value.(backend.Thread)
		var lines []string
		lines = append(lines, fmt.Sprintf("%s · %s · created %s · updated %s", t.ID, ui.ShortHome(t.Cwd), ago(m.now(), t.CreatedAt), ago(m.now(), t.UpdatedAt)))
		prev := strings.TrimSpace(t.Preview)
		for i, l := range strings.Split(prev, "\n") {
			if i >= 3 {
				lines = append(lines, "…")
				break
			}
			lines = append(lines, "  "+l)
		}
		return lines
	}
	p.onChoose = func(it pickItem) tea.Cmd {
		t := it.value.(backend.Thread)
		m.openingThread(t.ID)
		return resumeCmd(c, t, m.resumeHow())
	}
	if fresh {
		p.onCancel = func() tea.Cmd {
			m.turn.switching = true
			return newThreadCmd(c, "")
		}
	} else {
		p.onCancel = func() tea.Cmd { m.turn.switching = false; m.clearNotice(noticeHeld); return nil }
	}
	p.refilter()
	m.openPicker(p)
	m.resume = f
	return load(false)
}

func (m *Model) onThreadPage(msg threadPageMsg) tea.Cmd {
	f := m.resume
	p := msg.p
	if f == nil || m.picker != p || msg.seq != f.seq {
		return nil
	}
	p.loading = false
	if msg.err != nil {
		p.empty = "thread/list failed: " + oneLine(msg.err)
		p.setItems(nil)
		return nil
	}
	if !msg.append {
		f.threads = nil
		p.sel = 0
	}
	f.cursor = msg.resp.NextCursor
	f.threads = append(f.threads, msg.resp.Data...)
	items := make([]pickItem, 0, len(f.threads))
	for _, t := range f.threads {
		title := strings.TrimSpace(t.Preview)
		if t.Name != nil && *t.Name != "" {
			title = *t.Name
		}
		title, _, _ = strings.Cut(title, "\n")
		if title == "" {
			title = "(no messages)"
		}
		when := t.UpdatedAt
		if f.sortKey == backend.SortCreated {
			when = t.CreatedAt
		}
		detail := liveTag(t, m.detach.durable) + ago(m.now(), when)
		if f.all {
			detail += " · " + ui.ShortHome(t.Cwd)
		}
		items = append(items, pickItem{label: title, detail: detail, value: t})
	}
	p.setItems(items)
	return nil
}

// ago renders a Unix time as "5m ago", "3h ago", "2d ago", seen at now.
func ago(now time.Time, unix int64) string {
	if unix == 0 {
		return "—"
	}
	d := now.Sub(time.Unix(unix, 0))
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
	return fmt.Sprintf("%dd ago", int(d.Hours()/24))
}

// openHistorySearch opens Ctrl+R (act.HistorySearch, the composer's): a
// fuzzy search over the workspace's history, newest first, from the
// draft; Enter puts the entry in the composer.
func (m *Model) openHistorySearch(h act.HistorySearch) {
	items := make([]pickItem, 0, len(h.Entries))
	for i := len(h.Entries) - 1; i >= 0; i-- {
		items = append(items, pickItem{label: strings.ReplaceAll(h.Entries[i], "\n", " ⏎ "), value: h.Entries[i]})
	}
	p := &picker{title: "History", hint: "type to search · enter to use · esc to close", empty: "no history in this workspace yet"}
	p.onChoose = func(it pickItem) tea.Cmd {
		m.out.Want(act.SetDraft{Text: it.value.(string)}) // model/composer
		return nil
	}
	p.query = h.Query
	p.setItems(items)
	m.openPicker(p)
}
