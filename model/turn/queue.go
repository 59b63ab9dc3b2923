package turn

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"tandem/backend"
	"tandem/model/act"
)

// The queue: prompts that wait for their turn, each sent once, in order,
// never glued to another. Tab while a turn runs queues the draft for
// after it (queueDraft); Enter before the session is ready queues it until
// it is (waitReady), and Enter while the turn is starting — turn/start
// sent, its answer not in — until the turn has started, when it steers
// the turn as Enter during a running turn does (waitStart), one steer at
// a time. Once no turn runs, the queue is sent one prompt per turn
// (flushQueue); a queued line that reads as a slash command runs as the
// command (act.RunQueued), as in Codex's TUI. An interrupt (Esc, Ctrl+C)
// puts what was queued back in the composer, as Codex's TUI does.

// wait is what a queued prompt waits for.
type wait int

const (
	waitTurnEnd wait = iota // the running turn's end (Tab)
	waitReady               // the session (Enter before it was ready)
	waitStart               // the turn's start, then steers it (Enter while it starts)
)

// queued is a prompt in the queue: as typed (placeholders unexpanded),
// and what it waits for.
type queued struct {
	raw   string
	until wait
}

// Pending is a queued prompt as the screen shows it: Raw, the draft as
// typed, and Note, what it waits for ("" for the end of the running
// turn).
type Pending struct{ Raw, Note string }

// Pending returns the queued prompts, first to be sent first, each with
// what it waits for.
func (t *Turns) Pending() []Pending {
	out := make([]Pending, len(t.t.queued))
	for i, q := range t.t.queued {
		out[i] = Pending{Raw: q.raw, Note: t.note(q)}
	}
	return out
}

// note says what q waits for, as the line above the composer shows it.
func (t *Turns) note(q queued) string {
	switch {
	case q.until == waitReady && !t.ready:
		return "sends when the session is ready"
	case q.until == waitStart && t.t.busy() && (t.client == nil || t.client.TurnID() == ""):
		return "sends when the turn has started"
	case q.until == waitStart && t.t.busy():
		return "steers the turn next"
	case readsAsCommand(q.raw):
		return "runs as a command when its turn comes"
	}
	return ""
}

// readsAsCommand reports whether raw reads as a slash command: "/" and a
// first word with no other "/" (a path is a message).
func readsAsCommand(raw string) bool {
	if !strings.HasPrefix(raw, "/") || strings.HasPrefix(raw, "/ ") {
		return false
	}
	word := raw[1:]
	if i := strings.IndexFunc(word, unicode.IsSpace); i >= 0 {
		word = word[:i]
	}
	return !strings.Contains(word, "/")
}

// enqueue queues raw until what it waits for comes, empties the draft,
// and says so (why: the notice; NoticeHeld, cleared when the session is
// ready, while it waits for that).
func (t *Turns) enqueue(raw string, until wait, why string) {
	t.t.queued = append(t.t.queued, queued{raw: raw, until: until})
	t.out().Want(act.SetDraft{})
	kind := act.NoticeInfo
	switch until {
	case waitReady:
		kind = act.NoticeHeld
	case waitStart:
		kind = act.NoticeTurnStarting // cleared once the turn started
	}
	t.notice(kind, why)
}

// waitsForReady reports a prompt Enter queued before the session was
// ready: the login check's end sends the queue.
func (t *Turns) waitsForReady() bool {
	for _, q := range t.t.queued {
		if q.until == waitReady {
			return true
		}
	}
	return false
}

// queuedRaws returns the queued prompts as typed.
func (t *Turns) queuedRaws() []string {
	out := make([]string, len(t.t.queued))
	for i, q := range t.t.queued {
		out[i] = q.raw
	}
	return out
}

// tooLong refuses text longer than the app-server takes
// (backend.MaxUserInputChars) before anything is drawn or sent: the draft
// stays, and the notice names the limit and the length.
func (t *Turns) tooLong(text string) bool {
	n := utf8.RuneCountInString(text)
	if n <= backend.MaxUserInputChars {
		return false
	}
	t.notice(act.NoticeInfo, "not sent: the message is "+thousands(n)+" characters — codex takes at most "+
		thousands(backend.MaxUserInputChars)+"; your message stays here")
	return true
}

// thousands writes n with a comma every three digits ("1,048,576").
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// steerQueued steers the running turn with the first prompt queued while
// it was starting, once it has started and no queued steer is on its way
// (onSteered sends the next): one at a time, so they arrive in order.
func (t *Turns) steerQueued() {
	if t.t.steering || len(t.t.steers) > 0 || t.t.check != nil || t.t.interruptLater || !t.t.busy() || t.client == nil || t.client.TurnID() == "" {
		return
	}
	for i, q := range t.t.queued {
		if q.until != waitStart {
			continue
		}
		t.t.queued = append(t.t.queued[:i:i], t.t.queued[i+1:]...)
		t.t.steering = true
		text := t.w.Expand(q.raw)
		t.sendSteer(text, t.w.HistEntry(q.raw, text))
		t.out().Want(act.PrunePastes{})
		return
	}
}

// steersQueued reports a prompt queued to steer the turn, or one on its
// way: a further Enter queues behind them, so they arrive in order.
func (t *Turns) steersQueued() bool {
	if t.t.steering {
		return true
	}
	for _, q := range t.t.queued {
		if q.until == waitStart {
			return true
		}
	}
	return false
}

// restoreQueue puts the queued prompts back in the composer, one a line,
// ahead of the draft (an interrupted turn: as Codex's TUI does), and says
// so.
func (t *Turns) restoreQueue() {
	if len(t.t.queued) == 0 {
		return
	}
	t.out().Want(act.RestoreDraft{Text: strings.Join(t.takeQueued(func(queued) bool { return true }), "\n")})
	t.notice(act.NoticeInfo, "the turn was interrupted — your queued messages are back in the composer")
}

// sendQueued sends raw, a queued prompt whose turn came: as a turn, its
// placeholders expanded, recorded in the history.
func (t *Turns) sendQueued(raw string) {
	text := t.w.Expand(raw)
	t.out().Want(act.AddHistory{Entry: t.w.HistEntry(raw, text)})
	t.out().Want(act.PrunePastes{})
	t.submit(text)
}

// SendQueued sends raw, a queued line the slash commands did not take (it
// only read as one), as a turn (act.RunQueued).
func (t *Turns) SendQueued(raw string) {
	if !t.CanStart() {
		t.t.queued = append([]queued{{raw: raw}}, t.t.queued...)
		return
	}
	t.sendQueued(raw)
}

// takeQueued removes the queued prompts which returns true for, and
// returns their texts in order, pastes expanded: a long text comes back as
// one placeholder of its own, never one holding others.
func (t *Turns) takeQueued(which func(queued) bool) []string {
	var texts []string
	rest := t.t.queued[:0:0]
	for _, q := range t.t.queued {
		if which(q) {
			texts = append(texts, t.w.Expand(q.raw))
		} else {
			rest = append(rest, q)
		}
	}
	t.t.queued = rest
	return texts
}
