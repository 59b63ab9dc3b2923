package overlay

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/ui"
)

// The pickers the overlay fills itself: /model (and the model's reasoning
// efforts), /approvals, and the resume picker.

// modelsTitle is the /model picker's title (its answer finds it by it).
const modelsTitle = "Model"

// PickModel opens /model's picker: it asks for the models (`model/list`)
// and, once one is chosen, its reasoning efforts; current is the model
// of the next turn, marked ✓. The choice is act.SetModel.
func (o *Overlay) PickModel(current string) {
	o.current = current
	o.openPicker(&picker{title: modelsTitle, hint: "enter to choose · esc to cancel", loading: true})
	o.out().Call(act.ToOverlay, act.ListModels{})
}

func (o *Overlay) onModels(msg act.ModelsListed) {
	p := o.pick
	if p == nil || p.title != modelsTitle {
		return
	}
	p.loading = false
	if msg.Err != nil {
		o.closePicker(p)
		o.out().Banner(ui.BannerError, "/model: "+act.OneLine(msg.Err), nil)
		return
	}
	current := o.current
	var items []pickItem
	sel := 0
	for _, mi := range msg.Models {
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
	p.onChoose = func(it pickItem) {
		mi := it.value.(backend.ModelInfo)
		if len(mi.SupportedReasoningEfforts) <= 1 {
			effort := mi.DefaultReasoningEffort
			if len(mi.SupportedReasoningEfforts) == 1 {
				effort = mi.SupportedReasoningEfforts[0].ReasoningEffort
			}
			o.out().Want(act.SetModel{Model: mi.Model, Effort: effort})
			return
		}
		o.pickEffort(mi)
	}
}

func (o *Overlay) pickEffort(mi backend.ModelInfo) {
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
	p.onChoose = func(it pickItem) {
		o.out().Want(act.SetModel{Model: mi.Model, Effort: it.value.(string)})
	}
	// Opened from the model picker's onChoose: closing that one leaves
	// this one shown.
	o.openPicker(p)
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

// PickPolicy opens /approvals' picker of an approval policy and sandbox;
// approval and sandbox are the current ones, marked ✓. The choice is
// act.SetPolicy.
func (o *Overlay) PickPolicy(approval, sandbox string) {
	var items []pickItem
	sel := 0
	for i, a := range approvalPresets {
		label := a.label
		if a.approval == approval && a.sandbox == sandbox {
			label += " ✓"
			sel = i
		}
		items = append(items, pickItem{label: label, detail: fmt.Sprintf("%s — -a %s -s %s", a.desc, a.approval, a.sandbox), value: a})
	}
	p := &picker{title: "Approvals and sandbox", hint: "enter to choose · esc to cancel"}
	p.setItems(items)
	p.sel = sel
	p.onChoose = func(it pickItem) {
		a := it.value.(approvalPreset)
		o.out().Want(act.SetPolicy{Approval: a.approval, Sandbox: a.sandbox})
	}
	o.openPicker(p)
}

// resumeFilter is the resume picker's state: all workspaces or this one,
// the sort key, the next page's cursor and the threads listed so far.
type resumeFilter struct {
	p       *picker
	all     bool
	sortKey string
	cursor  *string
	seq     int
	threads []backend.Thread
	durable bool
}

// PickThread opens the resume picker: pages of `thread/list` for the
// workspace (Ctrl+A: all), newest updated first (Ctrl+S: by created),
// typing searches titles. fresh means no thread is open yet: Esc then
// starts a new one. durable marks the daemon, whose loaded threads are
// live. The choice is act.ResumeThread; Esc is act.ResumeCancelled.
func (o *Overlay) PickThread(fresh, durable bool) {
	f := &resumeFilter{sortKey: backend.SortUpdated, durable: durable}
	p := &picker{title: "Resume a thread", empty: "no threads"}
	f.p = p
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
	load := func(next bool) {
		o.seq++
		f.seq = o.seq
		params := backend.ThreadListParams{Limit: 25, SortKey: f.sortKey, SearchTerm: p.query}
		if !f.all {
			params.Cwd = o.opts.Workspace
		}
		if next {
			if f.cursor == nil {
				return
			}
			params.Cursor = f.cursor
		}
		p.loading = true
		hint()
		o.out().Call(act.ToOverlay, act.ListThreads{Params: params, Seq: f.seq, Next: next})
	}
	p.onQuery = func(string) { load(false) }
	p.onMore = func() { load(true) }
	p.onKey = func(k tea.KeyPressMsg) bool {
		switch {
		case key.Matches(k, o.keys.ResumeScope):
			f.all = !f.all
		case key.Matches(k, o.keys.ResumeSort):
			if f.sortKey == backend.SortUpdated {
				f.sortKey = backend.SortCreated
			} else {
				f.sortKey = backend.SortUpdated
			}
		default:
			return false
		}
		load(false)
		return true
	}
	p.preview = func(it pickItem) []string {
		t := it.value.(backend.Thread)
		now := o.opts.Now()
		lines := []string{fmt.Sprintf("%s · %s · created %s · updated %s", t.ID, ui.ShortHome(t.Cwd), ago(now, t.CreatedAt), ago(now, t.UpdatedAt))}
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
	p.onChoose = func(it pickItem) { o.out().Want(act.ResumeThread{Thread: it.value.(backend.Thread)}) }
	p.onCancel = func() { o.out().Want(act.ResumeCancelled{Fresh: fresh}) }
	p.refilter()
	o.openPicker(p)
	o.resume = f
	load(false)
}

func (o *Overlay) onThreads(msg act.ThreadsListed) {
	f := o.resume
	if f == nil || o.pick != f.p || msg.Seq != f.seq {
		return
	}
	p := f.p
	p.loading = false
	if msg.Err != nil {
		p.empty = "thread/list failed: " + act.OneLine(msg.Err)
		p.setItems(nil)
		return
	}
	if !msg.Next {
		f.threads = nil
		p.sel = 0
	}
	f.cursor = msg.Page.NextCursor
	f.threads = append(f.threads, msg.Page.Data...)
	items := make([]pickItem, 0, len(f.threads))
	now := o.opts.Now()
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
		detail := liveTag(t, f.durable) + ago(now, when)
		if f.all {
			detail += " · " + ui.ShortHome(t.Cwd)
		}
		items = append(items, pickItem{label: title, detail: detail, value: t})
	}
	p.setItems(items)
}

// liveTag is the resume picker's mark of a thread live on the server: a
// turn running or waiting for an answer, or (on the daemon, durable,
// where threads outlive tandem) loaded with nothing running.
func liveTag(t backend.Thread, durable bool) string {
	switch {
	case t.Status == nil:
		return ""
	case t.WaitingOnUser():
		return "● waiting for you · "
	case t.Active():
		return "● running · "
	case durable && t.Idle():
		return "live · "
	}
	return ""
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
