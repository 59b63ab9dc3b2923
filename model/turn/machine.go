package turn

import (
	"errors"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/thread"
	"tandem/ui"
)

// state is the running turn as this viewer knows it, and what waits for
// the next one.
type state struct {
	// running is set from turn/start (or review/start) until the turn
	// ends; starting while that request's answer is awaited.
	running, starting bool
	started           time.Time
	// seq changes whenever a turn starts or ends, so a pending idle check
	// for an earlier turn is ignored.
	seq int
	// interruptSent is when turn/interrupt was sent for the running turn
	// (zero: none); a further Ctrl+C arms quit instead of resending.
	interruptSent time.Time
	// interruptLater: Esc came while turn/start had no answer; the
	// interrupt goes once the turn's id is known (interruptNow).
	interruptLater bool
	// err is the turn error already shown this turn (an `error`
	// notification), so turn/completed with status failed does not
	// repeat it.
	err string
	// queued prompts, sent one per turn when the running turn ends
	// (queue.go); steering: one of them steers the turn, its answer
	// awaited.
	queued   []queued
	steering bool
	// held is Options.Prompt, kept until `account/read` says no login is
	// needed, or the login form completes or is skipped.
	held string
	// overrides are the /model and /approvals choices, sent with
	// turn/start; effort is the thread's reasoning effort, for /status.
	overrides backend.TurnOptions
	effort    string
	// switching is set while a thread is being opened; turns wait.
	switching bool
	// seek is the turn the thread being opened is to be scrolled to
	// (/search's choice, seek.go); "" none.
	seek string
	// foreign marks a running turn this viewer did not start (another
	// client of the daemon, such as Codex's own TUI, or one found running
	// on resume): its user messages are drawn from the thread's items.
	foreign bool
	// sent, before and thread are the last turn/start's input text, the
	// newest turn known when it was sent and its thread (truth.go);
	// confirmed is set once its turn/started came. check is a turn/start
	// or turn/steer whose answer never came, until the server says what
	// became of it; steers are the steers awaiting their answer.
	sent, before, thread string
	confirmed            bool
	check                *check
	steers               []pendingSteer
}

// pendingSteer is a turn/steer on its way: the draft it came from, the
// input's text, and the turn and thread it steers.
type pendingSteer struct{ draft, sent, turn, thread string }

// busy reports whether a turn runs or is being started, or a turn/start
// waits for the server to say whether it happened.
func (s *state) busy() bool { return s.running || s.starting || s.check != nil }

// idleGrace is how long after the thread went idle a turn without
// turn/completed is ended.
const idleGrace = 3 * time.Second

// idleCheckMsg fires idleGrace after the thread went idle while a turn
// was running; if turn/completed still hasn't come, the turn is ended.
type idleCheckMsg struct{ seq int }

func (idleCheckMsg) turnMsg() {}

// submit starts a turn with text, its image chips sent as images
// (images.go; a local file is first copied to a remote app-server). The
// user's message is drawn at once, unless prompts are drawn from the
// thread's items (a shared session).
func (t *Turns) submit(text string) { t.submitShown(text, text) }

// submitShown is submit with the user's message drawn as shown (a
// command's name, such as "/init", for the prompt it sends); a turn that
// fails to start gives shown back to the composer.
func (t *Turns) submitShown(shown, text string) {
	if t.imagesBlocked(text) {
		return
	}
	in, ups, images := t.turnInput(text)
	if !t.shared() {
		drawn := in.Text
		if shown != text {
			drawn = shown
		}
		t.out().Want(act.Echo{Cell: &ui.UserCell{Text: drawn, Images: images}})
	}
	t.out().Want(act.Follow{})
	t.beginTurn()
	t.sentAt(in.Text) // truth.go: what a check looks for
	t.out().Clear()
	in.TurnOptions = t.t.overrides
	in.Skills, in.Collaboration = t.w.SkillRefs(text), t.collabFor() // collab.go
	t.out().Call(act.ToTurn, act.StartTurn{Input: in, Uploads: ups, Text: text, Shown: shown})
	t.out().Want(act.StartFrames{})
}

// review starts a review of the uncommitted changes as a turn (/review).
func (t *Turns) review() {
	if t.client == nil {
		return
	}
	t.beginTurn()
	t.t.sent = "" // a review is not checked
	t.out().Call(act.ToTurn, act.StartReview{})
	t.out().Want(act.StartFrames{})
}

