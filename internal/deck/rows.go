package deck

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"tandem/ui"
	"time"

	"github.com/sahilm/fuzzy"

	"tandem/backend"
	"tandem/internal/lib/termsafe"
	"tandem/model"
)

// row is one row of the list: a lane, or a stored thread that is no
// lane (not open in this tandem).
type row struct {
	lane   *lane
	stored *StoredThread
}

func laneKey(id LaneID) string { return fmt.Sprint("lane ", id) }

// key identifies the row across frames.
func (r row) key() string {
	if r.lane != nil {
		return laneKey(r.lane.ID)
	}
	return "thread " + r.stored.ID
}

// rows are the rows the list shows: the lanes in scope (this
// workspace's, or all), then the stored threads of the scope that are no
// lane; matching the filter (fuzzily, best first), else in that order.
// It costs O(lanes + stored threads): no command, no allocation per
// lane beyond its row.
func (d *Model) rows() []row {
	in := make([]row, 0, len(d.lanes)+len(d.list.stored))
	open := make(map[string]bool, len(d.lanes))
	for _, l := range d.lanes {
		open[l.sum.ThreadID], open[l.Thread] = true, true
		if d.list.all || !l.Elsewhere {
			in = append(in, row{lane: l})
		}
	}
	for i := range d.list.stored {
		st := &d.list.stored[i]
		if !open[st.ID] && (d.list.all || !st.Elsewhere) {
			in = append(in, row{stored: st})
		}
	}
	if d.list.filter == "" {
		return in
	}
	keys := make([]string, len(in))
	for i, r := range in {
		if r.lane != nil {
			keys[i] = d.name(r.lane) + " " + d.where(r.lane) + " " + r.lane.Branch
		} else {
			keys[i] = r.stored.Name + " " + d.storedWhere(r.stored) + " " + r.stored.Branch
		}
	}
	ms := fuzzy.Find(d.list.filter, keys)
	out := make([]row, len(ms))
	for i, m := range ms {
		out[i] = in[m.Index]
	}
	return out
}

// selectedRow is the list's selected row among those shown (the first
// when the selected one is not shown); false for none.
func (d *Model) selectedRow() (row, bool) { return d.selectedIn(d.rows()) }

// selectedIn is the selected row among rs (the first when it is not
// among them); false for none.
func (d *Model) selectedIn(rs []row) (row, bool) {
	for _, r := range rs {
		if r.key() == d.list.sel {
			return r, true
		}
	}
	if len(rs) > 0 {
		return rs[0], true
	}
	return row{}, false
}

// selected is the list's selected lane (nil for none, or a stored
// thread selected).
func (d *Model) selected() *lane {
	r, _ := d.selectedRow()
	return r.lane
}

// storedWhere is a stored thread's worktree, or its cwd, shortened.
func (d *Model) storedWhere(st *StoredThread) string {
	if st.Worktree != "" {
		return d.tilde(st.Worktree)
	}
	return d.tilde(st.Cwd)
}

// entry is one request of the inbox.
type entry struct {
	lane  *lane
	req   backend.ServerRequest
	since time.Time
	order int
}

func (e entry) key() string { return fmt.Sprint(e.lane.ID) + "\x00" + reqKey(e.req) }

// inbox is every unanswered request of every lane and its sub-agents,
// oldest first (as first seen by the deck; ties in lane order).
func (d *Model) inbox() []entry {
	var out []entry
	for _, l := range d.lanes {
		for _, r := range l.pending {
			out = append(out, entry{lane: l, req: r, since: l.since[reqKey(r)], order: len(out)})
		}
	}
	slices.SortStableFunc(out, func(a, b entry) int { return a.since.Compare(b.since) })
	return out
}

// selectedEntry is the inbox's selected request (the first when the
// selected one is gone); false for an empty inbox.
func (d *Model) selectedEntry() (entry, bool) {
	es := d.inbox()
	for _, e := range es {
		if e.key() == d.list.selReq {
			return e, true
		}
	}
	if len(es) > 0 {
		return es[0], true
	}
	return entry{}, false
}

