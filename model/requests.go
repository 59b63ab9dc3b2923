package model

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/forms"
	"tandem/model/status"
	"tandem/thread"
	"tandem/ui"
)

// pendingRequest is one server request waiting for this viewer: a
// driver's answerable request with the adapter that shows and answers it,
// or (req nil) what a watcher may know of one.
type pendingRequest struct {
	req  backend.ServerRequest
	view backend.RequestView
	ad   requestAdapter
}

// requestQueue is the server requests waiting for an answer, in arrival
// order, and the form of the first one: every request gets exactly one
// answer, and approvals show one at a time. Replies are sent by commands
// (replySent), never inside Update; sending holds the ones answered but
// not sent yet, so quitting can still refuse them.
type requestQueue struct {
	pending []pendingRequest
	sending []backend.ServerRequest
	form    forms.Form
	// ready: the shown form has the keyboard (grace.go). whole: as last
	// laid out it shows the whole request and the highlighted choice,
	// since wholeAt (formwhole.go); full: it is shown full screen; rows
	// and width: what it was last laid out for.
	ready       bool
	whole, full bool
	wholeAt     time.Time
	rows, width int
	dirty       bool // the form may draw differently: measure it again
	seq         int
	grace       graceState
}

// hasKeys reports whether the shown form takes the keyboard.
func (q *requestQueue) hasKeys() bool { return q.form != nil && q.ready }

// requests returns the requests without an answer yet, the shown one
// first, then those whose answer is on its way.
func (q *requestQueue) requests() []backend.ServerRequest {
	var out []backend.ServerRequest
	for _, p := range q.pending {
		if p.req != nil {
			out = append(out, p.req)
		}
	}
	return append(out, q.sending...)
}

// watch records what a watcher may know of a request: no form, just a
// "waiting for …" line until it is resolved.
func (q *requestQueue) watch(m *Model, v backend.RequestView) {
	q.pending = append(q.pending, pendingRequest{view: v})
	m.panes.Follow()
}

func (q *requestQueue) closeForm() { q.form, q.ready, q.whole, q.full = nil, false, false, false }

// onRequest queues a server request and shows it when it is first in
// line. Requests that need no person (the clock, a bad tool call) are
// answered at once. A watcher never answers: it only notes the request.
func (m *Model) onRequest(req backend.ServerRequest) tea.Cmd {
	if m.opts.ReadOnly {
		m.requests.watch(m, req.View())
		return nil
	}
	ad := adapterFor(req)
	if now, banner, ok := ad.arrive(); ok {
		if banner != "" {
			m.banner(ui.BannerWarning, banner, nil)
		}
		return m.reply(req, now)
	}
	q := &m.requests
	q.pending = append(q.pending, pendingRequest{req: req, view: req.View(), ad: ad})
	var cmd tea.Cmd
	if q.form == nil {
		cmd = m.showNext()
	}
	if !m.isPending(req) {
		// Refused while its form was built (an elicitation tandem cannot
		// show): nothing to ring for.
		return cmd
	}
	return tea.Batch(cmd, m.stat.Notify(status.Request, ad.summary(), 0, m.live())) // model/status
}

func (m *Model) isPending(req backend.ServerRequest) bool {
	for _, p := range m.requests.pending {
		if p.req == req {
			return true
		}
	}
	return false
}

// showNext builds the form for the first pending request. The form takes
// focus only after the grace period, so keys already typed stay in the
// composer. A request with nothing to ask is answered as its adapter
// says (a refusal) and the next one comes up.
func (m *Model) showNext() tea.Cmd {
	q := &m.requests
	var cmds []tea.Cmd
	for len(q.pending) > 0 && q.pending[0].req != nil {
		p := q.pending[0]
		e := m.formEnv()
		e.asker = m.panes.AskerOf(p.req.Thread()) // agents.go: a sub-agent asks
		f, now, banner := p.ad.open(e)
		if f != nil {
			q.form, q.ready = f, false
			q.seq++
			m.panes.Follow()
			return tea.Batch(append(cmds, f.Init(), m.startGrace())...) // grace.go
		}
		if banner != "" {
			m.banner(ui.BannerWarning, banner, nil)
		}
		cmds = append(cmds, m.reply(p.req, now))
		q.pending = q.pending[1:]
	}
	return tea.Batch(cmds...)
}