// onTurnStarted takes turn/start's answer. An error the server answered
// with gives the prompt back; a call that got no answer (it timed out, or
// the connection ended) asks the server first (truth.go), unless the
// turn's turn/started came meanwhile.
func (t *Turns) onTurnStarted(msg act.TurnStarted) {
	t.t.starting = false
	t.out().Clear(act.NoticeTurnStarting) // started, or failed to: it is not starting any more
	if msg.Err == nil {
		if !t.interruptNow() {
			t.steerQueued() // queue.go: what Enter queued while it started
		}
		return
	}
	if backend.MaybeSent(msg.Err) && t.t.sent != "" {
		if t.t.confirmed {
			return // turn/started came: the turn runs
		}
		t.beginCheck(&check{thread: t.t.thread, before: t.t.before, sent: t.t.sent, draft: msg.Text})
		return
	}
	t.startRefused(msg.Text, msg.Err.Error())
}

// followTurn shows a turn this viewer did not start (another client's,
// or one that ran on while it was away) as running, from now, unless
// one runs already; it starts the frame ticks and the spinner.
func (t *Turns) followTurn() {
	if !t.t.running {
		t.t.running, t.t.foreign = true, true
		t.t.started = t.now()
		t.failure = ""
	}
	t.out().Want(act.StartFrames{})
}

// beginTurn marks a turn as starting: turn/start (or review/start) was
// sent and its answer is awaited.
func (t *Turns) beginTurn() {
	t.t.running, t.t.starting = true, true
	t.t.started = t.now()
	t.failure = ""
}

// clearTurn forgets the running turn, if any: the running flags, an
// interrupt sent for it, and any idle check pending for it (a check of
// its turn/start stays: the server is still to say).
func (t *Turns) clearTurn() {
	t.t.seq++
	t.t.running, t.t.starting, t.t.foreign = false, false, false
	t.t.interruptSent = time.Time{}
	t.t.interruptLater = false
	t.rec.silent = 0
}

// endTurn ends the running turn as tu says, with a banner when it was
// interrupted or failed (unless its error was shown already).
func (t *Turns) endTurn(tu backend.Turn) {
	if !t.t.busy() {
		t.t.err = ""
		return
	}
	interrupted := !t.t.interruptSent.IsZero()
	t.clearTurn()
	t.out().Clear()
	t.out().Want(act.ClearHeader{})
	// Nothing completes what is still open once its turn is over.
	open := thread.StatusUnknown
	if tu.Status == backend.TurnInterrupted {
		open = thread.StatusInterrupted
	}
	t.out().Want(act.EndOpen{Turn: tu.ID, Status: open})
	switch tu.Status {
	case backend.TurnInterrupted:
		t.banner(ui.BannerWarning, "Turn interrupted", nil)
		if interrupted {
			t.restoreQueue() // queue.go: Esc puts the queue back in the composer
		}
	case backend.TurnFailed:
		shown := t.t.err != "" && (tu.Error == nil || tu.Error.Message == "" || tu.Error.Message == t.t.err)
		msg := "Turn failed"
		if tu.Error != nil && tu.Error.Message != "" {
			msg += ": " + tu.Error.Message
		} else if t.t.err != "" {
			msg += ": " + t.t.err
		}
		if !shown {
			t.banner(ui.BannerError, msg, nil)
		}
		t.failure = msg
	}
	t.t.err = ""
}