// asker names who asks r in lane l: the thread, or "thread › sub-agent".
func (d *Model) asker(l *lane, r backend.ServerRequest) string {
	for _, a := range l.sum.Agents {
		if a.ThreadID != "" && a.ThreadID == r.Thread() && a.ThreadID != l.sum.ThreadID {
			n := a.Name
			if n == "" {
				n = short(a.ThreadID, 8)
			}
			return d.name(l) + " › " + n
		}
	}
	return d.name(l)
}

// what says what r asks, in a few words.
func what(r backend.ServerRequest) string {
	switch r := r.(type) {
	case *backend.CommandApprovalRequest:
		if r.Params.Command != nil {
			return "run " + oneLine(ui.CommandText(*r.Params.Command)) + "?"
		}
		return "run a command?"
	case *backend.ExecCommandApprovalRequest:
		return "run " + oneLine(strings.Join(r.Params.Command, " ")) + "?"
	case *backend.FileChangeApprovalRequest, *backend.ApplyPatchApprovalRequest:
		return "apply file changes?"
	case *backend.PermissionsApprovalRequest:
		return "grant permissions?"
	case *backend.UserInputRequest, *backend.ToolCallRequest:
		return "a question"
	case *backend.ElicitationRequest:
		return "a form of " + oneLine(r.Params.ServerName)
	case watched:
		return "asks about " + backend.DescribeRequest(r.Method()) + " (a driver answers)"
	}
	return "a request"
}

// oneLine is text from the server as one line safe for a terminal.
func oneLine(s string) string {
	return strings.Join(strings.Fields(termsafe.Plain(s)), " ")
}

// state is a lane's state as the list words it.
func (d *Model) state(l *lane) string {
	switch {
	case l.waiting():
		return "waiting for you"
	case l.sum.Phase == model.PhaseFailed:
		return "failed"
	case l.running || l.sum.Phase == model.PhaseRunning:
		return "running"
	case l.unread() && !d.reading(l): // readstate.go
		return "done · unread"
	case l.sum.Phase == model.PhaseStarting && l.sum.ThreadID == "":
		return "starting"
	}
	return "idle"
}

// phaseWord is a sub-agent's state.
func phaseWord(p model.Phase) string {
	switch p {
	case model.PhaseWaiting:
		return "waiting for you"
	case model.PhaseFailed:
		return "failed"
	case model.PhaseRunning:
		return "running"
	case model.PhaseStarting:
		return "starting"
	}
	return "idle"
}

// where is the lane's worktree, or its cwd, shortened.
func (d *Model) where(l *lane) string {
	p := l.Worktree
	if p == "" {
		p = l.sum.Cwd
	}
	return d.tilde(p)
}

// tilde writes p with the home directory as "~".
func (d *Model) tilde(p string) string {
	p = oneLine(p)
	if h := d.opts.Home; h != "" && p != "" {
		if p == h {
			return "~"
		}
		if rel, ok := strings.CutPrefix(p, strings.TrimSuffix(h, string(filepath.Separator))+string(filepath.Separator)); ok {
			return "~" + string(filepath.Separator) + rel
		}
	}
	return p
}

// tokens writes n as 980, 1.5k, 12k, 3.4M ("" for none).
func tokens(n int64) string {
	switch {
	case n <= 0:
		return ""
	case n < 1000:
		return fmt.Sprint(n)
	case n < 10_000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	case n < 1_000_000:
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprintf("%.1fM", float64(n)/1_000_000)
}

// age writes how long ago t was: 40s, 5m, 3h, 2d ("" for a zero t).
func age(now, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := max(0, now.Sub(t))
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// conflicts are, for each lane, the paths it changes that another lane
// changes too (Options.Overlaps), each with that lane's name. settle
// keeps them in d.conf while the list shows, made again only when stale.
func (d *Model) conflicts() map[LaneID][]string {
	out := map[LaneID][]string{}
	all := d.lanes
	for i, a := range all {
		for _, b := range all[i+1:] {
			paths := d.opts.Overlaps(thread(a), thread(b))
			for _, p := range paths {
				out[a.ID] = append(out[a.ID], d.tilde(p)+" (also "+oneLine(d.name(b))+")")
				out[b.ID] = append(out[b.ID], d.tilde(p)+" (also "+oneLine(d.name(a))+")")
			}
		}
	}
	return out
}

func thread(l *lane) Thread {
	return Thread{ID: l.ID, Summary: l.sum, Worktree: l.Worktree, Branch: l.Branch}
}
