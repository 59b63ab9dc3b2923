package overlay

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/forms"
	"tandem/model/act"
	"tandem/ui"
)

// pending is one server request waiting for this viewer: a driver's
// answerable request with the adapter that shows and answers it, or (req
// nil) what a watcher may know of one.
type pending struct {
	req  backend.ServerRequest
	view backend.RequestView
	ad   adapter
}

// queue is the server requests waiting for an answer, in arrival order,
// and the form of the first one: every request gets exactly one answer,
// and approvals show one at a time. Replies are sent by commands
// (replySent), never inside Update; sending holds the ones answered but
// not sent yet, so quitting can still refuse them.
type queue struct {
	pending []pending
	sending []backend.ServerRequest
	form    forms.Form
	// ready: the shown form has the keyboard (grace.go). whole: as last
	// laid out it shows the whole request and the highlighted choice,
	// since wholeAt (whole.go); full: it is shown full screen; rows and
	// width: what it was last laid out for.
	ready       bool
	whole, full bool
	wholeAt     time.Time
	rows, width int
	dirty       bool // the form may draw differently: measure it again
	// shows is what the shown form was built from, for a folded adapter
	// (nil for others).
	shows any
	seq   int
	grace graceState
}

// hasKeys reports whether the shown form takes the keyboard.
func (q *queue) hasKeys() bool { return q.form != nil && q.ready }

func (q *queue) closeForm() { q.form, q.ready, q.whole, q.full = nil, false, false, false }

// Requests returns the server requests without an answer yet, the shown
// one first, then those whose answer is on its way: the program refuses
// them before it exits.
func (o *Overlay) Requests() []backend.ServerRequest {
	var out []backend.ServerRequest
	for _, p := range o.q.pending {
		if p.req != nil {
			out = append(out, p.req)
		}
	}
	return append(out, o.q.sending...)
}

// Asking returns the threads whose requests wait for an answer, one per
// request in arrival order (a watcher's too, which only a driver can
// answer): the session's thread or a sub-agent's ("" when the server
// named none). O(pending).
func (o *Overlay) Asking() []string {
	var out []string
	for _, p := range o.q.pending {
		if p.req != nil && p.req.Answered() {
			continue
		}
		out = append(out, p.view.ThreadID)
	}
	return out
}

// Watched returns what a watcher knows of the requests that wait (a
// driver's own requests are in Requests), in arrival order: read-only,
// for the command center's inbox. O(pending).
func (o *Overlay) Watched() []backend.RequestView {
	var out []backend.RequestView
	for _, p := range o.q.pending {
		if p.req == nil {
			out = append(out, p.view)
		}
	}
	return out
}

// ItemRef names an item of the session thread.
type ItemRef struct{ Turn, Item string }

// Awaiting returns the command items whose approval
// (`item/commandExecution/requestApproval`) waits unanswered: their cells
// say "awaiting approval" (the root joins them to the panes after every
// message).
func (o *Overlay) Awaiting() []ItemRef {
	var out []ItemRef
	for _, p := range o.q.pending {
		v := p.view
		if v.Method != backend.MethodCommandApproval || v.ItemID == "" || (p.req != nil && p.req.Answered()) {
			continue
		}
		out = append(out, ItemRef{Turn: v.TurnID, Item: v.ItemID})
	}
	return out
}

// Watch records what a watcher may know of a request: no form, just a
// "waiting for …" line until it is resolved.
func (o *Overlay) Watch(v backend.RequestView) {
	o.q.pending = append(o.q.pending, pending{view: v})
	o.out().Want(act.Follow{})
}

// Request queues a server request and shows it when it is first in line.
// Requests that need no person (the clock, a bad tool call) are answered
// at once. A watcher never answers: it only notes the request.
func (o *Overlay) Request(req backend.ServerRequest) {
	if o.env.Role.Watches() {
		o.Watch(req.View())
		return
	}
	ad := adapterFor(req)
	if now, banner, ok := ad.arrive(); ok {
		if banner != "" {
			o.out().Banner(ui.BannerWarning, banner, nil)
		}
		o.reply(req, now)
		return
	}
	q := &o.q
	q.pending = append(q.pending, pending{req: req, view: req.View(), ad: ad})
	if q.form == nil {
		o.showNext()
	}
	if !o.isPending(req) {
		// Refused while its form was built (an elicitation tandem cannot
		// show): nothing to ring for.
		return
	}
	o.out().Want(act.RequestNotify{Summary: ad.summary()})
}