// settleForm answers the shown request once its form is done and shows
// the next one.
func (m *Model) settleForm() tea.Cmd {
	q := &m.requests
	if q.form == nil || !q.form.Done() || len(q.pending) == 0 {
		return nil
	}
	p, f := q.pending[0], q.form
	q.closeForm()
	q.pending = q.pending[1:]
	return tea.Batch(m.reply(p.req, p.ad.answer(f)), m.showNext())
}

// reply sends one answer to req in a command and reports it as
// replySent; until then req counts as unanswered for quitting.
func (m *Model) reply(req backend.ServerRequest, send func() error) tea.Cmd {
	if send == nil {
		return nil
	}
	m.requests.sending = append(m.requests.sending, req)
	method := req.Method()
	return func() tea.Msg { return replySent{req: req, method: method, err: send()} }
}

func (m *Model) onReplySent(msg replySent) {
	q := &m.requests
	for i, r := range q.sending {
		if r == msg.req {
			q.sending = append(q.sending[:i:i], q.sending[i+1:]...)
			break
		}
	}
	if msg.err != nil {
		m.banner(ui.BannerWarning, "could not answer "+msg.method+": "+msg.err.Error(), nil)
	}
}

// refuseAll answers every pending server request with its refusal
// (decline, cancel or an error: never accept) and closes the form. The
// refusals go out in order, in one command.
func (m *Model) refuseAll() tea.Cmd {
	q := &m.requests
	var sends []func() error
	var reqs []backend.ServerRequest
	for _, p := range q.pending {
		if p.req != nil && !p.req.Answered() {
			sends = append(sends, p.req.Refuse)
			reqs = append(reqs, p.req)
		}
	}
	q.sending = append(q.sending, reqs...)
	q.pending = nil
	q.closeForm()
	if len(sends) == 0 {
		return nil
	}
	return func() tea.Msg {
		var errs []string
		for _, s := range sends {
			if err := s(); err != nil {
				errs = append(errs, err.Error())
			}
		}
		return refusedAll{reqs: reqs, errs: errs}
	}
}

// refusedAll is the outcome of refuseAll.
type refusedAll struct {
	reqs []backend.ServerRequest
	errs []string
}

func (m *Model) onRefusedAll(msg refusedAll) {
	for _, r := range msg.reqs {
		m.onReplySent(replySent{req: r})
	}
	for _, e := range msg.errs {
		m.banner(ui.BannerWarning, "could not refuse a request: "+e, nil)
	}
}

// dropRequests forgets every pending request without answering (the
// server that asked is gone).
func (m *Model) dropRequests() {
	m.requests.pending, m.requests.sending = nil, nil
	m.requests.closeForm()
}

// resolved drops a request the server no longer needs answered
// (`serverRequest/resolved`), closing its form if shown.
func (m *Model) resolved(id backend.RequestID) tea.Cmd {
	q := &m.requests
	for i, p := range q.pending {
		if p.view.ID.String() == id.String() {
			q.pending = append(q.pending[:i:i], q.pending[i+1:]...)
			if i == 0 && q.form != nil {
				q.closeForm()
				return m.showNext()
			}
			return nil
		}
	}
	return nil
}

// queueLine is the live "(+N more waiting)" line under the shown form; ""
// when nothing else waits.
func (m *Model) queueLine() string {
	q := m.requests
	if q.form == nil || len(q.pending) < 2 {
		return ""
	}
	return m.styles.Dim.Render(ui.Truncate(fmt.Sprintf("  (+%d more waiting)", len(q.pending)-1), m.contentWidth()))
}

// syncAwaiting labels a command cell "awaiting approval" while its
// `item/commandExecution/requestApproval` is pending and unanswered, and
// drops the label once it is answered, resolved or dropped. It runs after
// every Update; pending holds at most a few requests.
func (m *Model) syncAwaiting() {
	var items []*thread.Item
	for _, p := range m.requests.pending {
		v := p.view
		if v.Method != backend.MethodCommandApproval || v.ItemID == "" || (p.req != nil && p.req.Answered()) {
			continue
		}
		if it := m.panes.Thread().Find(v.TurnID, v.ItemID); it != nil {
			items = append(items, it)
		}
	}
	m.panes.Awaiting(items) // model/transcript
}