// Enter submits the draft s (act.Submit: the composer's Enter, once the
// slash commands did not take it): a `!` shell command, a new turn, or —
// while a turn runs — a steer of that turn. Before the session is ready,
// or while the turn is starting, it is queued (queue.go); text over the
// server's limit, or when nothing can be sent, it says why and the draft
// stays.
func (t *Turns) Enter(s act.Submit) {
	raw := s.Raw
	if strings.TrimSpace(raw) == "" || t.tooLong(s.Text) { // queue.go: over the server's limit
		return
	}
	if !t.ready || t.client == nil {
		switch {
		case t.detach.detached:
			t.banner(ui.BannerQuiet, "not sent: the link to the daemon is down — your message stays here (Tab queues it for after the re-attach)", nil)
		case t.rec.restarting:
			t.enqueue(raw, waitReady, "restarting codex app-server — queued: sends when the session is ready")
		case (t.rec.dead || t.rec.noThread) && t.opts.Restart != nil && !t.env.Role.Watches():
			t.notice(act.NoticeHeld, "codex app-server is not running — F5 or /restart; your message stays here")
		case t.rec.dead || t.rec.noThread:
			t.notice(act.NoticeHeld, "codex app-server is not running — your message stays here")
		case t.shared() && t.ready:
			t.notice(act.NoticeHeld, "nothing can be sent here — your message stays here")
		default:
			t.enqueue(raw, waitReady, "codex app-server is not ready yet — queued: sends when the session is ready")
		}
		return
	}
	if t.t.switching {
		t.notice(act.NoticeHeld, "opening a thread — your message stays here")
		return
	}
	if t.w.AgentShown() {
		t.notice(act.NoticeHeld, "a sub-agent is shown — esc back to the thread to send; your message stays here")
		return
	}
	// The text has the pasted text for its placeholders (image chips stay).
	text, hist := s.Text, s.Hist
	if t.imagesRefused(text) { // images.go: the model must take images
		return
	}
	if strings.HasPrefix(text, "!") && len(strings.TrimSpace(text)) > 1 {
		if t.w.HasImage(text) {
			t.notice(act.NoticeInfo, "a ! command takes no images — remove them (Backspace after each); your message stays here")
			return
		}
		if t.t.busy() {
			t.notice(act.NoticeInfo, "a turn is running — ! commands run between turns")
			return
		}
		t.out().Want(act.AddHistory{Entry: hist})
		t.out().Want(act.SetDraft{})
		// Its output arrives as a commandExecution item of the thread.
		t.out().Call(act.ToTurn, act.RunShell{Command: strings.TrimSpace(text[1:])})
		return
	}
	if t.t.busy() {
		t.steer(raw, text, hist)
		return
	}
	if len(t.t.queued) > 0 {
		// Prompts still queued (e.g. from before a restart) go first.
		t.t.queued = append(t.t.queued, queued{raw: raw})
		t.out().Want(act.SetDraft{})
		t.notice(act.NoticeInfo, "queued after the earlier prompts")
		t.flushQueue()
		return
	}
	if t.w.RewindPending() {
		// The rewind forks before the chosen turn, then sends.
		t.out().Want(act.SetDraft{})
		t.out().Want(act.RunRewind{Text: text, Hist: hist})
		return
	}
	t.out().Want(act.AddHistory{Entry: hist})
	t.out().Want(act.SetDraft{})
	t.submit(text)
}

// steer adds text (raw as typed) to the running turn with `turn/steer`;
// hist is what the history keeps of it. While the turn is starting, or
// earlier prompts wait to steer it, it is queued behind them (queue.go).
func (t *Turns) steer(raw, text, hist string) {
	if t.client.TurnID() == "" {
		t.enqueue(raw, waitStart, "the turn is starting — queued: sends when the turn has started")
		return
	}
	if t.steersQueued() || len(t.t.steers) > 0 || t.t.check != nil {
		// One steer at a time: a steer whose answer is not in (or is
		// being checked with the server) goes first, so none is sent
		// twice, glued or out of order.
		t.enqueue(raw, waitStart, "queued: steers the turn after the messages before it")
		return
	}
	t.out().Want(act.SetDraft{})
	t.sendSteer(text, hist)
}

// sendSteer sends text to the running turn with `turn/steer`, hist
// recorded in the history.
func (t *Turns) sendSteer(text, hist string) {
	t.out().Want(act.AddHistory{Entry: hist})
	t.out().Want(act.Follow{})
	t.notice(act.NoticeSteering, "steering the turn…")
	in, ups, _ := t.turnInput(text)
	in.Skills = t.w.SkillRefs(text)
	t.t.steers = append(t.t.steers, pendingSteer{draft: text, sent: in.Text, turn: t.client.TurnID(), thread: t.client.ThreadID()})
	t.out().Call(act.ToTurn, act.Steer{Input: in, Uploads: ups, Text: text})
}