func (o *Overlay) isPending(req backend.ServerRequest) bool {
	for _, p := range o.q.pending {
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
func (o *Overlay) showNext() {
	q := &o.q
	o.out().Clear(act.NoticeRequestWaiting) // the form it waited on is gone
	for len(q.pending) > 0 && q.pending[0].req != nil {
		p := q.pending[0]
		e := o.envFor(p.req)
		f, now, banner := p.ad.open(e)
		if f != nil {
			q.form, q.ready, q.shows = f, false, nil
			if fd, ok := p.ad.(folded); ok {
				q.shows = fd.shows(e)
			}
			q.seq++
			o.out().Want(act.Follow{})
			o.out().Cmd(f.Init())
			o.startGrace() // grace.go
			return
		}
		if banner != "" {
			o.out().Banner(ui.BannerWarning, banner, nil)
		}
		o.reply(p.req, now)
		q.pending = q.pending[1:]
	}
}

// envFor is formEnv for req: who asks, and the fold of the thread that
// asks (a sub-agent's own).
func (o *Overlay) envFor(req backend.ServerRequest) formEnv {
	e := o.formEnv()
	e.asker = o.opts.World.AskerOf(req.Thread()) // a sub-agent asks
	e.thread = o.opts.World.ThreadOf(req.Thread())
	return e
}

// rebuildStale builds the shown form again when what it was built from
// changed in the fold (folded: a file change's patch updated while its
// approval is open). The new form is a new request to read: its grace
// starts again and a yes waits until its diff has been on screen.
func (o *Overlay) rebuildStale() {
	q := &o.q
	if q.form == nil || len(q.pending) == 0 {
		return
	}
	fd, ok := q.pending[0].ad.(folded)
	if !ok || !fd.changed(o.envFor(q.pending[0].req), q.shows) {
		return
	}
	full := q.full
	q.closeForm()
	o.showNext()
	if q.form != nil && full {
		q.full = true
		q.form.SetFull(true)
	}
	o.out().Notice(act.NoticeFormWait, ChangedNotice)
}

// ChangedNotice is the notice shown when a file change's diff changed
// while its approval was open.
const ChangedNotice = "the changes were updated while the form was open: read them again"

// settle answers the shown request once its form is done and shows the
// next one.
func (o *Overlay) settle() {
	q := &o.q
	if q.form == nil || !q.form.Done() || len(q.pending) == 0 {
		return
	}
	p, f := q.pending[0], q.form
	q.closeForm()
	q.pending = q.pending[1:]
	o.reply(p.req, p.ad.answer(f))
	o.showNext()
}

// replySent is the outcome of a reply to a server request, sent by a
// command (never inside Update).
type replySent struct {
	req    backend.ServerRequest
	method string
	err    error
}

func (replySent) overlayMsg() {}

// reply sends one answer to req in a command, which reports it as
// replySent; until then req counts as unanswered for quitting.
func (o *Overlay) reply(req backend.ServerRequest, send func() error) {
	if send == nil {
		return
	}
	o.q.sending = append(o.q.sending, req)
	method := req.Method()
	o.out().Cmd(func() tea.Msg { return replySent{req: req, method: method, err: send()} })
}

func (o *Overlay) onReplySent(msg replySent) {
	q := &o.q
	for i, r := range q.sending {
		if r == msg.req {
			q.sending = append(q.sending[:i:i], q.sending[i+1:]...)
			break
		}
	}
	if msg.err != nil {
		o.out().Banner(ui.BannerWarning, "could not answer "+msg.method+": "+msg.err.Error(), nil)
	}
}

// RefuseAll answers every pending server request with its refusal
// (decline, cancel or an error: never accept) and closes the form. The
// refusals go out in order, in the command it returns, which the root
// runs before the interrupt or restart that follows them.
func (o *Overlay) RefuseAll() tea.Cmd {
	q := &o.q
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

// refusedAll is the outcome of RefuseAll.
type refusedAll struct {
	reqs []backend.ServerRequest
	errs []string
}

func (refusedAll) overlayMsg() {}

func (o *Overlay) onRefusedAll(msg refusedAll) {
	for _, r := range msg.reqs {
		o.onReplySent(replySent{req: r})
	}
	for _, e := range msg.errs {
		o.out().Banner(ui.BannerWarning, "could not refuse a request: "+e, nil)
	}
}

// Drop forgets every pending request without answering (the server that
// asked is gone).
func (o *Overlay) Drop() {
	o.q.pending, o.q.sending = nil, nil
	o.q.closeForm()
}

// Resolved drops a request the server no longer needs answered
// (`serverRequest/resolved`), closing its form if shown.
func (o *Overlay) Resolved(id backend.RequestID) {
	q := &o.q
	for i, p := range q.pending {
		if p.view.ID.String() == id.String() {
			q.pending = append(q.pending[:i:i], q.pending[i+1:]...)
			if i == 0 && q.form != nil {
				q.closeForm()
				o.showNext()
			}
			return
		}
	}
}

// queueLine is the live "(+N more waiting)" line under the shown form; ""
// when nothing else waits.
func (o *Overlay) queueLine(w int) string {
	q := o.q
	if q.form == nil || len(q.pending) < 2 {
		return ""
	}
	return o.look.Styles.Dim.Render(ui.Truncate(fmt.Sprintf("  (+%d more waiting)", len(q.pending)-1), w))
}

// WaitingLine is what a watcher sees instead of a form: who the session
// waits for and what was asked. It is "" when nothing is pending or the
// viewer is not a watcher.
func (o *Overlay) WaitingLine() string {
	if !o.env.Role.Watches() || len(o.q.pending) == 0 {
		return ""
	}
	what, ok := waitingFor[o.q.pending[0].view.Method]
	if !ok {
		what = "an answer"
	}
	w := o.opts.World.Room().Width
	return o.look.Styles.Dim.Render(ui.Truncate(ui.SanitizeLine("⏳ waiting for "+o.opts.World.Drivers()+" — "+what), w))
}

// PagerTail is what the pager ends with while an approval is shown: its
// detail, then its whole diff (nil, nil otherwise).
func (o *Overlay) PagerTail() (detail, diff []string) {
	if a, ok := o.q.form.(*forms.Approval); ok {
		return a.Detail(), a.DiffLines()
	}
	return nil, nil
}