// onSteered draws a delivered steer as the user's message. A steer that
// lost the race with the turn's end (-32600: no active turn, or another
// turn than expected; or backend.ErrNoActiveTurn when the session saw
// the end first) is not an error for the user: the message joins the
// queue (after what was queued before it) and is sent as a turn. Any
// other failure puts the text back in the composer.
func (t *Turns) onSteered(r act.Steered) {
	t.out().Clear(act.NoticeSteering)
	var ps pendingSteer
	if i := slices.IndexFunc(t.t.steers, func(p pendingSteer) bool { return p.draft == r.Text }); i >= 0 {
		ps = t.t.steers[i]
		t.t.steers = slices.Delete(t.t.steers, i, i+1)
	}
	fromQueue := t.t.steering
	t.t.steering = false
	defer t.steerQueued() // queue.go: the next one queued while the turn started
	var rpcErr *backend.RPCError
	switch {
	case backend.MaybeSent(r.Err) && ps.turn != "" && t.t.check == nil:
		// No answer: the turn may have it. Ask (truth.go).
		t.beginCheck(&check{steer: true, thread: ps.thread, turn: ps.turn, sent: ps.sent, draft: r.Text})
		return
	case r.Err == nil:
		if !t.shared() { // shared sessions draw prompts from the thread's items
			text, ims := t.w.StripImages(r.Text)
			t.out().Want(act.Echo{Cell: &ui.UserCell{Text: text, Images: shownImages(ims)}})
		}
		return
	case errors.Is(r.Err, backend.ErrNoActiveTurn), errors.As(r.Err, &rpcErr) && rpcErr.Code == backend.CodeInvalidRequest:
		if q := (queued{raw: t.w.LargeAsPaste(r.Text)}); fromQueue {
			t.t.queued = append([]queued{q}, t.t.queued...) // what was queued after it stays after it
		} else {
			t.t.queued = append(t.t.queued, q)
		}
		t.notice(act.NoticeInfo, "the turn had ended — your message is sent as the next turn")
		t.flushQueue()
		return
	}
	t.banner(ui.BannerError, "could not steer the turn: "+act.OneLine(r.Err), nil)
	t.out().Want(act.RestoreDraft{Text: r.Text})
}

// queueDraft moves the draft, text (act.Queue: the composer's Tab while
// a turn runs), to the queue sent when the turn ends; it is queued with
// its placeholders, expanded when sent.
func (t *Turns) queueDraft(text string) {
	if strings.TrimSpace(text) == "" || t.tooLong(t.w.Expand(text)) {
		return
	}
	t.enqueue(text, waitTurnEnd, "queued for the next turn")
}

// flushQueue sends the first queued prompt once no turn runs; one that
// reads as a slash command runs as the command, then the next is sent
// (queue.go).
func (t *Turns) flushQueue() {
	if len(t.t.queued) == 0 || !t.CanStart() {
		return
	}
	raw := t.t.queued[0].raw
	t.t.queued = t.t.queued[1:]
	if readsAsCommand(raw) {
		t.out().Want(act.RunQueued{Raw: raw})
		t.out().Want(act.FlushQueue{})
		return
	}
	t.sendQueued(raw)
}

// holdPrompt keeps the command line's prompt until the login check is
// done (releasePrompt); without a client nothing is checked and it is
// sent at once.
func (t *Turns) holdPrompt(p string) {
	t.out().Want(act.AddHistory{Entry: p}) // ↑ and Ctrl+R find it as a typed one
	if t.client == nil {
		t.submit(p)
		return
	}
	t.t.held = p
	t.notice(act.NoticeLoginCheck, "checking the login before sending your prompt…")
	if t.w.HasImage(p) {
		t.fetchModels() // -i: whether the model takes images
	}
}

// releasePrompt sends the held prompt once no login is needed, or the
// login form completed or was skipped. When a turn or a thread switch is
// under way it goes to the front of the queue instead; it is never lost.
func (t *Turns) releasePrompt() {
	p := t.t.held
	if p == "" {
		return
	}
	if t.w.HasImage(p) && !t.images.listed && t.client != nil {
		// -i: sent once model/list says whether the model takes images.
		t.images.heldWaits = true
		t.fetchModels()
		return
	}
	t.t.held = ""
	t.out().Clear(act.NoticeLoginCheck)
	if t.tooLong(p) { // queue.go: kept in the composer instead
		t.out().Want(act.SetDraft{Text: p})
		return
	}
	if !t.CanStart() {
		t.t.queued = append([]queued{{raw: p}}, t.t.queued...)
		t.flushQueue()
		return
	}
	t.submit(p)
}

// onThreadIdle ends a turn the server forgot to complete: a thread that
// went idle without turn/completed, after a grace period, since
// turn/completed normally follows.
func (t *Turns) onThreadIdle() {
	if !t.t.running || t.t.starting {
		return
	}
	t.t.seq++
	seq := t.t.seq
	t.out().Cmd(t.env.Clock.After(idleGrace, func(time.Time) tea.Msg { return idleCheckMsg{seq: seq} }))
}

func (t *Turns) onIdleCheck(msg idleCheckMsg) {
	if msg.seq == t.t.seq && t.t.running && !t.t.starting {
		t.endTurn(backend.Turn{Status: backend.TurnCompleted})
		t.banner(ui.BannerWarning, "the server went idle without completing the turn; ended it", nil)
	}
}
